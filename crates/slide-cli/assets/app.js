// The rest of the page: the solve analysis, typed moves, downloads, statistics, new boards, rendering, events and start.
'use strict';

// ---------------------------------------------------------------- analysis of the player's solve
let reportToken = 0;
function hideReport() {
  reportToken++;
  S.report = null;
  el.analysis.hidden = true;
  el.timeline.textContent = '';
}

// Asks the server to judge the moves played from the start board (POST /api/analyse) and shows the answer.
async function analyseSolve() {
  const tiles = S.history.map((h) => h.tile);
  if (tiles.length > 10000) {
    S.report = null;
    el.analysis.hidden = false;
    el.analysis.dataset.state = 'error';
    el.analysisSummary.textContent = 'Solved in ' + plural(tiles.length, 'move') + ': too many for an analysis (at most 10,000).';
    el.timeline.textContent = '';
    return;
  }
  const token = ++reportToken;
  const report = {
    start: S.start.slice(), rows: S.rows, cols: S.cols, tiles, letters: S.history.map((h) => LETTER[h.dir]),
    // A solve the solver stepped through, or with a hint or an undo, is not the player's alone.
    aids: [...S.aids], solverMoves: S.history.filter((h) => h.solver).length,
    data: null, error: null, status: 0, at: null, better: new Map(),
  };
  S.report = report;
  el.analysis.hidden = false;
  el.analysis.dataset.state = 'pending';
  el.analysis.dataset.assisted = String(report.aids.length > 0);
  el.analysisSummary.textContent = 'Analysing your ' + plural(tiles.length, 'move') + '…';
  el.timeline.textContent = '';
  el.mistakeList.textContent = '';
  el.analysisMtm.hidden = true;
  try {
    report.data = await api('api/analyse', { body: { board: toRows(report.start, report.rows, report.cols), moves: tiles } });
  } catch (e) {
    report.error = e.message;
    report.status = e.status || 0;
  }
  if (token !== reportToken) return;
  renderReport();
  if (report.data) {
    analyseMtm(report);
    betterMoves(report);
  }
}

// What is known of a solve the server could not analyse (a 5 × 5 analysis its budget stopped): the length, the
// MTM count, and from the answer for the start board the proven lower bound, so "at most N over".
function knownOfSolve(r) {
  const len = r.tiles.length, mtm = mtmOf(r.letters);
  let text = 'You took ' + plural(len, 'move') + ' (' + mtm + ' in MTM).';
  const a = cache.get(mkey('stm', keyOf(r.rows, r.cols, r.start)));
  if (a && a.kind === 'ok' && a.optimal && a.moves !== null) {
    const over = len - a.moves;
    text += ' The shortest takes ' + plural(a.moves, 'move') + (over > 0 ? ': ' + plural(over, 'move') + ' over.' : ': an optimal solve.');
  } else if (a && a.kind === 'ok' && a.lowerBound !== null) {
    text += ' The optimum is at least ' + plural(a.lowerBound, 'move') + ', so this is at most ' + plural(Math.max(0, len - a.lowerBound), 'move') + ' over'
      + (a.moves !== null && a.moves < len ? ' (and at least ' + plural(len - a.moves, 'move') + ' over: the server found ' + plural(a.moves, 'move') + ')' : '') + '.';
  }
  return text;
}

function renderReport() {
  const r = S.report;
  if (!r) return;
  el.timeline.textContent = '';
  el.mistakeList.textContent = '';
  if (r.error) {
    el.analysis.dataset.state = r.status === 503 ? 'partial' : 'error';
    el.analysisSummary.textContent = (r.status === 503 ? 'No move-by-move analysis within the server\'s budget (' + r.error + '). ' + knownOfSolve(r)
      : 'Your solve could not be analysed: ' + r.error);
    return;
  }
  const d = r.data;
  el.analysis.dataset.state = 'done';
  const mistakes = new Set(Array.isArray(d.mistakes) ? d.mistakes : []);
  el.analysis.dataset.mistakes = [...mistakes].join(',');
  el.analysis.dataset.over = String(d.over);
  el.analysisSummary.textContent = '';
  const strong = document.createElement('strong');
  const assisted = r.aids.length > 0;
  if (assisted) {
    strong.textContent = 'Assisted solve';
  } else {
    strong.textContent = d.over === 0 ? 'Optimal solve!' : plural(d.over, 'move') + ' over the optimum';
  }
  const rest = document.createElement('span');
  const help = assisted ? ' — not credited as yours: ' + (r.solverMoves ? plural(r.solverMoves, 'move') + ' of ' + d.length + ' made by the solver' : '')
    + (r.solverMoves && r.aids.some((a) => a !== 'solver') ? ', ' : '') + r.aids.filter((a) => a !== 'solver').map((a) => a + ' used').join(', ') + '. ' : ' — ';
  rest.textContent = help + (assisted ? 'The moves took ' : 'you took ') + plural(d.length, 'move') + ' (' + d.mtm_length + ' in MTM); the shortest takes '
    + plural(d.optimal, 'move') + (assisted && d.over ? ' (' + d.over + ' over)' : '') + '. '
    + (mistakes.size ? plural(mistakes.size, 'mistake') + ' marked below.' : assisted ? '' : 'No mistakes.');
  el.analysisSummary.append(strong, rest);
  const frag = document.createDocumentFragment();
  r.tiles.forEach((t, i) => {
    const n = i + 1, li = document.createElement('li');
    const after = Array.isArray(d.distances) ? d.distances[i] : null;
    const what = 'Move ' + n + ': tile ' + t + (after !== null && after !== undefined ? ', then ' + plural(after, 'move') + ' from the goal' : '');
    let item;
    if (mistakes.has(n)) {
      item = document.createElement('button');
      item.type = 'button';
      item.className = 'mistake';
      item.dataset.move = String(n);
      item.title = what + ' — a mistake (' + mistakeCost(d, n) + '): click to go back to the position before it';
      item.setAttribute('aria-label', 'Mistake at move ' + n + ' (tile ' + t + '): go back to before it');
      if (r.at === n) item.setAttribute('aria-current', 'step');
    } else {
      item = document.createElement('span');
      item.className = 'good';
      item.title = what;
    }
    item.textContent = String(t);
    li.appendChild(item);
    frag.appendChild(li);
  });
  el.timeline.appendChild(frag);
  for (const n of [...mistakes].slice(0, 12)) {
    const li = document.createElement('li');
    const b = r.better.get(n);
    li.dataset.move = String(n);
    li.textContent = 'Move ' + n + ' (tile ' + r.tiles[n - 1] + ' ' + r.letters[n - 1] + '): ' + mistakeCost(d, n)
      + (b ? '; better: tile ' + b.tile + ' ' + b.letter : '');
    el.mistakeList.appendChild(li);
  }
}

// What a mistake cost: a move after which the board is no closer costs the distance it added plus the move itself.
function mistakeCost(d, n) {
  const dist = Array.isArray(d.distances) ? d.distances : null;
  if (!dist) return 'a mistake';
  const before = n === 1 ? d.optimal : dist[n - 2], after = dist[n - 1];
  const cost = after - before + 1;
  return 'cost ' + plural(cost, 'move');
}

// The better move before each mistake (the first move of a shortest solution from there), up to 12 mistakes.
async function betterMoves(r) {
  const d = r.data, mistakes = Array.isArray(d.mistakes) ? d.mistakes.slice(0, 12) : [];
  for (const n of mistakes) {
    const tiles = r.start.slice();
    for (const t of r.tiles.slice(0, n - 1)) { const g = tiles.indexOf(0), i = tiles.indexOf(t); tiles[g] = t; tiles[i] = 0; }
    let res;
    try { res = readResult(await api('api/solve', { body: { board: toRows(tiles, r.rows, r.cols), moves: true } })); } catch (_) { return; }
    if (S.report !== r) return;
    if (res.kind !== 'ok' || !res.optimal || !res.solution || !res.solution.length) continue;
    const t = res.solution[0], g = tiles.indexOf(0), i = tiles.indexOf(t);
    r.better.set(n, { tile: t, letter: LETTER[arrowForCells(i, g, r.cols)] });
    renderReport();
  }
}
function arrowForCells(from, to, cols) {
  if (to === from - 1 && Math.floor(to / cols) === Math.floor(from / cols)) return '←';
  if (to === from + 1 && Math.floor(to / cols) === Math.floor(from / cols)) return '→';
  return to < from ? '↑' : '↓';
}

// Sets the board to the position before move `n` of the analysed solve (the moves before it stay in the list).
function goBackTo(n) {
  const r = S.report;
  if (!r || r.rows !== S.rows || r.cols !== S.cols) return;
  cancelPlan();
  clearHint();
  clearNotice();
  S.tiles = r.start.slice();
  S.start = r.start.slice();
  S.history = [];
  S.aids = new Set();
  practiceOff();
  for (const t of r.tiles.slice(0, n - 1)) {
    const dir = slide(t);
    if (!dir) break;
    S.history.push({ tile: t, dir, solver: false });
  }
  r.at = n;
  renderBoard(false);
  renderMoves();
  refreshAnalysis();
  renderReport();
  notice('Back to the position before move ' + n + ' (tile ' + r.tiles[n - 1] + '). Try a better move from here.', 'info');
}

// ---------------------------------------------------------------- typed moves
let typedToken = 0;
function setMovesError(msg) {
  if (msg) {
    el.movesError.textContent = msg;
    el.movesError.hidden = false;
    el.movesInput.setAttribute('aria-invalid', 'true');
  } else {
    el.movesError.hidden = true;
    el.movesError.textContent = '';
    el.movesInput.removeAttribute('aria-invalid');
  }
}

// Reads the typed moves on the board on screen (POST /api/moves, the same reader as the CLI): the tiles, or null
// after showing what is wrong.
async function readTyped(btn) {
  const text = el.movesInput.value.trim();
  if (!text) { setMovesError('Type a move sequence first, for example R2U2LD or 5 4 1.'); el.movesInput.focus(); return null; }
  if (!S.tiles.length) return null;
  const k = curKey(), token = ++typedToken;
  setMovesError(null);
  setBusy(btn, true);
  try {
    const d = await api('api/moves', { body: { board: toRows(S.tiles, S.rows, S.cols), moves: text } });
    if (token !== typedToken || k !== curKey()) return null;
    if (!Array.isArray(d.tiles)) throw new ApiError('The server sent no tiles.', 0);
    return d.tiles.map(Number);
  } catch (e) {
    if (token === typedToken) setMovesError(e.message);
    return null;
  } finally {
    setBusy(btn, false);
  }
}

async function applyTyped() {
  const tiles = await readTyped(el.applyMoves);
  if (!tiles) return;
  cancelPlan();
  clearNotice();
  for (const t of tiles) {
    const dir = slide(t);
    if (!dir) { setMovesError('Tile ' + t + ' is not next to the gap.'); break; }
    S.history.push({ tile: t, dir, solver: false });
    practiceMove(dir, 'typed');
  }
  afterMove();
}

async function animateTyped() {
  const tiles = await readTyped(el.animateMoves);
  if (!tiles || !tiles.length) return;
  cancelPlan();
  clearHint();
  clearNotice();
  S.plan = { tiles, idx: 0, playing: true, timer: 0, optimal: false, typed: true, metric: 'stm' };
  renderInfo();
  schedule(0);
}

// ---------------------------------------------------------------- downloads
// Fetches a picture from GET /api/render and saves it under the name the server gives.
async function download(params, btn, what) {
  clearNotice();
  const q = new URLSearchParams(Object.assign({ board: toRows(S.tiles, S.rows, S.cols).map((r) => r.join(' ')).join('/') }, params));
  setBusy(btn, true);
  try {
    let res;
    try {
      res = await fetch('api/render?' + q.toString());
    } catch (_) {
      throw new ApiError('Cannot reach the solver. Is “slide serve” still running?', 0);
    }
    if (!res.ok) {
      let msg = 'HTTP ' + res.status;
      try { const d = await res.json(); if (d && d.error) msg = d.error; } catch (_) { /* not JSON */ }
      throw new ApiError(msg, res.status);
    }
    const blob = await res.blob();
    const cd = res.headers.get('Content-Disposition') || '';
    const m = /filename="([^"]+)"/.exec(cd);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = m ? m[1] : 'slide.' + params.format;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    if (res.headers.get('X-Slide-Optimal') === 'false') {
      notice('Saved ' + a.download + ': the server\'s budget found a solution, not a proven shortest one.', 'warn');
    }
  } catch (e) {
    notice('Could not download ' + what + ': ' + e.message, 'error');
  } finally {
    setBusy(btn, false);
  }
}
function downloadPng() { download({ format: 'png', size: '480' }, el.downloadPng, 'the board'); }
function downloadGif() {
  const p = { solve: '1', format: 'gif', size: '320' };
  if (S.metric === 'mtm' && bothMetrics()) p.metric = 'mtm';
  download(p, el.downloadGif, 'the solution');
}

// ---------------------------------------------------------------- statistics
let statsToken = 0;
async function showStats() {
  const shape = el.statsShape.value, metric = el.statsMetric.value, token = ++statsToken;
  const q = 'shape=' + encodeURIComponent(shape) + '&metric=' + encodeURIComponent(metric);
  el.statsError.hidden = true;
  setBusy(el.statsShow, true);
  el.statsSummary.textContent = 'Counting the boards of ' + shape.replace('x', ' × ') + '…';
  try {
    const d = await api('api/stats?' + q);
    if (token !== statsToken) return;
    const img = el.statsChart;
    await new Promise((resolve, reject) => {
      img.onload = resolve;
      img.onerror = () => reject(new ApiError('the chart could not be drawn.', 0));
      img.src = 'api/stats/plot?' + q;
    });
    if (token !== statsToken) return;
    img.alt = 'Boards of ' + d.shape + ' at each distance from the goal (' + d.metric.toUpperCase() + '); god\'s number ' + d.gods_number;
    el.statsChartBox.hidden = false;
    el.statsChartBox.dataset.shape = d.shape;
    el.statsChartBox.dataset.metric = d.metric;
    el.statsSummary.textContent = d.shape.replace('x', ' × ') + ' in ' + (d.metric === 'mtm' ? 'multi-tile' : 'single-tile')
      + ' moves: ' + Number(d.states).toLocaleString('en') + ' boards reach the goal; god\'s number is ' + d.gods_number
      + ' (' + Number(d.histogram[d.histogram.length - 1]).toLocaleString('en') + ' ' + (d.histogram[d.histogram.length - 1] === 1 ? 'board needs' : 'boards need') + ' that many).';
  } catch (e) {
    if (token !== statsToken) return;
    el.statsError.textContent = 'No statistics: ' + e.message;
    el.statsError.hidden = false;
    el.statsSummary.textContent = '';
  } finally {
    if (token === statsToken) setBusy(el.statsShow, false);
  }
}

// ---------------------------------------------------------------- new boards
let boardToken = 0;

async function scramble() {
  const token = ++boardToken;
  clearNotice();
  setBusy(el.scramble, true);
  try {
    // A scramble is timed from its first move: one that happens to be the goal (1 in 12 on 2 × 2) is drawn again.
    let b = null;
    for (let tries = 0; tries < 8; tries++) {
      b = readBoard((await api('api/scramble?shape=' + encodeURIComponent(el.shape.value))).board);
      if (b.tiles.some((v, i) => v !== (i === b.tiles.length - 1 ? 0 : i + 1))) break;
    }
    if (token !== boardToken) return;
    setBoard(b, { fillInput: true });
    practiceArm();
  } catch (e) {
    if (token !== boardToken) return;
    notice('Could not scramble: ' + e.message, 'error');
    if (!S.tiles.length) showGoalBoard();
  } finally {
    if (token === boardToken) setBusy(el.scramble, false);
  }
}

function showGoalBoard() {
  const [rows, cols] = el.shape.value.split('x').map(Number);
  const n = rows * cols;
  setBoard({ rows, cols, tiles: Array.from({ length: n }, (_, i) => (i === n - 1 ? 0 : i + 1)) });
}

async function load() {
  const text = el.input.value.trim();
  if (!text) {
    setInputError('Type or paste a board first, for example 1 2 3/4 0 5.');
    el.input.focus();
    return;
  }
  const token = ++boardToken;
  setBusy(el.scramble, false);
  setInputError(null);
  clearNotice();
  setBusy(el.load, true);
  try {
    const d = await api('api/solve', { body: { board: text, moves: true } });
    if (token !== boardToken) return;
    setBoard(readBoard(d.board), { result: readResult(d) });
    practiceOff();
  } catch (e) {
    if (token !== boardToken) return;
    setInputError(e.message);
  } finally {
    if (token === boardToken) setBusy(el.load, false);
  }
}

function setInputError(msg) {
  if (msg) {
    el.error.innerHTML = '';
    const head = document.createElement('strong');
    head.textContent = 'That board could not be read.';
    const body = document.createElement('span');
    body.textContent = msg;
    el.error.append(head, body);
    el.error.hidden = false;
    el.input.setAttribute('aria-invalid', 'true');
  } else {
    el.error.hidden = true;
    el.error.textContent = '';
    el.input.removeAttribute('aria-invalid');
  }
}

// ---------------------------------------------------------------- rendering
function notice(msg, kind) {
  el.notice.textContent = msg;
  el.notice.dataset.kind = kind || 'info';
  el.notice.hidden = false;
}
function clearNotice() {
  el.notice.hidden = true;
  el.notice.textContent = '';
  delete el.notice.dataset.hint;
}

function renderInfo() {
  syncLongSearch();
  const a = S.analysis, solved = isSolved(), p = S.plan;
  let state, title, detail = '';
  if (!S.tiles.length) { state = 'loading'; title = 'Loading…'; }
  else if (solved) {
    state = 'solved';
    title = 'Solved!';
    detail = S.history.length ? 'Solved in ' + plural(S.history.length, 'move') + '.' : 'This board is already in the goal state.';
  } else if (a && a.kind === 'unsolvable') {
    state = 'unsolvable';
    title = 'Unsolvable';
    detail = a.reason;
  } else if (p && p.typed) {
    state = p.playing ? 'solving' : 'paused';
    title = p.playing ? 'Playing your moves…' : 'Paused';
    detail = 'Move ' + p.idx + ' of ' + p.tiles.length + ' you typed';
  } else if (p) {
    state = p.playing ? 'solving' : 'paused';
    title = p.playing ? 'Solving…' : 'Paused';
    detail = 'Step ' + p.idx + ' of ' + p.tiles.length + (p.optimal ? ' of a shortest solution' + (p.metric === 'mtm' ? ' in multi-tile moves' : '') : '');
  } else {
    state = 'playing';
    title = 'Your move';
    detail = S.history.length ? '' : 'Slide the tiles into order: 1, 2, 3, … with the gap last.';
    if (S.rows * S.cols >= 20 && !S.history.length) {
      detail += ' On ' + S.rows + ' × ' + S.cols + ' the shortest solution is rarely found within the server\'s time budget,'
        + ' so Solve shows the best solution the budget finds, with how close to the shortest it is.';
    }
  }
  el.status.dataset.state = state;
  el.board.dataset.unsolvable = String(state === 'unsolvable');
  el.status.innerHTML = '';
  const strong = document.createElement('strong');
  strong.textContent = title;
  const span = document.createElement('span');
  span.className = 'detail';
  span.textContent = detail;
  el.status.append(strong, span);

  // remaining
  let rs, text, spin = false, movesLeft = null;
  if (!S.tiles.length) { rs = 'pending'; text = 'Optimal: computing…'; spin = true; }
  else if (solved) { rs = 'solved'; text = 'Optimal: 0 moves left'; movesLeft = 0; }
  else if (S.analysisError) { rs = 'error'; text = 'Solver error: ' + S.analysisError; }
  else if (!a) { rs = 'pending'; text = 'Optimal: computing…'; spin = true; }
  else if (a.kind === 'unsolvable') { rs = 'unsolvable'; text = 'No solution exists'; }
  else if (a.optimal && a.moves !== null) {
    rs = 'ok';
    text = 'Optimal: ' + plural(a.moves, 'move') + ' left' + (S.metric === 'mtm' ? ' (MTM)' : '');
    movesLeft = a.moves;
  }
  else if (a.moves !== null) {
    rs = 'budget';
    text = 'Best found: ' + quality(a);
  } else {
    rs = 'budget';
    text = 'No proven answer within the budget' + (a.lowerBound !== null ? ' (at least ' + plural(a.lowerBound, 'move') + ')' : '');
  }
  el.remaining.dataset.state = rs;
  if (movesLeft === null) delete el.remaining.dataset.moves; else el.remaining.dataset.moves = String(movesLeft);
  el.remaining.innerHTML = '';
  if (spin) {
    const s = document.createElement('span');
    s.className = 'spinner';
    s.setAttribute('aria-hidden', 'true');
    el.remaining.appendChild(s);
  }
  const t = document.createElement('span');
  t.textContent = text;
  el.remaining.appendChild(t);
  el.remaining.dataset.metric = S.metric;

  // both metrics
  el.metricRow.hidden = !bothMetrics();
  if (bothMetrics()) {
    const mine = solved ? { result: cache.get(curMKey()) } : (S.analysisError ? { error: S.analysisError } : { result: a });
    const said = { [S.metric]: mine, [otherMetric()]: solved ? { result: cache.get(curMKey(otherMetric())) } : S.other };
    for (const m of ['stm', 'mtm']) {
      const box = m === 'stm' ? el.distStm : el.distMtm, v = said[m];
      let txt = '…', n = null;
      if (v && v.error) txt = '?';
      else if (v && v.result) {
        const r = v.result;
        if (r.kind === 'unsolvable') txt = '—';
        else if (r.optimal && r.moves !== null) { txt = String(r.moves); n = r.moves; }
        else if (r.lowerBound !== null) txt = '≥ ' + r.lowerBound;
      }
      box.textContent = txt;
      box.title = v && v.error ? v.error : '';
      if (n === null) delete box.dataset.moves; else box.dataset.moves = String(n);
    }
  }

  // progress
  if (p) {
    el.progress.hidden = false;
    el.progressText.textContent = 'Step ' + p.idx + ' of ' + p.tiles.length;
    el.progressBar.style.width = (100 * p.idx / p.tiles.length).toFixed(1) + '%';
  } else {
    el.progress.hidden = true;
  }
  renderControls();
}

function renderControls() {
  const a = S.analysis, solved = isSolved(), none = !S.tiles.length;
  const stuck = !!(a && a.kind === 'unsolvable');
  const playing = !!(S.plan && S.plan.playing);
  el.hint.disabled = none || solved || stuck;
  el.solve.disabled = none || solved || stuck || playing;
  el.play.disabled = none || solved || stuck || playing;
  el.pause.disabled = !playing;
  el.step.disabled = none || solved || stuck;
  el.undo.disabled = !S.history.length;
  el.reset.disabled = !S.history.length;
  el.applyMoves.disabled = none;
  el.animateMoves.disabled = none;
  el.downloadPng.disabled = none;
  el.downloadGif.disabled = none || solved || stuck;
  // Spoiler-free: while a timed solve is under way, no optimum, distances or hints.
  const hide = spoilersHidden();
  el.remaining.hidden = hide;
  el.hint.hidden = hide;
  if (hide) { el.metricRow.hidden = true; el.keepSearching.hidden = true; }
}

function renderMoves() {
  const h = S.history;
  el.moveCount.textContent = String(h.length);
  el.movesEmpty.hidden = h.length > 0;
  el.moveList.textContent = '';
  const from = Math.max(0, h.length - MAX_LISTED_MOVES);
  const frag = document.createDocumentFragment();
  if (from > 0) {
    const li = document.createElement('li');
    li.className = 'more';
    li.textContent = '… ' + from + ' earlier';
    frag.appendChild(li);
  }
  for (let i = from; i < h.length; i++) {
    const li = document.createElement('li');
    if (h[i].solver) li.className = 'solver';
    li.dataset.tile = String(h[i].tile);
    li.title = 'Move ' + (i + 1) + ': tile ' + h[i].tile + (h[i].solver ? ' (solver)' : '');
    li.append(String(h[i].tile));
    const arrow = document.createElement('span');
    arrow.className = 'arrow';
    arrow.textContent = h[i].dir;
    li.appendChild(arrow);
    frag.appendChild(li);
  }
  el.moveList.appendChild(frag);
  el.moveList.scrollTop = el.moveList.scrollHeight;
}

function applySpeed() {
  const s = SPEEDS[Number(el.speed.value) - 1];
  el.speedLabel.textContent = s.label;
  document.documentElement.style.setProperty('--slide-ms', s.slide + 'ms');
}

// ---------------------------------------------------------------- events
el.board.addEventListener('click', onBoardClick);
el.board.addEventListener('pointerover', onBoardHover);
document.addEventListener('keydown', onKey);

el.shape.addEventListener('change', startCategory);
el.scramble.addEventListener('click', startCategory);
el.category.addEventListener('change', () => { el.seriesBox.dataset.category = el.category.value; startCategory(); });
el.dnf.addEventListener('click', practiceDnf);
for (const box of [el.keys, el.gapKeys, el.hoverMode, el.fringe, el.spoilerFree, el.inspection]) box.addEventListener('change', saveSettings);
el.customKeys.addEventListener('click', (ev) => { const b = ev.target.closest('button[data-dir]'); if (b) startRebind(b.dataset.dir); });
el.viewSession.addEventListener('click', () => setRecordsView('session'));
el.viewAll.addEventListener('click', () => setRecordsView('all'));
el.replayPlay.addEventListener('click', () => replayPlay(null));
el.replayTpsPlay.addEventListener('click', () => replayPlay(Math.max(0.5, Math.min(50, Number(el.replayTps.value) || 8))));
el.replayStep.addEventListener('click', replayStepButton);
el.replayCopy.addEventListener('click', copyNotation);
el.replayGif.addEventListener('click', downloadSolveGif);
el.undo.addEventListener('click', undo);
el.reset.addEventListener('click', reset);
el.hint.addEventListener('click', onHint);
el.solve.addEventListener('click', onSolve);
el.play.addEventListener('click', onPlay);
el.pause.addEventListener('click', onPause);
el.step.addEventListener('click', onStep);
el.speed.addEventListener('input', () => {
  applySpeed();
  if (S.plan && S.plan.playing) schedule(Math.min(interval(), 150));
});
el.form.addEventListener('submit', (ev) => { ev.preventDefault(); load(); });
el.metricStm.addEventListener('click', () => setMetric('stm', true));
el.metricMtm.addEventListener('click', () => setMetric('mtm', true));
el.timeline.addEventListener('click', (ev) => {
  const b = ev.target.closest('button.mistake');
  if (b) goBackTo(Number(b.dataset.move));
});
el.movesForm.addEventListener('submit', (ev) => { ev.preventDefault(); applyTyped(); });
el.animateMoves.addEventListener('click', animateTyped);
el.movesInput.addEventListener('input', () => { if (!el.movesError.hidden) setMovesError(null); });
el.downloadPng.addEventListener('click', downloadPng);
el.downloadGif.addEventListener('click', downloadGif);
el.statsShow.addEventListener('click', showStats);
el.input.addEventListener('input', () => { if (!el.error.hidden) setInputError(null); });

// ---------------------------------------------------------------- start
applySpeed();
loadSettings();
el.seriesBox.dataset.category = el.category.value;
renderInfo();
renderTimer();
refreshRecords();
const params = new URLSearchParams(location.search);
const wantShape = params.get('shape');
if (wantShape && /^\d+x\d+$/.test(wantShape)) {
  const [r, c] = wantShape.split('x').map(Number);
  if (r >= 1 && c >= 1 && r * c >= 2 && r <= 8 && c <= 8) setShapeOption(r, c);
}
const wantBoard = params.get('board');
// A board from the URL is loaded at once only when this page is not framed and was not opened from another site;
// otherwise it waits for the user's click (the form's own Load button does the same).
let sameSite = document.referrer === '';
try { sameSite = sameSite || new URL(document.referrer).origin === location.origin; } catch (e) { sameSite = false; }
if (wantBoard && window.top === window.self && sameSite) {
  el.input.value = wantBoard;
  load().then(() => { if (!S.tiles.length) scramble(); });
} else {
  scramble();
  if (wantBoard) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'btn';
    b.id = 'load-linked';
    b.textContent = 'Load this board';
    b.addEventListener('click', () => { b.remove(); el.input.value = wantBoard; load(); });
    el.form.appendChild(b);
  }
}
