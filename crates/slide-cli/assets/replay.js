// Your own solve, replayed and shared: replay at the recorded speed or a chosen TPS, step, copy as community
// notation, download as a GIF with the real move times (GET /api/render?times_ms=…), and its MTM analysis.
'use strict';

const RP = { solve: null, idx: 0, timer: 0, playing: false, t0: 0, tps: null };

// The tile a letter moves on the board on screen (the letter is the way the tile goes), or null.
function tileForLetter(letter) {
  const g = S.tiles.indexOf(0), r = Math.floor(g / S.cols), c = g % S.cols;
  let from = -1;
  if (letter === 'L' && c + 1 < S.cols) from = g + 1;
  if (letter === 'R' && c > 0) from = g - 1;
  if (letter === 'U' && r + 1 < S.rows) from = g + S.cols;
  if (letter === 'D' && r > 0) from = g - S.cols;
  return from >= 0 ? S.tiles[from] : null;
}

// A solve has ended: its replay box is offered.
function replayReady(s) {
  stopReplay();
  RP.solve = s;
  el.replay.hidden = false;
  const stm = s.letters.length, mtm = mtmOf(s.letters);
  const part = s.splits && s.splits.length > 1 ? ' (the last part of the ' + s.category + ')' : '';
  el.replaySummary.textContent = (s.dnf ? 'DNF' : fmtTime(s.time) + ' s') + ' · ' + plural(stm, 'move') + ' STM · '
    + plural(mtm, 'move') + ' MTM · ' + tpsOf(stm, s.times[s.times.length - 1] || 0).toFixed(2) + ' TPS' + part
    + (s.assisted ? ' · assisted (' + [...s.why].join(', ') + ')' : '');
  el.replayNotation.textContent = notationOf(s.letters);
  el.replay.dataset.moves = String(stm);
  el.replayProgress.textContent = '';
}

function stopReplay() {
  clearTimeout(RP.timer);
  RP.timer = 0;
  RP.playing = false;
  el.replay.dataset.state = 'idle';
}

// The board set to the solve's scramble (its moves not yet made), kept out of the timer.
function replayRewind() {
  const s = RP.solve;
  if (!s) return false;
  cancelPlan();
  clearHint();
  clearNotice();
  if (S.rows !== s.rows || S.cols !== s.cols || !s.scramble.every((v, i) => S.start[i] === v) || S.history.length) {
    const rebuild = S.rows !== s.rows || S.cols !== s.cols;
    S.rows = s.rows; S.cols = s.cols;
    if (rebuild) setShapeOption(s.rows, s.cols);
    S.tiles = s.scramble.slice();
    S.start = s.scramble.slice();
    S.history = [];
    renderBoard(rebuild || tileEls.size !== s.scramble.length);
    renderFringe();
    renderMoves();
    refreshAnalysis();
  }
  RP.idx = 0;
  return true;
}

// One move of the replay; false at the end.
function replayStep() {
  const s = RP.solve;
  if (!s || RP.idx >= s.letters.length) return false;
  const tile = tileForLetter(s.letters[RP.idx]);
  const dir = tile === null ? null : slide(tile);
  if (!dir) { stopReplay(); notice('The recorded moves do not fit this board.', 'error'); return false; }
  S.history.push({ tile, dir, solver: false, replay: true });
  RP.idx++;
  renderBoard(false);
  renderMoves();
  el.replayProgress.textContent = 'Move ' + RP.idx + ' of ' + s.letters.length;
  el.replay.dataset.idx = String(RP.idx);
  if (RP.idx >= s.letters.length) { stopReplay(); el.replay.dataset.state = 'done'; refreshAnalysis(); }
  return true;
}

// Plays the replay: at the recorded times (tps null) or at `tps` tiles per second.
function replayPlay(tps) {
  const s = RP.solve;
  if (!s) return;
  stopReplay();
  if (RP.idx === 0 || RP.idx >= s.letters.length || S.history.length !== RP.idx) replayRewind();
  RP.playing = true;
  RP.tps = tps;
  el.replay.dataset.state = 'playing';
  const base = RP.idx ? s.times[RP.idx - 1] : s.times[0] || 0;
  const t0 = performance.now();
  const next = () => {
    if (!RP.playing) return;
    if (!replayStep() || RP.idx >= s.letters.length) return;
    const wait = tps ? 1000 / tps : Math.max(0, (s.times[RP.idx] - base) - (performance.now() - t0));
    RP.timer = setTimeout(next, wait);
  };
  RP.timer = setTimeout(next, 300);
}

function replayStepButton() {
  if (!RP.solve) return;
  const wasPlaying = RP.playing;
  stopReplay();
  if (!wasPlaying && (RP.idx >= RP.solve.letters.length || S.history.length !== RP.idx)) replayRewind();
  replayStep();
}

async function copyNotation() {
  const text = el.replayNotation.textContent;
  try {
    await navigator.clipboard.writeText(text);
    notice('Copied: ' + text, 'info');
  } catch (_) {
    const range = document.createRange();
    range.selectNodeContents(el.replayNotation);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    notice('Selected: copy it with Ctrl+C.', 'info');
  }
}

// The GIF of your solve, played at its real move times.
function downloadSolveGif() {
  const s = RP.solve;
  if (!s || !s.letters.length) return;
  const params = {
    board: toRows(s.scramble, s.rows, s.cols).map((r) => r.join(' ')).join('/'),
    moves: notationOf(s.letters), times_ms: s.times.join(','), format: 'gif', size: '320',
  };
  if (SETTINGS.fringe) params.scheme = 'fringe';
  download(params, el.replayGif, 'your solve');
}

// ---------------------------------------------------------------- MTM analysis of the player's solve
// The MTM side of the report: the pushes the player made against the fewest from the start; with a server that
// analyses in MTM (POST /api/analyse with "metric": "mtm"), its mistakes too.
async function analyseMtm(report) {
  el.analysisMtm.hidden = true;
  el.analysisMtm.textContent = '';
  const rows = report.rows, cols = report.cols;
  if (!(rows * cols <= 12 || (rows === 4 && cols === 4) || rows === 1 || cols === 1)) return;
  const letters = report.letters;
  const pushes = mtmOf(letters);
  let optimum = null, mistakes = null;
  try {
    const d = await api('api/analyse', { body: { board: toRows(report.start, rows, cols), moves: report.tiles, metric: 'mtm' } });
    if (d.metric === 'mtm' && typeof d.optimal === 'number') {
      optimum = d.optimal;
      mistakes = Array.isArray(d.mistakes) ? d.mistakes : null;
    }
  } catch (_) { /* asked below */ }
  if (optimum === null) {
    try {
      const d = await api('api/solve', { body: { board: toRows(report.start, rows, cols), metric: 'mtm' } });
      if (d.optimal !== false && typeof d.moves === 'number') optimum = d.moves;
    } catch (_) { return; }
  }
  if (S.report !== report || optimum === null) return;
  const over = pushes - optimum;
  el.analysisMtm.textContent = 'In MTM (a push of several tiles is one move): ' + (pushes === 1 ? '1 push' : pushes + ' pushes')
    + ', the fewest is ' + optimum + (over > 0 ? ': ' + plural(over, 'move') + ' over' : ': optimal')
    + (mistakes ? '; ' + plural(mistakes.length, 'mistake') + ' in MTM' + (mistakes.length ? ' (pushes ' + mistakes.join(', ') + ')' : '') : '') + '.';
  el.analysisMtm.dataset.over = String(over);
  el.analysisMtm.hidden = false;
}
