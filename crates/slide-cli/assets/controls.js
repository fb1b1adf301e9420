// Controls players use: segment pushes by click or hover, rebindable keys (arrows, WASD, IJKL), fringe colours and
// the spoiler-free mode, with the settings kept in the browser (localStorage).
'use strict';

const KEY_SETS = {
  arrows: { left: 'ArrowLeft', right: 'ArrowRight', up: 'ArrowUp', down: 'ArrowDown' },
  wasd: { left: 'a', right: 'd', up: 'w', down: 's' },
  ijkl: { left: 'j', right: 'l', up: 'i', down: 'k' },
};
// The settings, with their defaults; saved on every change.
const SETTINGS = {
  keys: 'all',          // 'all' (arrows, WASD and IJKL), 'arrows', 'wasd', 'ijkl', or 'custom'
  custom: { left: 'ArrowLeft', right: 'ArrowRight', up: 'ArrowUp', down: 'ArrowDown' },
  gapKeys: false,       // keys name the way the gap moves, not the tile
  hover: false,         // a tile pushes its segment when the pointer comes over it
  fringe: false,        // tiles coloured by the fringe of their goal cell
  spoilerFree: false,   // no optimum or hints until the solve ends
  inspection: '0',
};
const SETTINGS_KEY = 'slide.practice.settings';

function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}');
    for (const k of Object.keys(SETTINGS)) if (k in saved && typeof saved[k] === typeof SETTINGS[k]) SETTINGS[k] = saved[k];
  } catch (_) { /* no storage: the defaults */ }
  el.keys.value = SETTINGS.keys;
  el.gapKeys.checked = SETTINGS.gapKeys;
  el.hoverMode.checked = SETTINGS.hover;
  el.fringe.checked = SETTINGS.fringe;
  el.spoilerFree.checked = SETTINGS.spoilerFree;
  el.inspection.value = SETTINGS.inspection;
  renderBindings();
}
function saveSettings() {
  SETTINGS.keys = el.keys.value;
  SETTINGS.gapKeys = el.gapKeys.checked;
  SETTINGS.hover = el.hoverMode.checked;
  SETTINGS.fringe = el.fringe.checked;
  SETTINGS.spoilerFree = el.spoilerFree.checked;
  SETTINGS.inspection = el.inspection.value;
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(SETTINGS)); } catch (_) { /* not kept */ }
  renderBindings();
  renderFringe();
  renderSpoilers();
}

// The way a key moves a tile ('left', …), or null.
function keyDirection(key) {
  const k = key.length === 1 ? key.toLowerCase() : key;
  const sets = SETTINGS.keys === 'all' ? [KEY_SETS.arrows, KEY_SETS.wasd, KEY_SETS.ijkl]
    : SETTINGS.keys === 'custom' ? [SETTINGS.custom] : [KEY_SETS[SETTINGS.keys] || KEY_SETS.arrows];
  for (const set of sets) {
    for (const dir of ['left', 'right', 'up', 'down']) {
      const b = set[dir];
      if ((b.length === 1 ? b.toLowerCase() : b) === k) {
        if (!SETTINGS.gapKeys) return dir;
        return { left: 'right', right: 'left', up: 'down', down: 'up' }[dir];
      }
    }
  }
  return null;
}

// The key box: the keys in use, and the custom ones rebound by a click then a key.
let rebinding = null;
function renderBindings() {
  el.customKeys.hidden = el.keys.value !== 'custom';
  for (const b of el.customKeys.querySelectorAll('button[data-dir]')) {
    const dir = b.dataset.dir;
    b.textContent = dir + ': ' + (rebinding === dir ? 'press a key…' : SETTINGS.custom[dir]);
    b.setAttribute('aria-pressed', String(rebinding === dir));
  }
}
function startRebind(dir) {
  rebinding = dir;
  renderBindings();
}

// Pushes the segment from the gap to `tile` (in the gap's row or column): every tile between slides, nearest
// first, one multi-tile move. Returns whether anything moved.
function pushSegment(tile) {
  if (!S.tiles.length || tile === 0) return false;
  const i = S.tiles.indexOf(tile), g = S.tiles.indexOf(0);
  const ri = Math.floor(i / S.cols), ci = i % S.cols, rg = Math.floor(g / S.cols), cg = g % S.cols;
  if (ri !== rg && ci !== cg) return false;
  const step = ri === rg ? (ci > cg ? 1 : -1) : (ri > rg ? S.cols : -S.cols);
  const chain = [];
  for (let at = g + step; ; at += step) {
    chain.push(S.tiles[at]);
    if (at === i) break;
  }
  practicePush(() => { for (const t of chain) userMove(t); });
  return true;
}

function onBoardClick(ev) {
  const t = ev.target.closest('.tile');
  if (!t || !el.board.contains(t)) return;
  const v = Number(t.dataset.tile);
  if (v !== 0 && !pushSegment(v)) nudge(v);
}
function onBoardHover(ev) {
  // Only while a timed solve is on: moving the pointer to a button afterwards must not disturb the board.
  if (!SETTINGS.hover || ev.pointerType === 'touch' || !['ready', 'inspect', 'running'].includes(P.phase)) return;
  const t = ev.target.closest('.tile');
  if (!t || !el.board.contains(t) || S.plan) return;
  const v = Number(t.dataset.tile);
  if (v !== 0) pushSegment(v);
}

function onKey(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (rebinding) {
    ev.preventDefault();
    if (ev.key !== 'Escape') SETTINGS.custom[rebinding] = ev.key;
    rebinding = null;
    saveSettings();
    return;
  }
  const target = ev.target;
  const tag = target && target.tagName;
  // The Shape selector keeps its arrows for the board: picking a shape, then playing, never changes the shape.
  const onShape = target === el.shape || target === el.category;
  if (!onShape && (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (target && target.isContentEditable))) return;
  if (!S.tiles.length) return;
  const dir = keyDirection(ev.key);
  if (!dir) return;
  ev.preventDefault();
  if (onShape) target.blur();
  const g = S.tiles.indexOf(0), r = Math.floor(g / S.cols), c = g % S.cols;
  let from = -1;
  switch (dir) {
    case 'left': if (c + 1 < S.cols) from = g + 1; break; // the tile right of the gap moves left
    case 'right': if (c > 0) from = g - 1; break;
    case 'up': if (r + 1 < S.rows) from = g + S.cols; break;
    case 'down': if (r > 0) from = g - S.cols; break;
    default: break;
  }
  if (from >= 0) userMove(S.tiles[from]);
}

// Fringe colours of the renderer's scheme: the goal is peeled from its top left, the top row of what is left (group
// 0, 2, …), then its left column (1, 3, …); the colours are the library's (render::FRINGE_LIGHT and _DARK).
const FRINGE_LIGHT = ['#e79a9a', '#eec084', '#e6dc7e', '#a5d98f', '#86d1cb', '#94b6ea', '#b8a1ea', '#e6a1d6', '#cbb594', '#a9b4c1'];
const FRINGE_DARK = ['#9c3b3b', '#a4641f', '#8c8422', '#3d8a36', '#237d77', '#335d9e', '#61489e', '#944084', '#7a6344', '#55616e'];
function fringeGroup(rows, cols, cell) {
  const r = Math.floor(cell / cols), c = cell % cols;
  return r <= c ? 2 * r : 2 * c + 1;
}
function renderFringe() {
  const on = SETTINGS.fringe;
  el.board.classList.toggle('fringe', on);
  if (!S.rows) return;
  const dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  const colours = dark ? FRINGE_DARK : FRINGE_LIGHT;
  for (const [v, t] of tileEls) {
    if (v === 0) continue;
    const g = fringeGroup(S.rows, S.cols, v - 1) % colours.length;
    if (on) { t.style.setProperty('--fringe', colours[g]); t.dataset.fringe = String(g); } else { t.style.removeProperty('--fringe'); delete t.dataset.fringe; }
  }
}

// Spoiler-free: while a timed solve is under way, no optimum, no distances and no hints.
function spoilersHidden() {
  return SETTINGS.spoilerFree && (P.phase === 'ready' || P.phase === 'inspect' || P.phase === 'running');
}
function renderSpoilers() {
  const hide = spoilersHidden();
  document.body.classList.toggle('spoiler-free', hide);
  el.remaining.hidden = hide;
  el.hint.hidden = hide;
  if (hide) { el.metricRow.hidden = true; el.keepSearching.hidden = true; clearHint(); }
  else if (S.tiles.length) renderInfo();
}
