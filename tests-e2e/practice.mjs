// The practice steps of the end-to-end test (run by e2e.mjs): timed solves played with the keyboard, clicks, segment
// pushes and hover; each recorded through POST /api/solves; ao5 after five solves checked against the standard rule
// computed here; an assisted solve excluded; the spoiler-free mode; a marathon with its splits; the page playing on
// while the history answers 503; your own GIF's frames and delays; the server restarted on the same database
// finds the history. Also (budgetSteps) a 5 × 5 board on a second server with a small node budget: a solve whose
// analysis the budget stops still says what is known, and stepping through a solution not proven shortest keeps
// the "Best found" line sound.
//
//   SLIDE_BIN, SLIDE_PID, SLIDE_DB   set by scripts/e2e.sh: the binary, the running server, its database file
//   E2E_ALLOW_NO_HISTORY=1           a server without the history routes (404) passes, the history checks skipped

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const spawned = new Set(); // the servers this file started (the restart, the budget server), stopped by stopSpawned()

export function stopSpawned() {
  for (const p of spawned) { try { p.kill('SIGTERM'); } catch { /* gone */ } }
  spawned.clear();
}

// Starts `bin serve --port 0 ARGS...` (the table cache from the environment); resolves to {proc, url} once it has
// printed its URL.
function startServer(bin, args) {
  const proc = spawn(bin, ['serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  spawned.add(proc);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server started printed no URL within 30 s')), 30_000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[^\s]+/.exec(out);
      if (m) { clearTimeout(timer); resolve({ proc, url: m[0] }); }
    });
    proc.on('exit', (code) => { spawned.delete(proc); reject(new Error(`the server started exited with ${code}`)); });
  });
}

// Distances to the goal of a rows × cols board in single-tile moves, by breadth-first search.
function bfs(rows, cols) {
  const n = rows * cols;
  const goal = Array.from({ length: n }, (_, i) => (i === n - 1 ? 0 : i + 1)).join(',');
  const dist = new Map([[goal, 0]]);
  let frontier = [goal];
  while (frontier.length) {
    const next = [];
    for (const key of frontier) {
      const b = key.split(',').map(Number), g = b.indexOf(0), r = Math.floor(g / cols), c = g % cols;
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const rr = r + dr, cc = c + dc;
        if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
        const m = b.slice();
        m[g] = m[rr * cols + cc];
        m[rr * cols + cc] = 0;
        const k = m.join(',');
        if (!dist.has(k)) { dist.set(k, dist.get(key) + 1); next.push(k); }
      }
    }
    frontier = next;
  }
  return dist;
}
const DIST = new Map();
const distOf = (rows, cols) => {
  const k = rows + 'x' + cols;
  if (!DIST.has(k)) DIST.set(k, bfs(rows, cols));
  return DIST.get(k);
};

// The board on screen: {rows, cols, cells (row-major tile numbers)}.
async function board(page) {
  return page.$eval('#board', (b) => {
    const rows = Number(b.dataset.rows), cols = Number(b.dataset.cols);
    const cells = new Array(rows * cols).fill(0);
    for (const t of b.querySelectorAll('[data-tile]')) cells[Number(t.dataset.row) * cols + Number(t.dataset.col)] = Number(t.dataset.tile);
    return { rows, cols, cells, solved: b.dataset.solved === 'true' };
  });
}

// The next move of a shortest solution: {tile, way} (the way the tile goes: 'left', 'right', 'up', 'down').
function bestMove(b) {
  const dist = distOf(b.rows, b.cols), g = b.cells.indexOf(0), r = Math.floor(g / b.cols), c = g % b.cols;
  const d = dist.get(b.cells.join(','));
  for (const [dr, dc, way] of [[0, 1, 'left'], [0, -1, 'right'], [1, 0, 'up'], [-1, 0, 'down']]) {
    const rr = r + dr, cc = c + dc;
    if (rr < 0 || rr >= b.rows || cc < 0 || cc >= b.cols) continue;
    const m = b.cells.slice(), at = rr * b.cols + cc;
    const tile = m[at];
    m[g] = tile; m[at] = 0;
    if (dist.get(m.join(',')) === d - 1) return { tile, way };
  }
  throw new Error(`no move brings ${b.cells.join(',')} closer (distance ${d})`);
}

const KEYS = {
  arrows: { left: 'ArrowLeft', right: 'ArrowRight', up: 'ArrowUp', down: 'ArrowDown' },
  wasd: { left: 'a', right: 'd', up: 'w', down: 's' },
  ijkl: { left: 'j', right: 'l', up: 'i', down: 'k' },
};
const pause = (page) => page.waitForTimeout(40 + Math.floor(Math.random() * 160));

// Plays the board on screen to the goal, each move by `how`: 'arrows', 'wasd', 'ijkl', 'click' or 'hover'.
async function playToGoal(page, how, check) {
  for (let guard = 0; guard < 200; guard++) {
    const b = await board(page);
    if (b.solved) return;
    const { tile, way } = bestMove(b);
    const before = Number(await page.textContent('#live-stm'));
    if (how === 'click') await page.click(`#board [data-tile="${tile}"]`);
    else if (how === 'hover') await page.hover(`#board [data-tile="${tile}"]`);
    else {
      if (how === 'arrows') await page.locator('body').focus();
      await page.keyboard.press(KEYS[how][way]);
    }
    await page.waitForFunction((n) => Number(document.querySelector('#live-stm').textContent) > n
      || document.querySelector('#board').dataset.solved === 'true', before);
    await pause(page);
  }
  check(false, `the board was not solved by ${how}`);
}

// Pushes a segment of two tiles when the gap's row has a tile two cells away; returns whether it did.
async function pushTwo(page, check) {
  const b = await board(page);
  const g = b.cells.indexOf(0), c = g % b.cols;
  const at = c + 2 < b.cols ? g + 2 : c - 2 >= 0 ? g - 2 : -1;
  if (at < 0) return false;
  const stm = Number(await page.textContent('#live-stm')), mtm = Number(await page.textContent('#live-mtm'));
  await page.click(`#board [data-tile="${b.cells[at]}"]`);
  await page.waitForFunction((n) => Number(document.querySelector('#live-stm').textContent) === n + 2, stm);
  const after = await board(page);
  check(after.cells.indexOf(0) === at, 'the push did not move the gap two cells');
  check(Number(await page.textContent('#live-mtm')) === mtm + 1, 'a push of two tiles is not one MTM move');
  return true;
}

// The standard average of the last `n` results (null a DNF): drop the best and the worst ceil(5 % of n), at least
// one each, a DNF the worst; a DNF left in makes it a DNF.
function average(results, n) {
  if (results.length < n) return null;
  const win = results.slice(-n);
  const drop = Math.max(1, Math.ceil(n * 0.05));
  const sorted = win.map((v) => (v === null ? Infinity : v)).sort((a, b) => a - b).slice(drop, n - drop);
  if (sorted.includes(Infinity)) return 'DNF';
  return sorted.reduce((a, v) => a + v, 0) / sorted.length;
}

// A GIF's frames and their delays (hundredths of a second).
function gifDelays(buf) {
  if (buf.subarray(0, 6).toString('latin1') !== 'GIF89a') throw new Error('not a GIF89a file');
  let p = 13;
  if (buf[10] & 0x80) p += 3 * (1 << ((buf[10] & 7) + 1));
  const skip = () => { while (buf[p] !== 0) p += buf[p] + 1; p += 1; };
  const delays = [];
  let pending = null;
  while (p < buf.length) {
    const b = buf[p++];
    if (b === 0x3b) return delays;
    if (b === 0x21) {
      if (buf[p] === 0xf9) pending = buf.readUInt16LE(p + 3);
      p += 1;
      skip();
    } else if (b === 0x2c) {
      const f = buf[p + 8];
      p += 9;
      if (f & 0x80) p += 3 * (1 << ((f & 7) + 1));
      p += 1;
      skip();
      delays.push(pending === null ? 0 : pending);
      pending = null;
    } else throw new Error(`bad GIF block 0x${b.toString(16)}`);
  }
  throw new Error('GIF without its trailer');
}

// The delays the library writes for moves made at `times` (ms): the start held 0.5 s before the first move's
// time, each position until the next move's time, the end held 1 s; each delay at least 2/100 s.
function expectedDelays(times) {
  const at = (i) => 0.5 + times[Math.min(i, times.length - 1)] / 1000;
  const ends = [at(0)];
  for (let i = 1; i <= times.length; i++) ends.push(at(i) + (i === times.length ? 1.0 : 0));
  let shown = 0;
  return ends.map((e) => { const d = Math.max(2, Math.round(e * 100) - shown); shown += d; return d; });
}

const isSolves = (r) => new URL(r.url()).pathname.endsWith('/api/solves') && r.request().method() === 'POST';

// One timed solve of a fresh scramble: returns {body, record} (the POST's body and the server's answer; record
// null without history).
async function timedSolve(page, check, how, { hint = false, push = false, history = true } = {}) {
  await page.click('#scramble');
  await page.waitForSelector('#timer[data-state="ready"]');
  const answer = page.waitForResponse(isSolves, { timeout: 60_000 });
  answer.catch(() => {}); // awaited below; a step that fails first must not leave it unhandled
  if (hint) {
    await page.click('#hint');
    await page.waitForSelector('#board [data-hint="true"]');
    await page.waitForSelector('#assisted:not([hidden])');
  }
  const pushed = push ? await pushTwo(page, check) : false;
  await playToGoal(page, how, check);
  await page.waitForSelector('#timer[data-state="done"]');
  const res = await answer;
  const body = res.request().postDataJSON();
  const record = history && res.ok() ? await res.json() : null;
  if (history) check(res.ok(), `POST /api/solves answered ${res.status()}: ${await res.text()}`);
  return { body, record, pushed, ms: Number(await page.getAttribute('#timer', 'data-ms')) };
}

// Reads the averages table: the value of (series, kind, which), a number, 'DNF' or null.
async function tableValue(page, series, kind, which) {
  const v = await page.getAttribute(`#averages td[data-series="${series}"][data-kind="${kind}"][data-which="${which}"]`, 'data-value');
  return v === null ? null : v === 'DNF' ? 'DNF' : Number(v);
}

export async function practiceSteps({ page, base, step, check, shot }) {
  const status = await page.evaluate(async () => (await fetch('api/solves?limit=1')).status);
  const history = status !== 404;
  if (!history) {
    check(process.env.E2E_ALLOW_NO_HISTORY === '1', 'GET /api/solves answered 404: this server keeps no history');
    console.log('# this server keeps no history: the history checks are skipped (E2E_ALLOW_NO_HISTORY=1)');
  }
  const load = async (text) => {
    await page.fill('#board-input', text);
    await page.click('#load');
    await page.waitForFunction((t) => document.querySelector('#board').dataset.board === t, text.split('/').map((r) => r.trim()).join(' / '));
    await page.waitForSelector('#remaining[data-state="ok"]');
  };

  await step('a solve the solver stepped through is not credited as the player\'s', async () => {
    // 4 steps of a 5-move 2 x 3 board, and 18 of a 19-move 3 x 3 one (the first board of that distance found by
    // the breadth-first search here), each finished by one arrow key.
    const far = [...distOf(3, 3)].find(([, d]) => d === 19)[0].split(',');
    for (const [text, steps] of [['4 1 2/5 0 3', 4], [[0, 3, 6].map((i) => far.slice(i, i + 3).join(' ')).join('/'), 18]]) {
      await load(text);
      check((await page.getAttribute('#remaining', 'data-metric')) === 'stm', 'the metric is not STM');
      check(Number(await page.getAttribute('#remaining', 'data-moves')) === steps + 1, `${text} is not ${steps + 1} moves from the goal`);
      for (let i = 0; i < steps; i++) {
        const n = Number(await page.textContent('#move-count'));
        await page.click('#step');
        await page.waitForFunction((k) => Number(document.querySelector('#move-count').textContent) === k + 1, n);
      }
      const { way } = bestMove(await board(page));
      await page.locator('body').focus();
      await page.keyboard.press(KEYS.arrows[way]);
      await page.waitForSelector('#analysis[data-state="done"]');
      const said = await page.textContent('#analysis-summary');
      check(!/Optimal solve!|No mistakes/.test(said) && /Assisted solve/.test(said)
        && said.includes(`${steps} moves of ${steps + 1} made by the solver`),
      `a solve of ${steps} solver steps and one key is credited: "${said}"`);
    }
  });

  await step('the MTM hint is a push, written as the CLI writes it', async () => {
    await load('5 4 0/2 1 3');
    await page.click('#metric-mtm');
    await page.waitForSelector('#remaining[data-metric="mtm"][data-state="ok"]');
    const before = Number(await page.getAttribute('#dist-mtm', 'data-moves'));
    await page.click('#hint');
    await page.waitForSelector('#board [data-hint="true"]');
    const letter = await page.getAttribute('#notice', 'data-hint');
    check(/^[LRUD]\d*$/.test(letter), `the MTM hint is written "${letter}"`);
    const b = await board(page), hinted = await page.getAttribute('#board [data-hint="true"]', 'data-tile');
    const g = b.cells.indexOf(0), at = b.cells.indexOf(Number(hinted));
    const span = Math.abs(Math.floor(g / b.cols) - Math.floor(at / b.cols)) + Math.abs((g % b.cols) - (at % b.cols));
    check(span === Number(letter.slice(1) || 1), `the hint ${letter} names tile ${hinted}, ${span} cells from the gap`);
    await page.click(`#board [data-tile="${hinted}"]`);
    await page.waitForFunction((n) => Number(document.querySelector('#dist-mtm').dataset.moves) === n - 1, before);
    await page.click('#metric-stm');
  });

  await page.selectOption('#shape', '2x3');
  await page.waitForSelector('#timer[data-state="ready"]');

  await step('arrow keys on the focused Shape selector move tiles, not the shape', async () => {
    const input = await page.inputValue('#board-input');
    await page.focus('#shape');
    for (const k of ['ArrowDown', 'ArrowUp', 'ArrowDown']) await page.keyboard.press(k);
    await page.waitForTimeout(300);
    check((await page.inputValue('#shape')) === '2x3', `the shape changed to ${await page.inputValue('#shape')}`);
    check((await page.inputValue('#board-input')) === input, 'the arrow keys scrambled a new board');
  });

  const solves = [];
  await step('five timed solves: keys, clicks with a segment push, hover, WASD, IJKL', async () => {
    const ways = [['arrows', {}], ['click', { push: true }], ['hover', {}], ['wasd', {}], ['ijkl', {}]];
    let pushed = false;
    for (const [how, opts] of ways) {
      if (how === 'hover') await page.check('#hover-mode');
      const s = await timedSolve(page, check, how, { ...opts, push: opts.push || (!pushed && how !== 'hover'), history });
      if (how === 'hover') { await page.uncheck('#hover-mode'); await page.mouse.move(0, 0); }
      const b = s.body;
      pushed = pushed || s.pushed;
      check(b.category === 'single' && b.assisted === false && b.dnf === false, `the solve was sent as ${JSON.stringify(b)}`);
      check(Array.isArray(b.times_ms) && b.times_ms.length > 0 && b.times_ms.every((t, i) => i === 0 || t >= b.times_ms[i - 1]),
        `times_ms is not one non-decreasing time per move: ${JSON.stringify(b.times_ms)}`);
      check(s.ms === b.times_ms[b.times_ms.length - 1], `the timer says ${s.ms} ms, the last move was at ${b.times_ms.at(-1)} ms`);
      if (s.record) {
        check(typeof s.record.id === 'number', `the record has no id: ${JSON.stringify(s.record)}`);
        check(s.record.time_ms === s.ms, `the server recorded ${s.record.time_ms} ms for a ${s.ms} ms solve`);
      }
      solves.push(s);
    }
    check(pushed, 'no segment push was made');
  });

  await step('ao5 after five solves is the standard average, in the session and all-time views', async () => {
    const times = solves.map((s) => s.ms);
    const want = average(times, 5);
    await page.click('#view-session');
    await page.waitForSelector('#averages[data-source="session"]');
    const mine = await tableValue(page, 'time', 'ao5', 'current');
    check(mine !== null && Math.abs(mine - want) < 0.5, `the session ao5 is ${mine}, the rule gives ${want} from ${times}`);
    const single = await tableValue(page, 'time', 'single', 'best');
    check(single === Math.min(...times), `the best single is ${single}, not ${Math.min(...times)}`);
    if (history) {
      await page.click('#view-all');
      await page.waitForSelector('#averages[data-source="all"]');
      const all = await tableValue(page, 'time', 'ao5', 'current');
      check(all !== null && Math.abs(all - want) <= 1, `the all-time ao5 is ${all}, the rule gives ${want} from ${times}`);
      await page.waitForSelector('#history-chart-box:not([hidden])');
      await page.waitForFunction(() => { const img = document.querySelector('#history-chart'); return img.complete && img.naturalWidth > 0; })
        .catch(() => check(false, 'the chart of times is not drawn'));
    }
  });

  await step('an assisted solve (a hint) is recorded as such and left out of the averages', async () => {
    const before = await tableValue(page, 'time', 'ao5', 'current');
    const s = await timedSolve(page, check, 'click', { hint: true, history });
    check(s.body.assisted === true, 'the hinted solve was not sent as assisted');
    if (s.record) check(s.record.assisted === true, 'the server did not keep the solve as assisted');
    await page.waitForFunction(() => document.querySelector('#solve-list li') !== null);
    const after = await tableValue(page, 'time', 'ao5', 'current');
    check(after === before, `the ao5 went from ${before} to ${after} with an assisted solve`);
    const first = await page.getAttribute('#solve-list li:first-child', 'data-assisted');
    check(first === 'true', 'the assisted solve is not listed as assisted');
    check(await page.isHidden('#pb'), 'an assisted solve is marked as a personal best');
  });

  let last = null;
  await step('spoiler-free mode hides the optimum and hints until the solve ends', async () => {
    await page.check('#spoiler-free');
    await page.click('#scramble');
    await page.waitForSelector('#timer[data-state="ready"]');
    await page.waitForTimeout(300);
    for (const id of ['remaining', 'hint', 'metric-row']) check(await page.isHidden(`#${id}`), `#${id} shows in spoiler-free mode`);
    const answer = page.waitForResponse(isSolves, { timeout: 60_000 });
    answer.catch(() => {}); // awaited below; a step that fails first must not leave it unhandled
    await playToGoal(page, 'arrows', check);
    await page.waitForSelector('#timer[data-state="done"]');
    const res = await answer;
    last = { body: res.request().postDataJSON() };
    await page.waitForSelector('#remaining:not([hidden])');
    check(!(await page.isHidden('#hint')), 'Hint stays hidden after the solve');
    await page.uncheck('#spoiler-free');
  });

  await step('your solve: notation, replay, and the GIF at the recorded move times', async () => {
    const body = last.body;
    const notation = (await page.textContent('#replay-notation')).trim();
    check(notation === body.moves, `the replay shows ${notation}, the solve sent ${body.moves}`);
    await page.click('#replay-play');
    await page.waitForSelector('#replay[data-state="done"]', { timeout: 20_000 });
    check(Number(await page.textContent('#move-count')) === body.times_ms.length, 'the replay did not make every move');
    check((await board(page)).solved, 'the replay does not end on the goal');
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 20_000 }), page.click('#replay-gif')]);
    const path = await dl.path();
    check(path, `the GIF download failed: ${await dl.failure()}`);
    const delays = gifDelays(readFileSync(path));
    const want = expectedDelays(body.times_ms);
    check(delays.length === body.times_ms.length + 1, `the GIF has ${delays.length} frames for ${body.times_ms.length} moves`);
    check(delays.every((d, i) => Math.abs(d - want[i]) <= 1), `the GIF's delays ${delays} are not the moves' times ${want}`);
  });

  if (shot) {
    await step(`screenshot of the practice view to ${shot}`, async () => {
      await page.click('#view-session');
      await page.waitForSelector('#averages[data-source="session"]');
      mkdirSync(dirname(shot), { recursive: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(300);
      await page.screenshot({ path: shot, fullPage: true });
    });
  }

  await step('a marathon of two 2x2 solves is recorded as one solve with its splits', async () => {
    await page.selectOption('#shape', '2x2');
    await page.$eval('#marathon-count', (i) => { i.value = '2'; });
    const answer = page.waitForResponse(isSolves, { timeout: 60_000 });
    answer.catch(() => {}); // awaited below; a step that fails first must not leave it unhandled
    await page.selectOption('#category', 'marathon');
    for (let i = 0; i < 2; i++) {
      await page.waitForSelector('#timer[data-state="ready"]');
      await playToGoal(page, 'click', check);
      await page.waitForTimeout(600);
    }
    const res = await answer;
    const body = res.request().postDataJSON();
    check(body.category === 'marathon' && Array.isArray(body.splits) && body.splits.length === 2,
      `the marathon was sent as ${JSON.stringify(body).slice(0, 300)}`);
    const total = body.splits.reduce((a, s) => a + s.time_ms, 0);
    const all = body.splits.flatMap((s) => s.times_ms);
    check(all.every((t, i) => i === 0 || t >= all[i - 1]) && all.at(-1) === total,
      `the splits' times do not count from the marathon's start: ${JSON.stringify(body.splits.map((s) => s.times_ms))}`);
    check(Number(await page.getAttribute('#timer', 'data-ms')) === total, 'the marathon time is not the sum of its splits');
    await page.selectOption('#category', 'single');
    await page.selectOption('#shape', '2x3');
    await page.waitForSelector('#timer[data-state="ready"]');
  });

  await step('with the history answering 503 the page still times the solve and says so', async () => {
    await page.route('**/api/solves', (route) => route.fulfill({
      status: 503, contentType: 'application/json', body: '{"error":"history unavailable: the test says so"}',
    }));
    await page.click('#scramble');
    await page.waitForSelector('#timer[data-state="ready"]');
    await playToGoal(page, 'arrows', check);
    await page.waitForSelector('#timer[data-state="done"]');
    await page.waitForSelector('#history-error:not([hidden])');
    const said = await page.textContent('#history-error');
    check(/history unavailable: the test says so/.test(said), `the page does not say why: "${said}"`);
    await page.unroute('**/api/solves');
  });

  if (!history) return;
  await step('the server restarted on the same database finds the history', async () => {
    const pid = Number(process.env.SLIDE_PID), bin = process.env.SLIDE_BIN, db = process.env.SLIDE_DB;
    check(pid && bin && db, 'SLIDE_PID, SLIDE_BIN and SLIDE_DB are not set (scripts/e2e.sh sets them)');
    // The all-time ao5 of 2 x 3 singles by the rule, from the records kept before the restart (later steps added
    // solves after the first five): the five newest that count, a DNF as worst, assisted ones left out.
    const kept = await fetch(base + 'api/solves?shape=2x3&category=single&limit=1000').then((r) => r.json());
    const counted = kept.solves.filter((s) => !s.assisted).reverse();
    check(counted.length >= 5, `only ${counted.length} unassisted 2x3 solves kept before the restart`);
    const want = average(counted.map((s) => (s.dnf ? null : s.time_ms)), 5);
    process.kill(pid, 'SIGTERM');
    for (let i = 0; ; i++) {
      check(i < 100, 'the server did not stop within 10 s');
      const up = await fetch(base + 'api/status').then(() => true, () => false);
      if (!up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { url } = await startServer(bin, ['--no-large-builds', '--db', db]);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('#board [data-tile="0"]', { state: 'attached' });
    await page.selectOption('#shape', '2x3');
    await page.click('#view-all');
    await page.waitForSelector('#averages[data-source="all"]');
    await page.waitForFunction(() => document.querySelectorAll('#solve-list li').length > 0);
    const all = await tableValue(page, 'time', 'ao5', 'current');
    check(all !== null && (all === want || Math.abs(all - want) <= 1), `after the restart the ao5 is ${all}, not ${want}`);
  });
}

// A walk of `n` single-tile moves from the goal of a rows × cols board, never straight back, chosen by a fixed
// linear congruential generator from `seed`: {cells (the board it ends on), tiles (the tiles it moved, in order)}.
function walk(rows, cols, n, seed) {
  const cells = Array.from({ length: rows * cols }, (_, i) => (i === rows * cols - 1 ? 0 : i + 1));
  const tiles = [];
  let s = seed >>> 0, prev = -1;
  while (tiles.length < n) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const g = cells.indexOf(0), r = Math.floor(g / cols), c = g % cols;
    const next = [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]
      .filter(([rr, cc]) => rr >= 0 && rr < rows && cc >= 0 && cc < cols)
      .map(([rr, cc]) => rr * cols + cc)
      .filter((p) => p !== prev);
    const p = next[s % next.length];
    tiles.push(cells[p]);
    cells[g] = cells[p];
    cells[p] = 0;
    prev = g;
  }
  return { cells, tiles };
}

// The sum over tiles of their row and column distances to their goal cells (a lower bound in single-tile moves).
function manhattan(cells, cols) {
  return cells.reduce((d, v, i) => (v === 0 ? d
    : d + Math.abs(Math.floor((v - 1) / cols) - Math.floor(i / cols)) + Math.abs(((v - 1) % cols) - (i % cols))), 0);
}

// Moves made in the multi-tile metric by playing `tiles` from `cells`: runs of single-tile moves the same way.
function mtmMoves(cells, cols, tiles) {
  const b = cells.slice();
  let n = 0, last = null;
  for (const t of tiles) {
    const g = b.indexOf(0), i = b.indexOf(t), way = i - g;
    if (way !== last) n++;
    last = way;
    b[g] = t;
    b[i] = 0;
  }
  return n;
}

// The server's node budget per search in budgetSteps: deterministic (unlike a time budget), small enough that the
// 5 × 5 board below is neither solved optimally nor analysed, large enough that its solve is a weighted search with
// a proven factor.
const BUDGET_NODES = 20000;

// 5 × 5 checks on a second server (SLIDE_BIN) with a small node budget, in a tab of their own: a solve the player
// finishes whose analysis the budget stops (503) still says its length, its MTM count, the proven lower bound and
// "at most N over"; stepping through the server's solution not proven shortest, the "Best found" line counts down
// soundly (its lower bound never below the board's Manhattan distance nor 0, its factor never above 5).
export async function budgetSteps({ page, step, check }) {
  const bin = process.env.SLIDE_BIN;
  check(bin, 'SLIDE_BIN is not set (scripts/e2e.sh sets it)');
  // A board 60 moves from the goal by a seeded walk; the player solves it by undoing the walk.
  const w = walk(5, 5, 60, 7);
  const text = [0, 5, 10, 15, 20].map((i) => w.cells.slice(i, i + 5).join(' ')).join('/');
  const back = w.tiles.slice().reverse();
  let tab = null;
  const errors = [];
  const load = async (t) => {
    await tab.fill('#board-input', t);
    await tab.click('#load');
    await tab.waitForFunction((x) => document.querySelector('#board').dataset.board === x, t.split('/').join(' / '));
    await tab.waitForSelector('#remaining[data-state="budget"]');
  };
  // Clicks `what` (a tile next to the gap, or Step) and waits for the move it makes.
  const oneMove = async (what) => {
    const n = Number(await tab.textContent('#move-count'));
    await tab.click(what);
    await tab.waitForFunction((k) => Number(document.querySelector('#move-count').textContent) === k + 1, n);
  };

  await step(`a second server: 5x5 under a budget of ${BUDGET_NODES} nodes a search`, async () => {
    const { url } = await startServer(bin, ['--no-large-builds', '--max-nodes', String(BUDGET_NODES), '--timeout', '60']);
    tab = await page.context().newPage();
    tab.setDefaultTimeout(10_000);
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(url, { waitUntil: 'domcontentloaded' });
    await tab.waitForSelector('#board [data-tile="0"]', { state: 'attached' });
  });

  await step('5x5: a solve whose analysis the budget stops says its length, MTM count and "at most N over"', async () => {
    await load(text);
    const best = (await tab.textContent('#remaining')).trim();
    const m = /^Best found: \d+ moves, .*; at least (\d+) are needed$/.exec(best);
    check(m, `the start board's line reads "${best}"`);
    const bound = Number(m[1]);
    check(bound >= manhattan(w.cells, 5) && bound < back.length, `the lower bound ${bound} of "${best}" is out of range`);
    const analysed = tab.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/analyse'), { timeout: 60_000 });
    analysed.catch(() => {}); // awaited below; a step that fails first must not leave it unhandled
    for (const tile of back) await oneMove(`#board [data-tile="${tile}"]`);
    check((await board(tab)).solved, 'undoing the walk did not solve the board');
    const res = await analysed;
    check(res.status() === 503, `POST /api/analyse answered ${res.status()}, not 503 (the budget did not stop it)`);
    await tab.waitForSelector('#analysis[data-state="partial"]', { timeout: 60_000 });
    const said = (await tab.textContent('#analysis-summary')).trim();
    const mtm = mtmMoves(w.cells, 5, back);
    for (const want of [
      'No move-by-move analysis within the server\'s budget (the analysis did not finish within the server\'s budget',
      `You took ${back.length} moves (${mtm} in MTM).`,
      `The optimum is at least ${bound} moves, so this is at most ${back.length - bound} moves over.`,
    ]) check(said.includes(want), `the summary "${said}" lacks "${want}"`);
    check(!/Optimal solve|No mistakes|could not be analysed/.test(said), `the summary claims too much: "${said}"`);
  });

  await step('5x5: stepping through a solution not proven shortest, "Best found" counts down soundly', async () => {
    await load(text);
    let left = null, total = null, proven = false, steps = 0;
    for (;;) {
      const [b, line] = await Promise.all([board(tab), tab.textContent('#remaining').then((t) => t.trim())]);
      check(!/at least 0 /.test(line), `after ${steps} steps the line reads "${line}"`);
      if (b.solved) break;
      const opt = /^Optimal: (\d+) moves? left$/.exec(line);
      const best = /^Best found: (\d+) moves?, at most ([\d.]+) × the optimum; at least (\d+) (?:is|are) needed$/.exec(line);
      check(opt || best, `after ${steps} steps the line reads "${line}"`);
      check(steps > 0 || best, `the start board's solution is proven shortest: "${line}"`);
      const n = Number((opt || best)[1]);
      check(left === null || n === left - 1, `after ${steps} steps ${n} moves are left, not ${left - 1}: "${line}"`);
      left = n;
      if (total === null) total = n;
      if (opt) proven = true;
      else {
        check(!proven, `after ${steps} steps a rest proven shortest is no longer: "${line}"`);
        const factor = Number(best[2]), bound = Number(best[3]), h = manhattan(b.cells, 5);
        check(bound >= Math.max(1, h) && bound < n, `after ${steps} steps the lower bound ${bound} is out of range (Manhattan ${h}): "${line}"`);
        check(factor >= n / bound - 1e-9 && factor < 5, `after ${steps} steps the factor ${factor} is not sound and below 5: "${line}"`);
      }
      await oneMove('#step');
      steps++;
    }
    check(total !== null && total > back.length, `the server's solution (${total} moves) is not longer than the walk (${back.length})`);
    check(steps === total, `the solution of ${total} moves took ${steps} steps`);
    check(proven, 'the rest was never proven shortest before the goal');
    check(errors.length === 0, `JavaScript errors on the page: ${errors.join('; ')}`);
    await tab.close();
  });
}
