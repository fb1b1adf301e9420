// The page's shared core: elements, state, helpers, the API client, solver requests and background builds.
'use strict';


const $ = (id) => document.getElementById(id);
const el = {
  board: $('board'), shape: $('shape'), scramble: $('scramble'), undo: $('undo'), reset: $('reset'),
  status: $('status'), remaining: $('remaining'), notice: $('notice'), keepSearching: $('keep-searching'),
  build: $('build'), buildText: $('build-text'), buildBar: $('build-bar'),
  hint: $('hint'), solve: $('solve'), play: $('play'), pause: $('pause'), step: $('step'),
  speed: $('speed'), speedLabel: $('speed-label'),
  progress: $('progress'), progressText: $('progress-text'), progressBar: $('progress-bar'),
  moveCount: $('move-count'), moveList: $('move-list'), movesEmpty: $('moves-empty'),
  form: $('load-form'), input: $('board-input'), load: $('load'), error: $('error'),
  metricRow: $('metric-row'), distStm: $('dist-stm'), distMtm: $('dist-mtm'),
  metricStm: $('metric-stm'), metricMtm: $('metric-mtm'),
  analysis: $('analysis'), analysisSummary: $('analysis-summary'), timeline: $('timeline'),
  movesForm: $('moves-form'), movesInput: $('moves-input'), applyMoves: $('apply-moves'),
  animateMoves: $('animate-moves'), movesError: $('moves-error'),
  downloadPng: $('download-png'), downloadGif: $('download-gif'),
  statsShape: $('stats-shape'), statsMetric: $('stats-metric'), statsShow: $('stats-show'),
  statsError: $('stats-error'), statsSummary: $('stats-summary'), statsChartBox: $('stats-chart-box'),
  statsChart: $('stats-chart'),
  timer: $('timer'), liveStm: $('live-stm'), liveMtm: $('live-mtm'), liveTps: $('live-tps'), assisted: $('assisted'),
  dnf: $('dnf'), pb: $('pb'), seriesPart: $('series-part'),
  category: $('category'), seriesBox: $('series-box'), relayShapes: $('relay-shapes'), marathonCount: $('marathon-count'),
  inspection: $('inspection'), keys: $('keys'), gapKeys: $('gap-keys'), customKeys: $('custom-keys'),
  hoverMode: $('hover-mode'), fringe: $('fringe'), spoilerFree: $('spoiler-free'),
  averages: $('averages'), recordsTitle: $('records-title'), viewSession: $('view-session'), viewAll: $('view-all'),
  solveList: $('solve-list'), solveListEmpty: $('solve-list-empty'), historyError: $('history-error'),
  historyChartBox: $('history-chart-box'), historyChart: $('history-chart'),
  replay: $('replay'), replaySummary: $('replay-summary'), replayNotation: $('replay-notation'),
  replayPlay: $('replay-play'), replayTps: $('replay-tps'), replayTpsPlay: $('replay-tps-play'), replayStep: $('replay-step'),
  replayCopy: $('replay-copy'), replayGif: $('replay-gif'), replayProgress: $('replay-progress'),
  analysisMtm: $('analysis-mtm'), mistakeList: $('mistake-list'),
};

const SPEEDS = [
  { ms: 1100, slide: 240, label: 'Slow' },
  { ms: 700, slide: 210, label: 'Relaxed' },
  { ms: 420, slide: 170, label: 'Normal' },
  { ms: 220, slide: 130, label: 'Fast' },
  { ms: 110, slide: 80, label: 'Turbo' },
];
const MAX_LISTED_MOVES = 400;

// ---------------------------------------------------------------- state
const S = {
  rows: 0, cols: 0,
  tiles: [],        // row-major, 0 is the gap
  start: [],        // the board as loaded or scrambled (for Reset)
  history: [],      // [{tile, dir, solver}]
  plan: null,       // {tiles, idx, playing, timer, optimal, typed, metric}
  hintTile: null,
  analysis: null,   // solver result for the current board in S.metric, or null while pending
  analysisError: null,
  metric: 'stm',    // how Hint and Solve count moves: 'stm' or 'mtm' (boards with both: bothMetrics())
  other: null,      // {result|null, error|null} in the other metric, when bothMetrics()
  aids: new Set(),  // what helped since the board was set: 'solver', 'hint', 'undo' (the solve is not credited)
  report: null,     // the analysis of the player's last solve: {start, rows, cols, tiles, data|null, error|null, at}
};
let tileEls = new Map();

// ---------------------------------------------------------------- helpers
const keyOf = (rows, cols, tiles) => rows + 'x' + cols + ':' + tiles.join(',');
const curKey = () => keyOf(S.rows, S.cols, S.tiles);
// Solver results are kept per metric and board.
const mkey = (metric, k) => metric + '|' + k;
const curMKey = (metric) => mkey(metric || S.metric, curKey());
const otherMetric = () => (S.metric === 'stm' ? 'mtm' : 'stm');
// The server answers multi-tile moves (MTM) on boards of at most 12 cells, 4 × 4 and single rows or columns.
const bothMetrics = () => S.tiles.length > 0
  && (S.rows * S.cols <= 12 || (S.rows === 4 && S.cols === 4) || S.rows === 1 || S.cols === 1);
const toRows = (tiles, rows, cols) => {
  const out = [];
  for (let r = 0; r < rows; r++) out.push(tiles.slice(r * cols, (r + 1) * cols));
  return out;
};
const toText = (tiles, rows, cols) => toRows(tiles, rows, cols).map((r) => r.join(' ')).join(' / ');
const goalIndex = (v) => (v === 0 ? S.rows * S.cols - 1 : v - 1);
const isSolved = () => S.tiles.length > 0 && S.tiles.every((v, i) => goalIndex(v) === i);
const adjacent = (a, b) => {
  const ra = Math.floor(a / S.cols), ca = a % S.cols, rb = Math.floor(b / S.cols), cb = b % S.cols;
  return Math.abs(ra - rb) + Math.abs(ca - cb) === 1;
};
const plural = (n, word) => n + ' ' + word + (n === 1 ? '' : 's');

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function api(path, { body, signal } = {}) {
  const init = { signal, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    if (e && e.name === 'AbortError') throw e;
    throw new ApiError('Cannot reach the solver. Is “slide serve” still running?', 0);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
  if (!res.ok) {
    if (data && typeof data.error === 'string' && data.error) throw new ApiError(data.error, res.status);
    if (res.status === 413) throw new ApiError('The board text is too large: the server takes at most 64 KiB.', 413);
    throw new ApiError(('Server error: HTTP ' + res.status + ' ' + (res.statusText || '')).trim(), res.status);
  }
  if (!data || typeof data !== 'object') throw new ApiError('The server answered with something that is not JSON.', res.status);
  return data;
}

// Checks a board given as rows of integers; returns {rows, cols, tiles}.
function readBoard(rowsArr) {
  if (!Array.isArray(rowsArr) || rowsArr.length === 0 || !rowsArr.every(Array.isArray)) {
    throw new ApiError('The server sent a board that is not a list of rows.', 0);
  }
  const rows = rowsArr.length, cols = rowsArr[0].length;
  if (cols === 0 || rowsArr.some((r) => r.length !== cols)) throw new ApiError('The server sent a board with uneven rows.', 0);
  const tiles = [].concat(...rowsArr).map(Number);
  const seen = new Set(tiles);
  if (seen.size !== tiles.length || tiles.some((v) => !Number.isInteger(v) || v < 0 || v >= tiles.length)) {
    throw new ApiError('The server sent a board whose numbers are not 0…' + (tiles.length - 1) + ' once each.', 0);
  }
  return { rows, cols, tiles };
}

// Turns a /api/solve response into {kind:'ok'|'unsolvable', ...}.
function readResult(d) {
  const moves = typeof d.moves === 'number' ? d.moves : null;
  if (moves !== null && moves < 0) {
    return { kind: 'unsolvable', reason: typeof d.reason === 'string' && d.reason ? d.reason : 'the tiles are in the wrong parity class' };
  }
  const solution = Array.isArray(d.solution) ? d.solution.map(Number) : null;
  return {
    kind: 'ok',
    metric: d.metric === 'mtm' ? 'mtm' : 'stm',
    moves: moves !== null ? moves : solution ? solution.length : null,
    solution,
    optimal: d.optimal !== false,
    lowerBound: typeof d.lower_bound === 'number' ? d.lower_bound : null,
    // A solution not proven shortest: weighted search proves it within `bound` times the optimum; fast mode
    // proves nothing beyond the lower bound.
    bound: typeof d.bound === 'number' ? d.bound : null,
    fast: d.method === 'fast',
  };
}

// What a solution is, said plainly: "92 moves, at most 1.1 × the optimum; at least 91 are needed".
function quality(r) {
  if (!r || r.kind !== 'ok' || r.moves === null) return '';
  if (r.optimal) return plural(r.moves, 'move') + ', the shortest';
  const need = r.lowerBound !== null ? '; at least ' + r.lowerBound + ' ' + (r.lowerBound === 1 ? 'is' : 'are') + ' needed' : '';
  if (r.bound !== null) {
    // Rounded up, so the factor said is never smaller than the one proven.
    return plural(r.moves, 'move') + ', at most ' + (Math.ceil(r.bound * 100) / 100) + ' × the optimum' + need;
  }
  return plural(r.moves, 'move') + ': a valid solution, not the shortest' + need;
}

function keepSearching() {
  return 'For the proven shortest solution, search without a budget on your machine: slide solve --moves \''
    + toRows(S.tiles, S.rows, S.cols).map((r) => r.join(' ')).join('/') + '\' (on 5 × 5 it can take hours).';
}

// ---------------------------------------------------------------- solver requests
// Results are cached per board; a response is shown only if its board is still the one on screen.
const cache = new Map();
const inflight = new Map();
function cachePut(k, r) {
  cache.delete(k);
  cache.set(k, r);
  if (cache.size > 600) cache.delete(cache.keys().next().value);
}
// `k` is the metric's key (mkey) of the board.
function analyze(k, rows, cols, tiles, metric) {
  if (cache.has(k)) return Promise.resolve(cache.get(k));
  const open = inflight.get(k);
  if (open) return open.promise;
  const ctrl = new AbortController();
  const entry = { ctrl, promise: null };
  const body = { board: toRows(tiles, rows, cols), moves: true };
  if (metric === 'mtm') body.metric = 'mtm';
  entry.promise = api('api/solve', { body, signal: ctrl.signal })
    .then((d) => { const r = readResult(d); cachePut(k, r); return r; })
    .finally(() => { if (inflight.get(k) === entry) inflight.delete(k); });
  inflight.set(k, entry);
  return entry.promise;
}
function dropStale() {
  const keep = [curMKey('stm'), curMKey('mtm')];
  for (const [key, entry] of inflight) {
    if (!keep.includes(key)) { entry.ctrl.abort(); inflight.delete(key); }
  }
}
function refreshAnalysis() {
  if (!bothMetrics() && S.metric !== 'stm') setMetric('stm', false);
  const k = curMKey();
  dropStale();
  S.analysisError = null;
  if (isSolved()) {
    for (const m of ['stm', 'mtm']) cachePut(curMKey(m), { kind: 'ok', metric: m, moves: 0, solution: [], optimal: true, lowerBound: 0 });
  }
  refreshOther();
  if (cache.has(k)) {
    S.analysis = cache.get(k);
    renderInfo();
    return;
  }
  S.analysis = null;
  renderInfo();
  // The request asks the server for the shape's data: say how far it is while the answer is on its way.
  if (S.metric === 'stm') { clearTimeout(build.timer); build.timer = setTimeout(refreshBuild, 300); }
  analyze(k, S.rows, S.cols, S.tiles.slice(), S.metric).then((r) => {
    if (k !== curMKey()) return;
    S.analysis = r;
    renderInfo();
    if (S.metric === 'stm') refreshBuild();
  }, (e) => {
    if (e && e.name === 'AbortError') return;
    if (k !== curMKey()) return;
    S.analysisError = e.message;
    renderInfo();
  });
}
// The optimal distance in the other metric, shown beside the chosen one's.
function refreshOther() {
  S.other = null;
  if (!bothMetrics()) return;
  const m = otherMetric(), k = curMKey(m);
  if (cache.has(k)) { S.other = { result: cache.get(k), error: null }; return; }
  analyze(k, S.rows, S.cols, S.tiles.slice(), m).then((r) => {
    if (k !== curMKey(m)) return;
    S.other = { result: r, error: null };
    renderInfo();
  }, (e) => {
    if (e && e.name === 'AbortError') return;
    if (k !== curMKey(m)) return;
    S.other = { result: null, error: e.message };
    renderInfo();
  });
}
function setMetric(m, refresh) {
  if (m === S.metric) return;
  S.metric = m;
  el.metricStm.setAttribute('aria-pressed', String(m === 'stm'));
  el.metricMtm.setAttribute('aria-pressed', String(m === 'mtm'));
  if (refresh) {
    cancelPlan();
    clearHint();
    clearNotice();
    refreshAnalysis();
  }
}

// ---------------------------------------------------------------- background builds
// The server loads or builds a shape's tables or pattern databases the first time it is asked (the 5 × 5 pattern
// databases take minutes); GET api/status says how far. Meanwhile its answers come from linear conflicts.
const BUILD_POLL_MS = 1000;
const build = { timer: 0, token: 0, seen: new Set() };
// The status entry of the board on screen: its shape, single-tile moves, the default goal (gap last).
function buildEntry(d) {
  const shape = S.rows + 'x' + S.cols;
  const list = d && Array.isArray(d.builds) ? d.builds : [];
  return list.find((b) => b.shape === shape && b.metric === 'stm' && b.blank === S.rows * S.cols - 1) || null;
}
function renderBuild(b) {
  const shape = S.rows + ' × ' + S.cols;
  let text = null;
  if (b && (b.state === 'queued' || b.state === 'loading' || b.state === 'building')) {
    const pct = Math.floor(100 * (Number(b.fraction) || 0));
    const doing = b.state === 'building' ? 'Building' : b.state === 'loading' ? 'Loading' : 'Waiting to build';
    text = doing + ' the ' + shape + ' ' + b.what + ': ' + pct + ' %'
      + (b.steps > 1 ? ' (' + b.step + ' of ' + b.steps + ')' : '')
      + ' — answers meanwhile come from linear conflicts (weaker).';
    el.buildBar.style.width = pct + '%';
  } else if (b && (b.state === 'failed' || b.state === 'off')) {
    text = 'The ' + shape + ' ' + b.what + ' ' + (b.state === 'off' ? 'are ' : 'could not be built: ')
      + (b.error || 'unavailable') + ' — answers come from linear conflicts (weaker).';
  }
  el.build.hidden = text === null;
  el.build.dataset.state = b ? b.state : '';
  el.buildText.textContent = text || '';
}
// Asks the server how the board's data stands; polls while it is being built, and once it is ready asks again
// for the board's answer if the one on screen was not proven shortest.
async function refreshBuild() {
  clearTimeout(build.timer);
  const token = ++build.token;
  if (!S.tiles.length || S.rows * S.cols < 11 || S.rows === 1 || S.cols === 1) { renderBuild(null); return; }
  const shape = S.rows + 'x' + S.cols;
  let d;
  try { d = await api('api/status'); } catch (_) { return; }
  if (token !== build.token || shape !== S.rows + 'x' + S.cols) return;
  const b = buildEntry(d);
  renderBuild(b);
  if (b && (b.state === 'queued' || b.state === 'loading' || b.state === 'building')) {
    build.seen.add(shape);
    build.timer = setTimeout(refreshBuild, BUILD_POLL_MS);
  } else if (b && b.state === 'ready' && build.seen.has(shape)) {
    build.seen.delete(shape);
    // Answers found meanwhile without the databases: ask again, now with them.
    for (const [key, r] of cache) {
      if (key.startsWith('stm|' + shape + ':') && !r.optimal) cache.delete(key);
    }
    if (!S.plan && S.analysis && !S.analysis.optimal && S.metric === 'stm') refreshAnalysis();
  }
}
