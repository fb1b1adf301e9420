// End-to-end check of the `slide serve` web page in headless Chromium.
//
//   SLIDE_URL          base URL of a running `slide serve` (default http://127.0.0.1:8773)
//   SCREENSHOT         where to save a screenshot of the solved board (default docs/screenshot.png, relative to cwd)
//   SCREENSHOT_MOBILE  optional: also save a 375 px wide (phone) screenshot there
//   SCREENSHOT_PRACTICE  where to save a screenshot of the practice view (default docs/practice.png)
//   SLIDE_BIN, SLIDE_PID, SLIDE_DB  the binary, the server and its database, for the restart (practice.mjs)
//
// Uses the system Chromium at /usr/bin/chromium through playwright-core; it never downloads a browser.
// Prints "1 passed, 0 failed" on success, "0 passed, 1 failed" (and exits 1) on any failure.

import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { budgetSteps, practiceSteps, stopSpawned } from './practice.mjs';

const BASE = (process.env.SLIDE_URL || 'http://127.0.0.1:8773').replace(/\/+$/, '') + '/';
const SHOT = resolve(process.env.SCREENSHOT || 'docs/screenshot.png');
const SHOT_MOBILE = process.env.SCREENSHOT_MOBILE ? resolve(process.env.SCREENSHOT_MOBILE) : null;
const SHOT_PRACTICE = resolve(process.env.SCREENSHOT_PRACTICE || 'docs/practice.png');
const TOTAL_MS = 480_000;
const STEP_MS = 10_000;
const CHROMIUM = '/usr/bin/chromium';

let context = null; // the persistent browser context (one Chromium process)
let profile = null;
let finished = false;

function cleanup() {
  if (profile) {
    try { rmSync(profile, { recursive: true, force: true }); } catch { /* best effort */ }
    profile = null;
  }
}

async function finish(ok, message) {
  if (finished) return;
  finished = true;
  if (!ok) console.error(`FAIL: ${message}`);
  if (context) {
    await Promise.race([context.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
  }
  cleanup();
  stopSpawned();
  console.log(ok ? '1 passed, 0 failed' : '0 passed, 1 failed');
  process.exit(ok ? 0 : 1);
}

const watchdog = setTimeout(() => finish(false, `the whole test took longer than ${TOTAL_MS / 1000} s`), TOTAL_MS);

function check(cond, message) {
  if (!cond) throw new Error(message);
}

async function step(name, fn) {
  const t0 = Date.now();
  try {
    const out = await fn();
    console.log(`ok - ${name} (${Date.now() - t0} ms)`);
    return out;
  } catch (e) {
    throw new Error(`${name}: ${e && e.message ? e.message.split('\n')[0] : e}`);
  }
}

// The board as the DOM shows it: size and, for each tile, its row and column.
async function readBoard(page) {
  return page.$eval('#board', (b) => ({
    rows: Number(b.dataset.rows),
    cols: Number(b.dataset.cols),
    solved: b.dataset.solved === 'true',
    tiles: [...b.querySelectorAll('[data-tile]')].map((t) => ({
      tile: Number(t.dataset.tile),
      row: Number(t.dataset.row),
      col: Number(t.dataset.col),
      movable: t.classList.contains('movable'),
      hint: t.dataset.hint === 'true',
    })),
  }));
}

const moveCount = async (page) => Number(await page.textContent('#move-count'));

async function waitForAnalysis(page) {
  await page.waitForSelector('#remaining[data-state="ok"], #remaining[data-state="solved"]', { timeout: STEP_MS });
}

// Clicks a tile next to the gap (not `avoid`) and checks that it slid into the gap.
async function clickMove(page, avoid) {
  const b = await readBoard(page);
  const gap = b.tiles.find((t) => t.tile === 0);
  const choices = b.tiles.filter((t) => t.tile !== 0 && Math.abs(t.row - gap.row) + Math.abs(t.col - gap.col) === 1);
  check(choices.length > 0, 'no tile next to the gap');
  check(choices.every((t) => t.movable), 'a tile next to the gap is not marked movable');
  const pick = choices.find((t) => t.tile !== avoid) || choices[0];
  const before = await moveCount(page);
  await page.click(`#board [data-tile="${pick.tile}"]`, { timeout: STEP_MS });
  await page.waitForFunction(
    ({ tile, row, col }) => {
      const t = document.querySelector(`#board [data-tile="${tile}"]`);
      return t && Number(t.dataset.row) === row && Number(t.dataset.col) === col;
    },
    { tile: pick.tile, row: gap.row, col: gap.col },
    { timeout: STEP_MS },
  );
  check((await moveCount(page)) === before + 1, `move count did not go from ${before} to ${before + 1}`);
  return pick.tile;
}

// Distances to the 2x3 goal by breadth-first search, in single-tile (stm) or multi-tile (mtm) moves: the reference
// the page's numbers are checked against.
function bfs2x3(metric) {
  const rows = 2, cols = 3, goal = '1,2,3,4,5,0';
  const dist = new Map([[goal, 0]]);
  let frontier = [goal];
  while (frontier.length) {
    const next = [];
    for (const key of frontier) {
      const b = key.split(',').map(Number), g = b.indexOf(0), r = Math.floor(g / cols), c = g % cols;
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const reach = metric === 'mtm' ? Math.max(rows, cols) : 1;
        const n = b.slice();
        let at = g;
        for (let k = 1; k <= reach; k++) {
          const rr = r + dr * k, cc = c + dc * k;
          if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) break;
          const from = rr * cols + cc;
          n[at] = n[from];
          n[from] = 0;
          at = from;
          const nk = n.join(',');
          if (!dist.has(nk)) { dist.set(nk, dist.get(key) + 1); next.push(nk); }
        }
      }
    }
    frontier = next;
  }
  return dist;
}

// A GIF's header and block structure read here: (width, height, frames); throws on a malformed file.
function gifInfo(buf) {
  check(buf.subarray(0, 6).toString('latin1') === 'GIF89a', 'not a GIF89a file');
  const w = buf.readUInt16LE(6), h = buf.readUInt16LE(8), flags = buf[10];
  let p = 13;
  if (flags & 0x80) p += 3 * (1 << ((flags & 7) + 1));
  const skipSubBlocks = () => { while (buf[p] !== 0) { check(p < buf.length, 'GIF cut short'); p += buf[p] + 1; } p += 1; };
  let frames = 0;
  while (p < buf.length) {
    const b = buf[p++];
    if (b === 0x3b) return { w, h, frames };
    if (b === 0x21) { p += 1; skipSubBlocks(); }
    else if (b === 0x2c) {
      frames++;
      const f = buf[p + 8];
      p += 9;
      if (f & 0x80) p += 3 * (1 << ((f & 7) + 1));
      p += 1; // LZW minimum code size
      skipSubBlocks();
    } else throw new Error(`bad GIF block 0x${b.toString(16)} at byte ${p - 1}`);
  }
  throw new Error('GIF without its trailer');
}

// A PNG's signature and chunks read here: (width, height); throws on a malformed file.
function pngInfo(buf) {
  check(buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'not a PNG file');
  check(buf.subarray(12, 16).toString('latin1') === 'IHDR', 'the PNG does not start with IHDR');
  let p = 8, last = '';
  while (p < buf.length) {
    const len = buf.readUInt32BE(p);
    last = buf.subarray(p + 4, p + 8).toString('latin1');
    p += 12 + len;
  }
  check(p === buf.length && last === 'IEND', 'the PNG does not end with IEND');
  return { w: buf.readUInt32BE(16), h: buf.readUInt32BE(20) };
}

async function loadBoard(page, text) {
  await page.fill('#board-input', text);
  await page.click('#load');
  await page.waitForFunction((t) => document.querySelector('#board').dataset.board === t, text.split('/').map((r) => r.trim()).join(' / '));
  await waitForAnalysis(page);
}

// Clicks tile `tile` (next to the gap) and waits for it to move.
async function clickTile(page, tile) {
  const before = await moveCount(page);
  await page.click(`#board [data-tile="${tile}"]`);
  await page.waitForFunction((n) => Number(document.querySelector('#move-count').textContent) === n + 1, before);
}

async function main() {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    throw new Error('playwright-core is not installed: run `npm ci` in tests-e2e first');
  }
  check(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  profile = mkdtempSync(join(tmpdir(), 'slide-e2e-'));
  // playwright-core refuses a --user-data-dir argument in launch(); launchPersistentContext() passes the
  // fresh profile directory to Chromium as --user-data-dir itself.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 20_000,
    viewport: { width: 1200, height: 860 },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
    ],
  });
  const page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(STEP_MS);
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));

  await step(`open ${BASE}`, async () => {
    const res = await page.goto(BASE, { waitUntil: 'domcontentloaded', timeout: 15_000 });
    check(res && res.ok(), `GET ${BASE} answered ${res ? res.status() : 'nothing'}`);
    await page.waitForSelector('#board [data-tile="0"]', { state: 'attached', timeout: STEP_MS });
    await waitForAnalysis(page);
    for (const id of ['shape', 'board-input', 'load', 'scramble', 'hint', 'solve', 'play', 'pause', 'step', 'status', 'remaining']) {
      check(await page.$(`#${id}`), `element #${id} is missing`);
    }
    check((await page.inputValue('#shape')) === '2x3', 'the default shape is not 2x3');
  });

  await step('bad input shows the server error', async () => {
    await page.fill('#board-input', '1 2 3/4 x 5');
    await page.click('#load');
    await page.waitForSelector('#error', { state: 'visible' });
    const text = (await page.textContent('#error')).trim();
    check(text.length > 'That board could not be read.'.length, `error message is empty: "${text}"`);
  });

  await step('unsolvable board shows the reason', async () => {
    await page.fill('#board-input', '[[1,2,3],[5,4,0]]');
    await page.click('#load');
    await page.waitForSelector('#status[data-state="unsolvable"]');
    const text = await page.textContent('#status');
    check(/unsolvable/i.test(text), `status does not say unsolvable: "${text}"`);
    check(/parity/i.test(text), `status does not give the parity reason: "${text}"`);
    check(await page.isDisabled('#solve'), 'Solve is enabled on an unsolvable board');
  });

  await step('scramble a 2x3 board', async () => {
    await page.click('#scramble');
    await page.waitForSelector('#status:not([data-state="unsolvable"]):not([data-state="loading"])');
    await waitForAnalysis(page);
    const b = await readBoard(page);
    check(b.rows === 2 && b.cols === 3 && b.tiles.length === 6, `board is ${b.rows}x${b.cols} with ${b.tiles.length} tiles`);
    check((await moveCount(page)) === 0, 'move count is not 0 after a scramble');
  });

  await step('play moves by clicking tiles and with an arrow key', async () => {
    let last = null;
    for (let i = 0; i < 3; i++) last = await clickMove(page, last);
    // One move by keyboard: the arrow is the direction the tile moves.
    const b = await readBoard(page);
    const gap = b.tiles.find((t) => t.tile === 0);
    const key = gap.col > 0 ? 'ArrowRight' : 'ArrowLeft';
    const from = b.tiles.find((t) => t.row === gap.row && t.col === gap.col + (key === 'ArrowRight' ? -1 : 1));
    const before = await moveCount(page);
    await page.locator('body').focus();
    await page.keyboard.press(key);
    await page.waitForFunction(
      ({ tile, row, col }) => {
        const t = document.querySelector(`#board [data-tile="${tile}"]`);
        return Number(t.dataset.row) === row && Number(t.dataset.col) === col;
      },
      { tile: from.tile, row: gap.row, col: gap.col },
    );
    check((await moveCount(page)) === before + 1, 'arrow key did not count as a move');
    const listed = await page.$$eval('#move-list li', (lis) => lis.length);
    check(listed === before + 1, `move list has ${listed} entries, expected ${before + 1}`);
    if ((await readBoard(page)).solved) await clickMove(page, from.tile); // keep something to solve
    await waitForAnalysis(page);
    const rem = await page.textContent('#remaining');
    check(/optimal: \d+ moves? left/i.test(rem), `remaining does not read "Optimal: N moves left": "${rem}"`);
  });

  await step('hint highlights a tile next to the gap', async () => {
    await page.click('#hint');
    await page.waitForSelector('#board [data-hint="true"]');
    const b = await readBoard(page);
    const hinted = b.tiles.filter((t) => t.hint);
    check(hinted.length === 1, `${hinted.length} tiles are highlighted`);
    check(hinted[0].movable, `hinted tile ${hinted[0].tile} is not next to the gap`);
  });

  await step('step makes one solver move', async () => {
    const before = await moveCount(page);
    const left = Number(await page.getAttribute('#remaining', 'data-moves'));
    await page.click('#step');
    await page.waitForFunction((n) => Number(document.querySelector('#move-count').textContent) === n + 1, before);
    await waitForAnalysis(page);
    const now = Number(await page.getAttribute('#remaining', 'data-moves'));
    check(now === left - 1, `a solver step went from ${left} to ${now} moves left`);
  });

  await step('solve animates to the goal', async () => {
    await page.$eval('#speed', (s) => { s.value = s.max; s.dispatchEvent(new Event('input', { bubbles: true })); });
    if (!(await readBoard(page)).solved) {
      await page.click('#solve');
      await page.waitForSelector('#status[data-state="solved"]', { timeout: 30_000 });
    }
    const status = await page.textContent('#status');
    check(status.includes('Solved'), `status does not say Solved: "${status}"`);
    const b = await readBoard(page);
    check(b.solved, 'board is not marked data-solved="true"');
    const n = b.rows * b.cols;
    for (const t of b.tiles) {
      const want = t.tile === 0 ? n - 1 : t.tile - 1;
      check(t.row * b.cols + t.col === want, `tile ${t.tile} is at row ${t.row + 1}, column ${t.col + 1}, not its goal cell`);
    }
    check((await page.getAttribute('#remaining', 'data-moves')) === '0', 'remaining does not read 0 moves');
    await page.waitForTimeout(400); // let the last slide and the celebration settle
  });

  await step('a non-optimal solve is analysed: the mistake is marked on the timeline', async () => {
    // 1 2 3 / 4 _ 5 is one move from the goal (5 left). Played: 2 down (a mistake), 2 up, 5 left: 3 moves, 2 over.
    await loadBoard(page, '1 2 3/4 0 5');
    for (const t of [2, 2, 5]) await clickTile(page, t);
    await page.waitForSelector('#status[data-state="solved"]');
    await page.waitForSelector('#analysis[data-state="done"]');
    const summary = await page.textContent('#analysis-summary');
    check(/2 moves over the optimum/.test(summary) && /you took 3 moves/.test(summary) && /shortest takes 1 move\b/.test(summary),
      `the analysis does not say 3 moves, 1 optimal, 2 over: "${summary}"`);
    const items = await page.$$eval('#timeline li > *', (xs) => xs.map((x) => ({ tag: x.tagName, move: x.dataset.move || null, text: x.textContent })));
    check(items.length === 3, `the timeline has ${items.length} moves, not 3`);
    check(items.map((i) => i.text).join(' ') === '2 2 5', `the timeline shows ${items.map((i) => i.text).join(' ')}`);
    const marked = items.filter((i) => i.tag === 'BUTTON');
    check(marked.length === 1 && marked[0].move === '1', `marked mistakes: ${JSON.stringify(marked)} (expected move 1)`);
  });

  await step('the statistics view draws the 2x3 histogram chart', async () => {
    await page.selectOption('#stats-shape', '2x3');
    await page.selectOption('#stats-metric', 'stm');
    await page.click('#stats-show');
    await page.waitForSelector('#stats-chart-box:not([hidden])', { timeout: 20_000 });
    const size = await page.$eval('#stats-chart', (img) => [img.complete, img.naturalWidth, img.naturalHeight]);
    check(size[0] && size[1] === 800 && size[2] === 480, `the chart image is not drawn at 800 × 480: ${size}`);
    const text = await page.textContent('#stats-summary');
    const ref = bfs2x3('stm');
    const god = Math.max(...ref.values());
    check(text.includes(`${ref.size} boards`) && text.includes(`god's number is ${god}`), `the summary does not say ${ref.size} boards and god's number ${god}: "${text}"`);
    await page.$eval('#stats-chart-box', (e) => e.scrollIntoView());
  });

  await step(`screenshot to ${SHOT}`, async () => {
    mkdirSync(dirname(SHOT), { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: SHOT, fullPage: true, timeout: STEP_MS });
  });

  await step('clicking the mistake steps back to the position before it', async () => {
    await page.click('#timeline button.mistake[data-move="1"]');
    await page.waitForFunction(() => document.querySelector('#board').dataset.board === '1 2 3 / 4 0 5');
    check((await moveCount(page)) === 0, 'the moves before the mistake are not what is left in the list');
    await waitForAnalysis(page);
    check(!(await page.isHidden('#analysis')), 'the analysis panel went away');
    await clickTile(page, 5);
    await page.waitForSelector('#status[data-state="solved"]');
    await page.waitForSelector('#analysis[data-over="0"]');
    const summary = await page.textContent('#analysis-summary');
    check(/Optimal solve!/.test(summary), `a one-move solve is not called optimal: "${summary}"`);
  });

  await step('the move box: errors named, Apply and Animate', async () => {
    await loadBoard(page, '4 1 2/5 0 3');
    await page.fill('#moves-input', 'RX');
    await page.click('#apply-moves');
    await page.waitForSelector('#moves-error', { state: 'visible' });
    let err = await page.textContent('#moves-error');
    check(/unknown letter 'X' at column 2/.test(err), `the syntax error is not named: "${err}"`);
    await page.fill('#moves-input', 'U');
    await page.click('#apply-moves');
    await page.waitForFunction(() => /no tile below/.test(document.querySelector('#moves-error').textContent));
    check((await moveCount(page)) === 0, 'a bad sequence moved tiles');
    await page.fill('#moves-input', 'r d');
    await page.click('#apply-moves');
    await page.waitForFunction(() => document.querySelector('#board').dataset.board === '0 1 2 / 4 5 3');
    check(await page.isHidden('#moves-error'), 'the error stays after good moves');
    check((await moveCount(page)) === 2, 'Apply did not add 2 moves');
    await page.fill('#moves-input', 'L2U');
    await page.click('#animate-moves');
    await page.waitForSelector('#status[data-state="solved"]', { timeout: 20_000 });
    check((await moveCount(page)) === 5, 'Animate did not add 3 moves');
    // The typed moves are the player's: the solve is analysed (r d l2 u is a shortest solution).
    await page.waitForSelector('#analysis[data-over="0"]');
  });

  await step('downloads: the board as PNG and the optimal solution as GIF decode', async () => {
    await loadBoard(page, '4 1 2/5 0 3');
    const save = async (button) => {
      const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 20_000 }), page.click(button)]);
      const path = await dl.path();
      check(path, `${button}: the download failed: ${await dl.failure()}`);
      return { name: dl.suggestedFilename(), bytes: readFileSync(path) };
    };
    const png = await save('#download-png');
    check(png.name === 'slide-2x3.png', `the PNG is named ${png.name}`);
    const p = pngInfo(png.bytes);
    check(p.w === 480 && p.h > 300 && p.h < 480, `the PNG is ${p.w} × ${p.h}`);
    const gif = await save('#download-gif');
    check(gif.name === 'slide-2x3-optimal.gif', `the GIF is named ${gif.name}`);
    const g = gifInfo(gif.bytes);
    const d = bfs2x3('stm').get('4,1,2,5,0,3');
    // A frame per position and 3 in-between frames per move at 8 tiles per second.
    check(g.w === 320 && g.frames === 4 * d + 1, `the GIF is ${g.w} × ${g.h} with ${g.frames} frames (expected 320 wide, ${4 * d + 1} frames)`);
  });

  await step('both metrics shown; the MTM switch drives Solve', async () => {
    await loadBoard(page, '5 4 0/2 1 3');
    await page.waitForSelector('#metric-row:not([hidden])');
    await page.waitForSelector('#dist-stm[data-moves]');
    await page.waitForSelector('#dist-mtm[data-moves]');
    const stm = Number(await page.getAttribute('#dist-stm', 'data-moves'));
    const mtm = Number(await page.getAttribute('#dist-mtm', 'data-moves'));
    const key = '5,4,0,2,1,3';
    check(stm === bfs2x3('stm').get(key) && mtm === bfs2x3('mtm').get(key),
      `the page says STM ${stm}, MTM ${mtm}; the BFS says ${bfs2x3('stm').get(key)}, ${bfs2x3('mtm').get(key)}`);
    await page.click('#metric-mtm');
    await page.waitForSelector('#remaining[data-metric="mtm"][data-state="ok"]');
    const rem = await page.textContent('#remaining');
    check(rem.includes(`${mtm} move`) && rem.includes('(MTM)'), `remaining does not give the MTM optimum ${mtm}: "${rem}"`);
    await page.click('#solve');
    await page.waitForSelector('#status[data-state="solved"]', { timeout: 30_000 });
    const tiles = await page.$$eval('#move-list li', (lis) => lis.map((li) => li.dataset.tile));
    // Replayed here, the solution's runs of one direction of the gap are the MTM optimum.
    const b = key.split(',').map(Number);
    let runs = 0, lastDir = null;
    for (const t of tiles.map(Number)) {
      const g = b.indexOf(0), at = b.indexOf(t);
      check(Math.abs(Math.floor(g / 3) - Math.floor(at / 3)) + Math.abs((g % 3) - (at % 3)) === 1, `tile ${t} is not next to the gap`);
      if (at - g !== lastDir) runs++;
      lastDir = at - g;
      b[g] = t; b[at] = 0;
    }
    check(b.join(',') === '1,2,3,4,5,0' && runs === mtm, `the MTM solve ${tiles.join(' ')} has ${runs} pushes, not ${mtm}`);
    await page.click('#metric-stm');
    await page.waitForSelector('#remaining[data-metric="stm"]');
  });

  await step('3x5: the pattern-database build shows with its progress, then goes once ready', async () => {
    // The server (an empty cache) builds the 3 x 5 databases the first time a 3 x 5 board is asked for; the page
    // polls GET api/status meanwhile. (Not 4 x 4: the page asks its MTM distance too, whose label tables take minutes.)
    await page.selectOption('#shape', '3x5');
    await page.waitForSelector('#build:not([hidden])', { timeout: STEP_MS });
    const said = await page.textContent('#build');
    check(/(Building|Loading|Waiting to build) the 3 × 5 pattern databases: \d+ % .*answers meanwhile come from linear conflicts \(weaker\)/.test(said),
      `the build line does not say what is built and how far: "${said}"`);
    await page.waitForSelector('#build[hidden]', { state: 'attached', timeout: 150_000 });
    const status = await page.evaluate(async () => (await (await fetch('api/status')).json()).builds);
    const entry = status.find((b) => b.shape === '3x5' && b.metric === 'stm');
    check(entry && entry.state === 'ready' && entry.fraction === 1, `the status of 3x5 is not ready: ${JSON.stringify(entry)}`);
  });

  await step('5x5: Solve plays a marked solution to the goal', async () => {
    await page.selectOption('#shape', '5x5'); // a change scrambles a board of that shape
    await page.waitForFunction(() => document.querySelector('#board').dataset.rows === '5'
      && document.querySelector('#board').dataset.cols === '5');
    // The server runs with --no-large-builds (no test builds the 5 x 5 databases): the page says they are off.
    await page.waitForSelector('#build:not([hidden])', { timeout: STEP_MS });
    const off = await page.textContent('#build');
    check(/The 5 × 5 pattern databases are off on this server.*linear conflicts \(weaker\)/.test(off),
      `the build line does not say the 5x5 databases are off: "${off}"`);
    check(await page.isHidden('#metric-row'), 'the metric switch shows on 5x5 (no MTM there)');
    // The optimal search cannot finish in the server's 2 s budget: the answer is a solution, marked.
    await page.waitForSelector('#remaining[data-state="budget"], #remaining[data-state="ok"]', { timeout: STEP_MS });
    const rem = await page.textContent('#remaining');
    check(/best found: \d+ moves, (at most [\d.]+ × the optimum|a valid solution, not the shortest); at least \d+ are needed/i.test(rem),
      `remaining does not say what the solution is: "${rem}"`);
    // Not proven shortest: the page offers to keep searching with the server's longest budget (30 s by default).
    await page.waitForSelector('#keep-searching:not([hidden])', { timeout: STEP_MS });
    const keep = await page.textContent('#keep-searching');
    check(/^Keep searching \(up to 30 s\)$/.test(keep.trim()), `the keep-searching button says "${keep}"`);
    await page.click('#hint');
    await page.waitForSelector('#board [data-hint="true"]');
    const hint = await page.textContent('#notice');
    check(/from a solution of \d+ moves/.test(hint), `the hint does not say where it comes from: "${hint}"`);
    await page.click('#solve');
    await page.waitForFunction(() => /^Playing/.test(document.querySelector('#notice').textContent));
    const said = await page.textContent('#notice');
    check(/^Playing \d+ moves/.test(said) && /slide solve --moves/.test(said), `Solve does not say what it plays: "${said}"`);
    check(await page.isHidden('#keep-searching'), 'the keep-searching button stays while the solution plays');
    await page.waitForSelector('#status[data-state="solved"]', { timeout: 60_000 });
    const b = await readBoard(page);
    check(b.solved && b.rows === 5 && b.cols === 5, 'the 5x5 board is not solved');
    for (const t of b.tiles) {
      const want = t.tile === 0 ? 24 : t.tile - 1;
      check(t.row * 5 + t.col === want, `tile ${t.tile} is at row ${t.row + 1}, column ${t.col + 1}, not its goal cell`);
    }
  });

  // 5x5 on a second server with a small node budget: a stopped analysis, a playback not proven shortest.
  await budgetSteps({ page, step, check });

  if (SHOT_MOBILE) {
    await step(`phone screenshot (375 px) to ${SHOT_MOBILE}`, async () => {
      const p = await context.newPage();
      await p.setViewportSize({ width: 375, height: 812 });
      p.on('pageerror', (e) => pageErrors.push(e.message));
      await p.goto(BASE, { waitUntil: 'domcontentloaded', timeout: 15_000 });
      await p.waitForSelector('#board [data-tile="0"]', { state: 'attached', timeout: STEP_MS });
      await waitForAnalysis(p);
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      check(overflow <= 0, `the page is ${overflow} px wider than a 375 px screen`);
      await p.click('#hint');
      await p.waitForSelector('#board [data-hint="true"]');
      await p.waitForTimeout(300);
      mkdirSync(dirname(SHOT_MOBILE), { recursive: true });
      await p.screenshot({ path: SHOT_MOBILE, fullPage: true, timeout: STEP_MS });
      await p.close();
    });
  }

  // Practice: timed solves, records, averages, replays; restarts the server on its database (last: the URL changes).
  await practiceSteps({ page, base: BASE, step, check, shot: SHOT_PRACTICE });

  check(pageErrors.length === 0, `JavaScript errors on the page: ${pageErrors.join('; ')}`);
}

main().then(
  () => { clearTimeout(watchdog); return finish(true); },
  (e) => { clearTimeout(watchdog); return finish(false, e && e.message ? e.message : String(e)); },
);
