// Practice: the timer of a solve (inspection, live time, STM, MTM, TPS), assisted solves, relays and marathons, and
// recording each finished solve through POST /api/solves.
'use strict';

const LETTER = { '←': 'L', '→': 'R', '↑': 'U', '↓': 'D' };
// One id per page load: the server may group a session's solves by it.
const SESSION_ID = 's' + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);

// The practice state. phase: 'off' (a board not scrambled here: no timer), 'ready' (scrambled, waiting for the
// first move), 'inspect' (inspection counting down), 'running', 'done'.
const P = {
  phase: 'off',
  rows: 0, cols: 0,
  scramble: null,     // the scrambled board (tiles)
  letters: [],        // every single-tile move made since the scramble, as the letter of the way the tile went
  times: [],          // ms since the start of the solve, one per letter
  t0: 0,              // performance.now() at the start
  assisted: false,
  why: new Set(),     // what made it assisted: 'hint', 'solver', 'undo', 'typed', 'reset'
  pushAt: null,       // the time of the push under way (a segment push: several tiles, one time)
  inspectLeft: 0,
  inspectTimer: 0,
  raf: 0,
  series: null,       // a relay or marathon under way: {category, shapes, index, splits, total}
  last: null,         // the last finished solve: {rows, cols, scramble, letters, times, time, assisted, dnf, record}
};

// Community notation of single-tile letters: runs written once with their count ("R2U2LD").
function notationOf(letters) {
  let out = '';
  for (let i = 0; i < letters.length;) {
    let j = i;
    while (j < letters.length && letters[j] === letters[i]) j++;
    out += letters[i] + (j - i > 1 ? String(j - i) : '');
    i = j;
  }
  return out;
}
// Multi-tile moves: runs of one direction.
function mtmOf(letters) {
  let n = 0;
  for (let i = 0; i < letters.length; i++) if (i === 0 || letters[i] !== letters[i - 1]) n++;
  return n;
}
// A time in ms as seconds with three decimals ("12.345"), or "DNF".
function fmtTime(ms) {
  if (ms === 'DNF') return 'DNF';
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '–';
  const s = ms / 1000;
  if (s < 60) return s.toFixed(3);
  const m = Math.floor(s / 60);
  return m + ':' + (s - 60 * m).toFixed(3).padStart(6, '0');
}
const tpsOf = (stm, ms) => (ms > 0 ? stm * 1000 / ms : 0);

function practiceNow() { return Math.round(performance.now() - P.t0); }

// A new scramble on screen: armed for a timed solve (with inspection when chosen).
function practiceArm() {
  stopTicking();
  P.phase = 'ready';
  P.rows = S.rows; P.cols = S.cols;
  P.scramble = S.tiles.slice();
  P.letters = [];
  P.times = [];
  P.assisted = false;
  P.why = new Set();
  P.pushAt = null;
  const secs = Number(el.inspection.value) || 0;
  if (secs > 0) {
    P.phase = 'inspect';
    P.inspectLeft = secs;
    P.inspectTimer = setInterval(() => {
      P.inspectLeft--;
      if (P.inspectLeft <= 0) startSolve(); else renderTimer();
    }, 1000);
  }
  renderTimer();
  renderSpoilers();
}

// A board not scrambled here (loaded, a step back in an analysis): no timer; a series under way ends.
function practiceOff() {
  stopTicking();
  P.series = null;
  P.phase = 'off';
  renderTimer();
  renderSpoilers();
}

function stopTicking() {
  clearInterval(P.inspectTimer);
  P.inspectTimer = 0;
  cancelAnimationFrame(P.raf);
  P.raf = 0;
}

function startSolve() {
  clearInterval(P.inspectTimer);
  P.inspectTimer = 0;
  P.phase = 'running';
  P.t0 = performance.now();
  tick();
}

function tick() {
  renderTimer();
  if (P.phase === 'running') P.raf = requestAnimationFrame(tick);
}

// A move was made on the board: `dir` the arrow of the tile's travel; kind 'player', 'solver', 'typed' or 'undo'.
function practiceMove(dir, kind) {
  if (P.phase === 'off' || P.phase === 'done') return;
  if (P.phase === 'ready' || P.phase === 'inspect') startSolve();
  if (kind !== 'player') assist(kind);
  P.letters.push(LETTER[dir]);
  P.times.push(P.pushAt !== null ? P.pushAt : practiceNow());
}
// A segment push: every tile of it gets the same time.
function practicePush(fn) {
  P.pushAt = P.phase === 'running' ? practiceNow() : null;
  if (P.phase === 'ready' || P.phase === 'inspect') { startSolve(); P.pushAt = 0; }
  try { fn(); } finally { P.pushAt = null; }
}
function assist(why) {
  if (P.phase === 'off' || P.phase === 'done') return;
  P.assisted = true;
  P.why.add(why);
  renderTimer();
}
// Reset in a solve: back to the scramble, the moves forgotten; seen once, the scramble is no longer a clean solve.
function practiceReset() {
  if (P.phase !== 'running') return;
  const assisted = true, why = new Set([...P.why, 'reset']);
  stopTicking();
  P.phase = 'ready';
  P.letters = [];
  P.times = [];
  P.assisted = assisted;
  P.why = why;
  renderTimer();
}

// Called after every move: a running solve that reached the goal ends.
function practiceCheck() {
  if (P.phase === 'running' && isSolved()) finishPart(false);
  else renderTimer();
}

// The player gives up the solve under way: recorded as a DNF.
function practiceDnf() {
  if (P.phase !== 'running' && P.phase !== 'inspect' && P.phase !== 'ready') return;
  if (P.phase !== 'running') startSolve();
  finishPart(true);
}

// The part on screen ends (solved or DNF): a single solve is recorded; a relay or marathon goes on to its next
// part or, after the last, is recorded as one solve with its splits.
function finishPart(dnf) {
  stopTicking();
  const time = P.times.length ? P.times[P.times.length - 1] : practiceNow();
  P.phase = 'done';
  const part = {
    rows: P.rows, cols: P.cols, scramble: P.scramble.slice(), letters: P.letters.slice(), times: P.times.slice(),
    time, assisted: P.assisted, why: new Set(P.why), dnf,
  };
  renderSpoilers();
  const ser = P.series;
  if (ser) {
    ser.splits.push(part);
    ser.total += time;
    ser.assisted = ser.assisted || part.assisted;
    ser.dnf = ser.dnf || dnf;
    const more = ser.category === 'relay' ? ser.index + 1 < ser.shapes.length : ser.splits.length < ser.count;
    if (more && !dnf) {
      ser.index++;
      renderTimer();
      // The next part: a new scramble of the relay's next shape (or the marathon's shape).
      const shape = ser.category === 'relay' ? ser.shapes[ser.index] : ser.shapes[0];
      setTimeout(() => { if (P.series === ser) scrambleShape(shape); }, 400);
      return;
    }
    P.series = null;
    P.last = {
      rows: part.rows, cols: part.cols, scramble: part.scramble, letters: part.letters, times: part.times,
      time: ser.total, assisted: ser.assisted, dnf: ser.dnf, category: ser.category,
      shape: ser.category === 'relay' ? ser.shapes.join('+') : ser.shapes[0], splits: ser.splits, why: part.why,
    };
  } else {
    P.last = Object.assign(part, { category: 'single', shape: part.rows + 'x' + part.cols });
  }
  renderTimer();
  recordSolve(P.last);
  if (typeof replayReady === 'function') replayReady(P.last);
}

// Starts what the category asks for: a single scramble, a relay of shapes, a marathon of N solves.
function startCategory() {
  const cat = el.category.value;
  if (cat === 'relay') {
    const shapes = el.relayShapes.value.split(/[\s,+]+/).filter((s) => /^\d+x\d+$/.test(s));
    if (shapes.length < 2) { notice('A relay needs two shapes or more, for example 3x3, 4x4, 5x5.', 'error'); return; }
    P.series = { category: 'relay', shapes, index: 0, count: shapes.length, splits: [], total: 0, assisted: false, dnf: false };
    scrambleShape(shapes[0]);
  } else if (cat === 'marathon') {
    const n = Math.max(2, Math.min(100, Math.floor(Number(el.marathonCount.value) || 0)));
    el.marathonCount.value = String(n);
    P.series = { category: 'marathon', shapes: [el.shape.value], index: 0, count: n, splits: [], total: 0, assisted: false, dnf: false };
    scrambleShape(el.shape.value);
  } else {
    P.series = null;
    scramble();
  }
}
function scrambleShape(shape) {
  const [r, c] = shape.split('x').map(Number);
  setShapeOption(r, c);
  scramble();
}

// ---------------------------------------------------------------- recording
// The body of POST /api/solves for a finished solve.
function solveBody(s) {
  // A split's times count from the start of the relay or marathon (each part's own times shifted by the parts
  // before it), so they never decrease from one split to the next.
  const part = (p, from = 0) => ({
    scramble: toRows(p.scramble, p.rows, p.cols).map((r) => r.join(' ')).join('/'),
    moves: notationOf(p.letters),
    times_ms: p.times.map((t) => t + from),
    time_ms: p.time,
    dnf: p.dnf,
  });
  const body = { category: s.category, assisted: s.assisted, dnf: s.dnf, session: SESSION_ID };
  if (s.splits) {
    let from = 0;
    body.splits = s.splits.map((p) => { const out = part(p, from); from += p.time; return out; });
    body.shape = s.shape;
    body.time_ms = s.time;
  } else {
    Object.assign(body, part(s));
    delete body.time_ms;
    const secs = Number(el.inspection.value) || 0;
    if (secs > 0) body.inspection_ms = secs * 1000;
  }
  return body;
}

async function recordSolve(s) {
  sessionAdd(s);
  let rec;
  try {
    rec = await api('api/solves', { body: solveBody(s) });
  } catch (e) {
    s.record = null;
    historyUnavailable(e, 'write');
    renderTimer();
    return;
  }
  s.record = rec;
  historyAvailable('write');
  // Personal bests it set (of time): ["single", "ao5"], or per series {"time": […], "moves": […], "tps": […]}.
  const bests = rec.pb !== undefined ? rec.pb : rec.personal_bests;
  let pb = [];
  if (Array.isArray(bests)) pb = bests;
  else if (bests && Array.isArray(bests.time)) pb = bests.time;
  s.pb = pb.map(String);
  renderTimer();
  refreshRecords();
}

// ---------------------------------------------------------------- drawing
function renderTimer() {
  const t = el.timer;
  let text, state = P.phase;
  if (P.phase === 'off') text = '–';
  else if (P.phase === 'inspect') text = 'Inspect ' + P.inspectLeft;
  else if (P.phase === 'ready') text = fmtTime(0);
  else if (P.phase === 'running') text = fmtTime(practiceNow());
  else text = P.last && P.last.dnf ? 'DNF' : fmtTime(P.last ? P.last.time : 0);
  const ser = P.series;
  if (ser && P.phase !== 'done') text = fmtTime(ser.total + (P.phase === 'running' ? practiceNow() : 0));
  t.textContent = text;
  t.dataset.state = state;
  if (P.phase === 'done' && P.last) t.dataset.ms = String(P.last.time); else delete t.dataset.ms;
  const shown = P.phase === 'done' && P.last ? P.last : null;
  const letters = shown ? shown.letters : P.phase === 'off' ? [] : P.letters;
  const ms = shown ? shown.time : (P.phase === 'running' ? practiceNow() : 0);
  const stm = shown && shown.splits ? shown.splits.reduce((a, p) => a + p.letters.length, 0) : letters.length;
  const mtm = shown && shown.splits ? shown.splits.reduce((a, p) => a + mtmOf(p.letters), 0) : mtmOf(letters);
  el.liveStm.textContent = String(stm);
  el.liveMtm.textContent = String(mtm);
  el.liveTps.textContent = tpsOf(stm, ms).toFixed(2);
  const assisted = shown ? shown.assisted : P.assisted;
  el.assisted.hidden = !assisted || P.phase === 'off';
  el.assisted.title = assisted ? 'Not counted in averages or bests: ' + [...(shown ? shown.why : P.why)].join(', ') + ' used' : '';
  el.dnf.hidden = !(P.phase === 'running' || P.phase === 'inspect');
  let part = '';
  if (ser) part = (ser.category === 'relay' ? 'Relay ' : 'Marathon ') + (ser.splits.length + (P.phase === 'done' ? 0 : 1)) + ' of ' + ser.count;
  el.seriesPart.textContent = part;
  el.seriesPart.hidden = !part;
  const pb = shown && shown.pb && shown.pb.length && !shown.assisted && !shown.dnf;
  el.pb.hidden = !pb;
  el.pb.textContent = pb ? 'PB: ' + shown.pb.join(', ') : '';
}
