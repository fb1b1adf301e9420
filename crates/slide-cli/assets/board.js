// The board: drawing tiles, moves, undo and reset, hints, and playing a solution step by step.
'use strict';

// ---------------------------------------------------------------- board
function setShapeOption(rows, cols) {
  const v = rows + 'x' + cols;
  if (![...el.shape.options].some((o) => o.value === v)) {
    const o = new Option(rows + ' × ' + cols, v);
    el.shape.add(o);
  }
  el.shape.value = v;
}

function setBoard(b, { result, fillInput } = {}) {
  cancelPlan();
  clearHint();
  hideReport();
  const rebuild = b.rows !== S.rows || b.cols !== S.cols || tileEls.size !== b.tiles.length;
  S.rows = b.rows; S.cols = b.cols;
  S.tiles = b.tiles.slice();
  S.start = b.tiles.slice();
  S.history = [];
  S.aids = new Set();
  if (rebuild) { clearTimeout(build.timer); build.token++; renderBuild(null); }
  setShapeOption(b.rows, b.cols);
  if (result) cachePut(curMKey('stm'), result);
  if (fillInput) {
    el.input.value = toText(b.tiles, b.rows, b.cols);
    setInputError(null);
  }
  renderBoard(rebuild);
  renderMoves();
  refreshAnalysis();
}

function buildTiles() {
  const board = el.board;
  board.classList.remove('empty');
  board.textContent = '';
  tileEls = new Map();
  const n = S.rows * S.cols;
  for (let v = 1; v <= n; v++) {
    const t = v === n ? 0 : v;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'tile';
    b.dataset.tile = String(t);
    const face = document.createElement('span');
    face.className = 'face';
    face.textContent = t === 0 ? '' : String(t);
    b.appendChild(face);
    if (t === 0) {
      b.tabIndex = -1;
      b.setAttribute('aria-hidden', 'true');
    }
    b.style.setProperty('--i', String(v));
    board.appendChild(b);
    tileEls.set(t, b);
  }
}

function renderBoard(rebuild) {
  const board = el.board;
  board.style.setProperty('--rows', String(S.rows));
  board.style.setProperty('--cols', String(S.cols));
  board.dataset.rows = String(S.rows);
  board.dataset.cols = String(S.cols);
  if (rebuild) {
    board.classList.add('no-anim');
    buildTiles();
    sizeTiles();
    renderFringe();
  }
  const gap = S.tiles.indexOf(0);
  S.tiles.forEach((v, i) => {
    const t = tileEls.get(v);
    const r = Math.floor(i / S.cols), c = i % S.cols;
    t.style.transform = 'translate(' + (c * 100) + '%, ' + (r * 100) + '%)';
    t.dataset.row = String(r);
    t.dataset.col = String(c);
    if (v === 0) return;
    const movable = adjacent(i, gap);
    t.classList.toggle('movable', movable);
    t.classList.toggle('home', goalIndex(v) === i);
    t.tabIndex = movable ? 0 : -1;
    t.setAttribute('aria-label', 'Tile ' + v + ', row ' + (r + 1) + ', column ' + (c + 1) + (movable ? ' (can slide)' : ''));
  });
  const solved = isSolved();
  const was = board.dataset.solved === 'true';
  board.dataset.solved = String(solved);
  board.dataset.board = toText(S.tiles, S.rows, S.cols);
  if (solved && !was && !rebuild && S.history.length) {
    board.classList.remove('celebrate');
    void board.offsetWidth;
    board.classList.add('celebrate');
  } else if (!solved) {
    board.classList.remove('celebrate');
  }
  if (rebuild) {
    void board.offsetWidth;
    requestAnimationFrame(() => board.classList.remove('no-anim'));
  }
}

function sizeTiles() {
  if (!S.cols) return;
  const w = el.board.clientWidth / S.cols;
  if (w > 0) el.board.style.setProperty('--tile', w.toFixed(1) + 'px');
}
if ('ResizeObserver' in window) new ResizeObserver(sizeTiles).observe(el.board);
else window.addEventListener('resize', sizeTiles);

// ---------------------------------------------------------------- moves
function arrowFor(from, to) {
  if (to === from - 1) return '←';
  if (to === from + 1) return '→';
  if (to < from) return '↑';
  return '↓';
}

// Slides `tile` into the gap; returns the arrow of its travel, or null if it cannot move.
function slide(tile) {
  const i = S.tiles.indexOf(tile), g = S.tiles.indexOf(0);
  if (tile === 0 || i < 0 || !adjacent(i, g)) return null;
  const before = curKey();
  S.tiles[g] = tile;
  S.tiles[i] = 0;
  // The rest of a known solution stays a solution: no need to ask again (in single-tile moves; one tile of a
  // multi-tile push need not leave an optimal rest).
  const oldMtm = cache.get(mkey('mtm', before));
  if (oldMtm && oldMtm.kind === 'unsolvable') cachePut(curMKey('mtm'), oldMtm);
  const old = cache.get(mkey('stm', before));
  if (old) {
    if (old.kind === 'unsolvable') cachePut(curMKey('stm'), old);
    else if (old.solution && old.solution[0] === tile) {
      // One move along: the rest is one shorter, and the optimum at most one less than before, and at least
      // the Manhattan distance of the new board (a proven lower bound in single-tile moves, which near the goal
      // is close to the rest, so the factor said shrinks towards 1 instead of growing as the old bound runs out).
      const moves = old.solution.length - 1;
      const lowerBound = old.lowerBound === null ? null : Math.max(old.lowerBound - 1, manhattan(S.tiles, S.rows, S.cols));
      const proven = old.optimal || (lowerBound !== null && moves <= lowerBound);
      cachePut(curMKey('stm'), {
        kind: 'ok', metric: 'stm', moves, solution: old.solution.slice(1), optimal: proven,
        lowerBound: proven ? null : lowerBound,
        bound: proven || old.bound === null || !lowerBound ? null : moves / lowerBound,
        fast: !proven && old.fast,
      });
    }
  }
  return arrowFor(i, g);
}

// The sum over tiles of their row and column distances to their goal cells: a lower bound in single-tile moves.
function manhattan(tiles, rows, cols) {
  let d = 0;
  tiles.forEach((v, i) => {
    if (v === 0) return;
    const g = v - 1;
    d += Math.abs(Math.floor(g / cols) - Math.floor(i / cols)) + Math.abs((g % cols) - (i % cols));
  });
  return d;
}

function afterMove() {
  clearHint();
  renderBoard(false);
  renderMoves();
  refreshAnalysis();
  practiceCheck();
  const last = S.history[S.history.length - 1];
  if (isSolved() && last && !last.solver && !S.plan) analyseSolve();
}

function userMove(tile) {
  if (!S.tiles.length) return;
  const dir = slide(tile);
  if (!dir) { nudge(tile); return; }
  clearNotice();
  S.history.push({ tile, dir, solver: false });
  practiceMove(dir, 'player');
  const p = S.plan;
  if (p) {
    if (p.tiles[p.idx] === tile) {
      p.idx++;
      if (p.idx >= p.tiles.length) finishPlan();
    } else {
      cancelPlan();
    }
  }
  afterMove();
}

function nudge(tile) {
  const t = tileEls.get(tile);
  if (!t) return;
  t.classList.remove('nudge');
  void t.offsetWidth;
  t.classList.add('nudge');
  setTimeout(() => t.classList.remove('nudge'), 320);
}

function undo() {
  const last = S.history[S.history.length - 1];
  if (!last) return;
  cancelPlan();
  clearNotice();
  const dir = slide(last.tile);
  if (!dir) return;
  S.history.pop();
  S.aids.add('undo');
  practiceMove(dir, 'undo');
  afterMove();
}

function reset() {
  if (!S.history.length) return;
  cancelPlan();
  clearNotice();
  S.tiles = S.start.slice();
  S.history = [];
  practiceReset();
  afterMove();
}

// ---------------------------------------------------------------- hint & solve
function clearHint() {
  if (S.hintTile === null) return;
  const t = tileEls.get(S.hintTile);
  if (t) { t.classList.remove('hint'); delete t.dataset.hint; }
  S.hintTile = null;
}
// Shows the next move of `rest` (the tiles of a solution from the board on screen). In MTM a move is a push: the
// tiles of the solution's first run of one direction, named as `slide hint --metric mtm` names it, by its farthest
// tile and written `D2` (a push of two tiles down); clicking that tile pushes them all.
function showHint(rest, r) {
  clearHint();
  const g = S.tiles.indexOf(0);
  const first = rest[0], dir = arrowFor(S.tiles.indexOf(first), g);
  let push = [first];
  if (r && r.metric === 'mtm') {
    const tiles = S.tiles.slice();
    push = [];
    for (const t of rest) {
      const gi = tiles.indexOf(0), ti = tiles.indexOf(t);
      if (arrowFor(ti, gi) !== dir || !adjacent(ti, gi)) break;
      tiles[gi] = t; tiles[ti] = 0;
      push.push(t);
    }
  }
  const tile = push[push.length - 1];
  const t = tileEls.get(tile);
  if (!t) return;
  S.hintTile = tile;
  t.classList.add('hint');
  t.dataset.hint = 'true';
  S.aids.add('hint');
  assist('hint');
  const from = r && !r.optimal ? ' (from a solution of ' + quality(r) + ')' : '';
  const letter = LETTER[dir] + (push.length > 1 ? String(push.length) : '');
  const what = push.length > 1 ? 'push tiles ' + push.slice(0, -1).join(', ') + ' and ' + tile + ' ' + dir + ', one move in MTM'
    : 'slide tile ' + tile + ' ' + dir;
  notice('Hint: ' + letter + ' — ' + what + from + '.', 'info');
  el.notice.dataset.hint = letter;
}

let busyToken = 0;
function setBusy(btn, on) { btn.classList.toggle('busy', on); btn.setAttribute('aria-busy', String(on)); }

// Fetches (or reuses) the solution for the board on screen; returns it, or null after telling the user why not.
async function solutionForCurrent(btn) {
  const k = curMKey(), token = ++busyToken;
  if (!cache.has(k)) setBusy(btn, true);
  let r;
  try {
    r = await analyze(k, S.rows, S.cols, S.tiles.slice(), S.metric);
  } catch (e) {
    if (e && e.name === 'AbortError') return null;
    if (k === curMKey()) notice(e.message, 'error');
    return null;
  } finally {
    setBusy(btn, false);
  }
  if (token !== busyToken || k !== curMKey()) return null;
  if (S.analysis !== r) { S.analysis = r; renderInfo(); }
  if (r.kind === 'unsolvable') { notice('This board cannot be solved: ' + r.reason, 'error'); return null; }
  if (!r.solution) {
    notice(r.optimal ? 'The server did not send a solution.'
      : 'Nothing to play: the solver stopped at its search budget before it found an answer for this board. Try a smaller shape or make a few moves towards the goal.', 'warn');
    return null;
  }
  return r;
}

async function onHint() {
  clearNotice();
  if (isSolved()) { notice('Already solved — nothing to hint.', 'info'); return; }
  if (S.plan && !S.plan.typed && S.plan.idx < S.plan.tiles.length) {
    showHint(S.plan.tiles.slice(S.plan.idx), cache.get(curMKey()) || { metric: S.plan.metric, optimal: S.plan.optimal });
    return;
  }
  const r = await solutionForCurrent(el.hint);
  if (r && r.solution.length) showHint(r.solution, r);
}

async function ensurePlan(btn) {
  if (S.plan && S.plan.typed) cancelPlan();
  if (S.plan) return S.plan;
  if (isSolved()) { notice('Already solved.', 'info'); return null; }
  const r = await solutionForCurrent(btn);
  if (!r || !r.solution.length) return null;
  if (S.plan) return S.plan;
  S.plan = { tiles: r.solution.slice(), idx: 0, playing: false, timer: 0, optimal: r.optimal, typed: false, metric: r.metric };
  if (!r.optimal) {
    notice('Playing ' + quality(r) + '. The shortest was not found within the server\'s time budget. ' + keepSearching(), 'warn');
  }
  return S.plan;
}

// "Keep searching": offered while the board on screen has an answer not proven shortest and nothing plays; the
// same board asked again with the server's longest budget (GET /api/status says it); a shorter or proven answer
// replaces the one in the cache and is said.
function syncLongSearch() {
  const btn = el.keepSearching, a = S.analysis;
  if (btn.disabled && !btn.hidden) return; // a longer search is under way
  const want = a && a.kind === 'ok' && a.moves !== null && !a.optimal && !S.plan && !isSolved();
  if (!want) { if (!btn.hidden) hideLongSearch(); return; }
  if (btn.dataset.key !== curMKey()) offerLongSearch(a);
}
async function offerLongSearch(r) {
  const btn = el.keepSearching;
  const k = curMKey(), tiles = S.tiles.slice(), rows = S.rows, cols = S.cols, metric = r.metric;
  btn.dataset.key = k;
  let d;
  try { d = await api('api/status'); } catch (_) { return; }
  const max = typeof d.max_timeout === 'number' ? d.max_timeout : 0;
  if (!(max > (d.timeout || 0)) || k !== curMKey()) return;
  btn.textContent = 'Keep searching (up to ' + max + ' s)';
  btn.hidden = false;
  btn.disabled = false;
  btn.onclick = async () => {
    btn.disabled = true;
    btn.textContent = 'Searching for up to ' + max + ' s…';
    const body = { board: toRows(tiles, rows, cols), moves: true, timeout: max };
    if (metric === 'mtm') body.metric = 'mtm';
    let res;
    try { res = readResult(await api('api/solve', { body })); } catch (e) {
      hideLongSearch();
      if (k === curMKey()) notice('The longer search failed: ' + (e && e.message ? e.message : e), 'error');
      return;
    }
    hideLongSearch();
    const old = cache.get(k);
    const better = res.kind === 'ok' && res.moves !== null
      && (!old || old.moves === null || res.optimal || res.moves < old.moves);
    if (better) cachePut(k, res);
    if (k !== curMKey()) return;
    if (better) {
      if (S.plan && !S.plan.typed && S.plan.idx === 0) cancelPlan();
      S.analysis = res;
      renderInfo();
      notice('The longer search found ' + quality(res) + '. Press Solve to watch it.', res.optimal ? 'info' : 'warn');
    } else {
      notice('The longer search found nothing shorter. ' + keepSearching(), 'warn');
    }
  };
}
function hideLongSearch() {
  el.keepSearching.hidden = true;
  el.keepSearching.disabled = false;
  el.keepSearching.onclick = null;
  delete el.keepSearching.dataset.key;
}

function interval() { return SPEEDS[Number(el.speed.value) - 1].ms; }

function schedule(delay) {
  const p = S.plan;
  if (!p) return;
  clearTimeout(p.timer);
  if (!p.playing) return;
  p.timer = setTimeout(() => {
    if (S.plan !== p || !p.playing) return;
    stepPlan();
    if (S.plan === p && p.playing) schedule(interval());
  }, delay);
}

function stepPlan() {
  const p = S.plan;
  if (!p) return;
  const tile = p.tiles[p.idx];
  const dir = slide(tile);
  if (!dir) {
    cancelPlan();
    notice((p.typed ? 'Your moves do not fit this board' : 'The solution from the server does not fit this board')
      + ' (tile ' + tile + ' is not next to the gap).', 'error');
    renderInfo();
    return;
  }
  S.history.push({ tile, dir, solver: !p.typed });
  if (!p.typed) S.aids.add('solver');
  practiceMove(dir, p.typed ? 'typed' : 'solver');
  p.idx++;
  if (p.idx >= p.tiles.length) finishPlan();
  afterMove();
}

function finishPlan() {
  if (!S.plan) return;
  clearTimeout(S.plan.timer);
  S.plan = null;
}
function cancelPlan() {
  if (!S.plan) return;
  clearTimeout(S.plan.timer);
  S.plan = null;
  busyToken++;
}

async function onSolve() {
  clearNotice();
  const p = await ensurePlan(el.solve);
  if (!p) { renderControls(); return; }
  clearHint();
  p.playing = true;
  renderInfo();
  schedule(p.idx === 0 ? 250 : 0);
}
async function onPlay() {
  if (S.plan) {
    S.plan.playing = true;
    renderInfo();
    schedule(0);
  } else {
    await onSolve();
  }
}
function onPause() {
  const p = S.plan;
  if (!p) return;
  p.playing = false;
  clearTimeout(p.timer);
  renderInfo();
}
async function onStep() {
  clearNotice();
  if (S.plan) {
    S.plan.playing = false;
    clearTimeout(S.plan.timer);
    stepPlan();
    return;
  }
  const p = await ensurePlan(el.step);
  if (!p) { renderControls(); return; }
  stepPlan();
}
