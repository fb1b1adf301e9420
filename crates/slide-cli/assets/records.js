// Records: averages and bests per shape and category (single, mo3, ao5, ao12, ao50, ao100 of time, moves and TPS),
// for this session (kept in the page) or all time (GET /api/averages), the recent solves and the chart of times.
'use strict';

const KINDS = [['single', 1], ['mo3', 3], ['ao5', 5], ['ao12', 12], ['ao50', 50], ['ao100', 100]];
const SERIES = ['time', 'moves', 'tps'];
// This session's solves, oldest first: {shape, category, time, stm, tps, dnf, assisted}.
const SESSION = [];
const R = { view: 'session', token: 0, unavailable: null };

// The value of one window of results (null a DNF), by the standard rule: single and mo3 as they are (a DNF in a
// mean makes it a DNF); an average of N drops the best and the worst ceil(5 % of N), at least one each, a DNF
// counting as the worst, and is a DNF when one is left. `higher`: more is better (TPS).
function windowScore(win, kind, higher) {
  const n = win.length;
  if (kind === 'single') return win[0] === null ? 'DNF' : win[0];
  if (kind === 'mo3') return win.some((v) => v === null) ? 'DNF' : win.reduce((a, v) => a + v, 0) / n;
  const drop = Math.max(1, Math.ceil(n * 0.05));
  const worst = higher ? -Infinity : Infinity;
  const sorted = win.map((v) => (v === null ? worst : v)).sort((a, b) => (higher ? b - a : a - b));
  const kept = sorted.slice(drop, n - drop);
  if (kept.some((v) => v === worst)) return 'DNF';
  return kept.reduce((a, v) => a + v, 0) / kept.length;
}
// Current (the latest window) and best (over every window) of a series: {current, best}, null when too few.
function standing(values, kind, size, higher) {
  if (values.length < size) return { current: null, best: null };
  let best = null;
  const better = (a, b) => {
    if (b === null) return true;
    if (a === 'DNF') return false;
    if (b === 'DNF') return true;
    return higher ? a > b : a < b;
  };
  for (let i = size; i <= values.length; i++) {
    const s = windowScore(values.slice(i - size, i), kind, higher);
    if (better(s, best)) best = s;
  }
  return { current: windowScore(values.slice(values.length - size), kind, higher), best };
}
// The averages view of solves (oldest first, assisted ones left out), as GET /api/averages answers it.
function averagesOf(solves) {
  const counted = solves.filter((s) => !s.assisted);
  const out = { solves: counted.length };
  for (const series of SERIES) {
    const values = counted.map((s) => (s.dnf ? null : series === 'time' ? s.time : series === 'moves' ? s.stm : s.tps));
    out[series] = {};
    for (const [kind, size] of KINDS) out[series][kind] = standing(values, kind, size, series === 'tps');
  }
  return out;
}

// A finished solve joins the session.
function sessionAdd(s) {
  const stm = s.splits ? s.splits.reduce((a, p) => a + p.letters.length, 0) : s.letters.length;
  SESSION.push({
    shape: s.shape, category: s.category, time: s.time, stm, tps: tpsOf(stm, s.time), dnf: s.dnf, assisted: s.assisted,
  });
  refreshRecords();
}

// The shape and category the records show: those of the last solve, else of the board and category on screen.
function recordsKey() {
  if (P.last) return { shape: P.last.shape, category: P.last.category };
  return { shape: S.rows ? S.rows + 'x' + S.cols : el.shape.value, category: el.category.value };
}

function fmtScore(v, series) {
  if (v === null || v === undefined) return '–';
  if (v === 'DNF') return 'DNF';
  if (series === 'time') return fmtTime(v);
  return series === 'moves' ? (Math.round(v * 10) / 10).toString() : Number(v).toFixed(2);
}

function renderAverages(av, source) {
  const body = el.averages.tBodies[0];
  body.textContent = '';
  for (const [kind] of KINDS) {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = kind;
    tr.appendChild(th);
    for (const series of SERIES) {
      for (const which of ['current', 'best']) {
        const td = document.createElement('td');
        const v = av && av[series] && av[series][kind] ? av[series][kind][which] : null;
        td.textContent = fmtScore(v, series);
        td.dataset.series = series;
        td.dataset.kind = kind;
        td.dataset.which = which;
        if (v !== null && v !== undefined) td.dataset.value = String(v);
        tr.appendChild(td);
      }
    }
    body.appendChild(tr);
  }
  el.averages.dataset.source = source;
  el.averages.dataset.solves = String(av && typeof av.solves === 'number' ? av.solves : 0);
}

// Draws the records for the current key in the chosen view.
async function refreshRecords() {
  const key = recordsKey(), token = ++R.token;
  el.recordsTitle.textContent = key.shape.replace(/x/g, ' × ').replace(/\+/g, ', ') + ' · ' + key.category;
  el.viewSession.setAttribute('aria-pressed', String(R.view === 'session'));
  el.viewAll.setAttribute('aria-pressed', String(R.view === 'all'));
  if (R.view === 'session') {
    const mine = SESSION.filter((s) => s.shape === key.shape && s.category === key.category);
    renderAverages(averagesOf(mine), 'session');
    renderSolveList(mine.slice(-12).reverse().map((s) => ({ time_ms: s.time, stm: s.stm, dnf: s.dnf, assisted: s.assisted })));
    el.historyChartBox.hidden = true;
    return;
  }
  const q = 'shape=' + encodeURIComponent(key.shape) + '&category=' + encodeURIComponent(key.category);
  try {
    const [av, list] = await Promise.all([api('api/averages?' + q), api('api/solves?' + q + '&limit=12')]);
    if (token !== R.token) return;
    historyAvailable('read');
    // The all-time view: the answer itself, or its "all_time" part when it gives the server's session beside it.
    renderAverages(av && av.all_time ? av.all_time : av, 'all');
    const records = Array.isArray(list) ? list : Array.isArray(list.solves) ? list.solves : [];
    renderSolveList(records);
    // Fetched, not linked: the same address must draw again after each solve.
    let res = await fetch('api/solves/plot?' + q + '&session=all');
    if (res.status === 400) res = await fetch('api/solves/plot?' + q);
    if (token !== R.token) return;
    if (res.ok) {
      if (el.historyChart.src.startsWith('blob:')) URL.revokeObjectURL(el.historyChart.src);
      el.historyChart.src = URL.createObjectURL(await res.blob());
    }
    el.historyChartBox.hidden = !res.ok;
  } catch (e) {
    if (token !== R.token) return;
    historyUnavailable(e, 'read');
    renderAverages(null, 'none');
    renderSolveList([]);
    el.historyChartBox.hidden = true;
  }
}

function renderSolveList(records) {
  el.solveList.textContent = '';
  for (const r of records) {
    const li = document.createElement('li');
    const time = r.dnf ? 'DNF' : fmtTime(Number(r.time_ms));
    li.textContent = time + ' · ' + plural(Number(r.stm), 'move') + (r.optimal !== undefined && r.optimal !== null ? ' (optimum ' + r.optimal + ')' : '');
    if (r.assisted) {
      const tag = document.createElement('span');
      tag.className = 'tag';
      tag.textContent = 'assisted';
      li.append(' ', tag);
    }
    li.dataset.assisted = String(!!r.assisted);
    if (r.id !== undefined) li.dataset.id = String(r.id);
    el.solveList.appendChild(li);
  }
  el.solveListEmpty.hidden = records.length > 0;
}

// The history's state as last seen, for writes (recording a solve) and reads (the records) apart: a read that
// works does not mean a write will.
function historyUnavailable(e, kind) {
  R.unavailable = R.unavailable || {};
  R.unavailable[kind] = e && e.message ? e.message : String(e);
  renderHistoryError();
}
function historyAvailable(kind) {
  if (R.unavailable) delete R.unavailable[kind];
  renderHistoryError();
}
function renderHistoryError() {
  const why = R.unavailable && (R.unavailable.write || R.unavailable.read);
  el.historyError.hidden = !why;
  el.historyError.textContent = why
    ? 'History unavailable (' + why + '). Solves are still timed; this session keeps them until the page closes.' : '';
}

function setRecordsView(v) {
  R.view = v;
  refreshRecords();
}
