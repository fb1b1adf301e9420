// End-to-end check of the `slide serve` web page in headless Chromium.
//
//   SLIDE_URL          base URL of a running `slide serve` (default http://127.0.0.1:8773)
//   SCREENSHOT         where to save a screenshot of the solved board (default docs/screenshot.png, relative to cwd)
//   SCREENSHOT_MOBILE  optional: also save a 375 px wide (phone) screenshot there
//
// Uses the system Chromium at /usr/bin/chromium through playwright-core; it never downloads a browser.
// Prints "1 passed, 0 failed" on success, "0 passed, 1 failed" (and exits 1) on any failure.

import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const BASE = (process.env.SLIDE_URL || 'http://127.0.0.1:8773').replace(/\/+$/, '') + '/';
const SHOT = resolve(process.env.SCREENSHOT || 'docs/screenshot.png');
const SHOT_MOBILE = process.env.SCREENSHOT_MOBILE ? resolve(process.env.SCREENSHOT_MOBILE) : null;
const TOTAL_MS = 120_000;
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

  await step(`screenshot to ${SHOT}`, async () => {
    mkdirSync(dirname(SHOT), { recursive: true });
    await page.screenshot({ path: SHOT, timeout: STEP_MS });
  });

  await step('5x5: Solve plays a marked solution to the goal', async () => {
    await page.selectOption('#shape', '5x5'); // a change scrambles a board of that shape
    await page.waitForFunction(() => document.querySelector('#board').dataset.rows === '5'
      && document.querySelector('#board').dataset.cols === '5');
    // The optimal search cannot finish in the server's 2 s budget: the answer is a solution, marked.
    await page.waitForSelector('#remaining[data-state="budget"], #remaining[data-state="ok"]', { timeout: STEP_MS });
    const rem = await page.textContent('#remaining');
    check(/best found: \d+ moves, (at most [\d.]+ × the optimum|a valid solution, not the shortest); at least \d+ are needed/i.test(rem),
      `remaining does not say what the solution is: "${rem}"`);
    await page.click('#hint');
    await page.waitForSelector('#board [data-hint="true"]');
    const hint = await page.textContent('#notice');
    check(/from a solution of \d+ moves/.test(hint), `the hint does not say where it comes from: "${hint}"`);
    await page.click('#solve');
    await page.waitForFunction(() => /^Playing/.test(document.querySelector('#notice').textContent));
    const said = await page.textContent('#notice');
    check(/^Playing \d+ moves/.test(said) && /slide solve --moves/.test(said), `Solve does not say what it plays: "${said}"`);
    await page.waitForSelector('#status[data-state="solved"]', { timeout: 60_000 });
    const b = await readBoard(page);
    check(b.solved && b.rows === 5 && b.cols === 5, 'the 5x5 board is not solved');
    for (const t of b.tiles) {
      const want = t.tile === 0 ? 24 : t.tile - 1;
      check(t.row * 5 + t.col === want, `tile ${t.tile} is at row ${t.row + 1}, column ${t.col + 1}, not its goal cell`);
    }
  });

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

  check(pageErrors.length === 0, `JavaScript errors on the page: ${pageErrors.join('; ')}`);
}

main().then(
  () => { clearTimeout(watchdog); return finish(true); },
  (e) => { clearTimeout(watchdog); return finish(false, e && e.message ? e.message : String(e)); },
);
