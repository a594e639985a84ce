// End-to-end tests of the web recorder: Playwright driving Debian's
// Chromium against a real `tabletape serve` on a fresh store. Each seat
// has its own browser context (its own phone); the owner's is the table's
// laptop. Screenshots at phone and laptop size land in ./artifacts.
//
//   node tests/browser/run.mjs        (after `cargo build -p tabletape-cli`)
//
// TABLETAPE_BIN names the binary (default: target/debug/tabletape).

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const bin = process.env.TABLETAPE_BIN || join(root, 'target/debug/tabletape');
const artifacts = join(here, 'artifacts');
mkdirSync(artifacts, { recursive: true });

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const LAPTOP = { viewport: { width: 1280, height: 860 } };

let server = null;
let serverLog = '';
let base = '';
let port = 0;
let store = '';
let browser = null;
const tokensSeen = new Set();

function freePort() {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => ok(p));
    });
  });
}

// Starts `tabletape serve` on the store and waits until it listens.
async function startServer() {
  server = spawn(bin, ['serve', '--store', store, '--addr', `127.0.0.1:${port}`], {
    // Request-level tracing on: the test then checks no token reached the log.
    env: { ...process.env, RUST_LOG: 'debug,sled=info,hyper=info,h2=info' },
  });
  const from = serverLog.length; // this run's own lines, not an earlier run's
  const seen = new Promise((ok, fail) => {
    const onData = (d) => {
      serverLog += d.toString();
      if (serverLog.slice(from).includes('listening on')) ok();
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => fail(new Error('serve exited ' + code + '\n' + serverLog)));
  });
  await seen;
}

async function stopServer() {
  if (!server) return;
  const gone = new Promise((ok) => server.once('exit', ok));
  server.kill('SIGTERM');
  await gone;
  server = null;
}

async function api(method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

async function newGame(body) {
  const g = await api('POST', '/games', body);
  tokensSeen.add(g.owner_token);
  g.seats.forEach((s) => tokensSeen.add(s.token));
  return g;
}

async function context(size) {
  const ctx = await browser.newContext(size);
  ctx.setDefaultTimeout(8000);
  ctx.on('page', (p) => p.on('pageerror', (e) => { throw e; }));
  await ctx.addInitScript(countTaps);
  return ctx;
}

// In every page: the taps on the actions (a button, then what its form
// asks) that each action the page records took, in `window.taps`. A tap on
// the board is not counted: it only narrows the list, where the button is
// without it.
function countTaps() {
  let since = 0;
  window.taps = [];
  document.addEventListener('click', (e) => {
    if (e.isTrusted && e.target.closest && e.target.closest('#legal, #form')) since++;
  }, true);
  const send = window.fetch;
  window.fetch = async (url, init) => {
    const res = await send(url, init);
    if (res.ok && (init || {}).method === 'POST' && /\/games\/[^/]+\/actions$/.test(String(url))) {
      window.taps.push(since);
      since = 0;
    }
    return res;
  };
}

// No action recorded from these pages took more than two taps.
async function atMostTwoTaps(pages, flow) {
  const taps = (await Promise.all(pages.map((p) => p.evaluate(() => window.taps)))).flat();
  assert.ok(taps.length > 0, `${flow}: no action was recorded by tapping`);
  assert.ok(taps.every((n) => n <= 2), `${flow}: taps per action ${JSON.stringify(taps)}`);
  return taps;
}

// Waits until a page's live stream is open. The first connection of a new
// page may wait on a slow machine; a page that never goes live says why.
async function live(page, timeout = 20000) {
  await page.waitForSelector('#live.on', { timeout }).catch(async (e) => {
    const text = async (sel) => (await page.$(sel)) ? (await page.textContent(sel)).trim() : '(none)';
    throw new Error(`${e.message}\nlive: ${await text('#live')} · outcome: ${await text('#outcome')} · errors: ${(page.errors || []).join('; ')}\nserver log tail:\n${serverLog.slice(-3000)}`);
  });
}

// A page as one seat (or the owner) sees it, opened through its join link.
async function open(ctx, game, token) {
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.errors = errors;
  await page.goto(`${base}/g/${game}${token ? '#t=' + token : ''}`);
  await live(page);
  return page;
}

const shot = (page, name) => page.screenshot({ path: join(artifacts, name + '.png'), fullPage: true });

async function seq(page) {
  return Number(await page.getAttribute('#table', 'data-seq'));
}

// What a page shows, for a failure message: where it is and what it offers.
async function explain(page) {
  return page.evaluate(() => {
    const t = document.querySelector('#table');
    const text = (sel) => (document.querySelector(sel) || { textContent: '' }).textContent.trim();
    return `seq ${t.dataset.seq} head ${t.dataset.head} · ${text('#waiting')} · offers: ${text('#legal')} · outcome: ${text('#outcome')} · newest told: ${text('#told li:first-child')}`;
  });
}

// Waits until the page's outcome line says `words`; when it never does,
// says what the page and the server showed instead (a loaded machine runs
// three test passes at once, so the wait is generous).
async function outcome(page, words, timeout = 15000) {
  await page.waitForFunction((w) => document.querySelector('#outcome').textContent.includes(w), words, { timeout })
    .catch(async (e) => { throw new Error(`${e.message}: ${await explain(page)}\nserver log tail:\n${serverLog.slice(-3000)}`); });
}

// Taps a line that asks for words and waits for its form; when the form
// never comes, says what the page showed.
async function openForm(page, line) {
  await page.click(line);
  await page.waitForSelector('form.needs', { timeout: 10000 })
    .catch(async (e) => { throw new Error(`${e.message}: ${await explain(page)}`); });
}

// Every seat's page adds its own share to the dice when it opens, before
// the first action; this waits until the dice are made on every page.
async function diceMade(pages) {
  for (const p of pages) {
    await p.waitForFunction(() => document.querySelector('#dice').textContent.includes('made by every seat'),
      null, { timeout: 10000 }).catch(async (e) => { throw new Error(`${e.message}: ${await explain(p)} · dice: ${await p.textContent('#dice')}`); });
  }
}

// Waits until the page shows seq `n` at its head; when it never does, says
// what the page showed instead (a refusal, say).
async function atSeq(page, n) {
  await page.waitForFunction((want) => Number(document.querySelector('#table').dataset.head) === want, n, { timeout: 5000 })
    .catch(async (e) => { throw new Error(`${e.message}: ${await explain(page)}`); });
}

before(async () => {
  store = mkdtempSync(join(tmpdir(), 'tabletape-browser-'));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await startServer();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
  });
});

// Each test's pages are closed when it ends: a page left open keeps its
// live stream, its timers and its renderer busy through every later test.
afterEach(async () => {
  await Promise.all(browser.contexts().map((c) => c.close()));
});

after(async () => {
  if (browser) await browser.close();
  await stopServer();
  rmSync(store, { recursive: true, force: true });
});

test('a game is started from the page and each seat joins from its own phone', async () => {
  const laptop = await context(LAPTOP);
  const owner = await laptop.newPage();
  await owner.goto(base + '/');
  await owner.selectOption('#kind', 'ludovia');
  assert.ok(await owner.isVisible('fieldset.options[data-kind="ludovia"]'));
  assert.ok(!(await owner.isVisible('fieldset.options[data-kind="legend"]')));
  await shot(owner, 'home-laptop');
  // The layout the table laid is asked for only with the table's own dice.
  const layout = 'input[name="opt.ludovia.layout"]';
  assert.ok(!(await owner.isVisible(layout)), 'a layout asked for with Tabletape\'s dice');
  await owner.check('input[name=dice][value=physical]');
  assert.ok(await owner.isVisible(layout));
  // Values are offered as chips: tapping two block pieces lists both.
  const chips = owner.locator('fieldset.options[data-kind="ludovia"] button.chip');
  assert.ok((await chips.count()) >= 9);
  await chips.nth(0).click();
  await chips.nth(1).click();
  assert.match(await owner.inputValue(layout), /^[^,]+,[^,]+$/);
  // Back to Tabletape's dice: the layout typed is hidden, and not sent.
  await owner.check('input[name=dice][value=digital]');
  assert.ok(!(await owner.isVisible(layout)));
  await owner.fill('textarea[name=players]', 'Ada\nBo\nCy');
  await owner.click('#new-game button[type=submit]');
  await owner.waitForURL(/\/g\/g-/);
  await live(owner);
  const game = await owner.getAttribute('#table', 'data-game');
  const seats = await owner.evaluate((g) => JSON.parse(localStorage.getItem('tt:seats:' + g)), game);
  seats.forEach((s) => tokensSeen.add(s.token));
  assert.equal(seats.length, 3);
  // The join links and their QR codes.
  await owner.click('#join summary');
  await owner.click('#join li:first-child button:has-text("Show QR")');
  await owner.waitForSelector('#join .qr svg');
  await shot(owner, 'ludovia-owner-laptop');
  // A second tap puts the code away once the seat has joined.
  await owner.click('#join li:first-child button:has-text("Hide QR")');
  assert.equal(await owner.$('#join li:first-child .qr svg'), null);

  // The owner's link on another device (nothing kept there) gives the same
  // join links: the server draws them again from the owner's token.
  const elsewhere = await context(PHONE);
  const again = await open(elsewhere, game, await ownerToken(owner, game));
  await again.click('#join summary');
  const links = await again.$$eval('#join li', (items) => items.map((li) => li.textContent));
  assert.equal(links.length, 3);
  assert.match(links[2], /Cy \(seat 2\)/);
  const kept = await again.evaluate((g) => JSON.parse(localStorage.getItem('tt:seats:' + g)), game);
  assert.deepEqual(kept.map((s) => s.token), seats.map((s) => s.token));
  await elsewhere.close();

  // Back home, the device remembers the table: kind, dice and players come
  // back, and a tap on a name takes it off the list (or puts it back).
  const home = await laptop.newPage();
  await home.goto(base + '/');
  assert.equal(await home.inputValue('#kind'), 'ludovia');
  assert.equal(await home.inputValue('textarea[name=players]'), 'Ada\nBo\nCy');
  await home.click('#known-players button[data-player="Bo"]');
  assert.equal(await home.inputValue('textarea[name=players]'), 'Ada\nCy');
  assert.equal(await home.getAttribute('#known-players button[data-player="Bo"]', 'aria-pressed'), 'false');
  await home.click('#known-players button[data-player="Bo"]');
  assert.equal(await home.inputValue('textarea[name=players]'), 'Ada\nCy\nBo');
  await home.close();

  // Each seat's page shows its own hand and nobody else's.
  const hands = (await api('GET', `/games/${game}/state`, undefined, await ownerToken(owner, game))).view;
  const phones = [];
  for (const s of seats) {
    const ctx = await context(PHONE);
    const page = await open(ctx, game, s.token);
    assert.match(await page.textContent('#who'), new RegExp(`you are ${s.player}`));
    phones.push(page);
  }
  // Each phone added its share of the dice by itself: no one chose them.
  await diceMade(phones);
  const made = await api('GET', `/games/${game}`, undefined, await ownerToken(owner, game));
  assert.equal(made.dice.made_by, 'everyone');
  assert.deepEqual(made.dice.revealed, [0, 1, 2]);
  await shot(phones[0], 'ludovia-seat0-phone');
  const cardsOf = (seat) => handNames(hands, seat);
  for (let s = 0; s < 3; s++) {
    const board = await phones[s].innerHTML('#board');
    for (let other = 0; other < 3; other++) {
      for (const card of cardsOf(other)) {
        if (cardsOf(s).includes(card)) continue;
        assert.ok(!board.includes(card), `seat ${s} sees seat ${other}'s card ${card}`);
      }
    }
    for (const card of cardsOf(s)) assert.ok(board.includes(card), `seat ${s} misses its own card ${card}`);
  }

  // A Ludovia turn recorded by tapping, seen live on the other phones.
  const before = await seq(phones[0]);
  const who = (await phones[0].textContent('#waiting')).includes('Your move') ? 0
    : (await phones[1].textContent('#waiting')).includes('Your move') ? 1 : 2;
  await phones[who].click('button.choice[data-n="1"]');
  const form = await phones[who].$('form.needs');
  if (form) await phones[who].click('form.needs button[type=submit]');
  for (const p of phones) await atSeq(p, before + 1);
  await shot(phones[who], 'ludovia-turn-phone');
  await atMostTwoTaps(phones, 'Ludovia');
  for (const p of phones) assert.deepEqual(p.errors, []);
});

test('a table starts a game on its own box: a pack file chosen on the page, an error named by its place in the file', async () => {
  const page = await (await context(PHONE)).newPage();
  await page.goto(base + '/');
  await page.selectOption('#kind', 'legless');
  await page.fill('textarea[name=players]', 'Ada\nBo');
  await page.fill('input[name="opt.legless.characters"]', 'Nell Hatch,Albert Pinch');
  const nell = (start) => ({ characters: [{ name: 'Nell Hatch', role: 'flower seller', start, money: 7, health: 6, goals: [
    { at: ['slums'], kind: 'love' }, { at: ['slums', 'pawnbroker'], kind: 'property' },
    { at: ['workhouse'], cost: 6, kind: 'personal', text: 'Pay the Workhouse back.' }] }] });
  const choose = (pack) => page.setInputFiles('#pack', { name: 'our-box.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(pack)) });
  await page.click('#new-game summary:has-text("Your own box")');
  await choose(nell('z99'));
  await page.click('#new-game button[type=submit]');
  await page.waitForSelector('#created.error');
  assert.match(await page.textContent('#created'), /our-box\.json: characters\[0\]\.start: z99 is not a street square/);
  await page.$eval('#created', (e) => e.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(artifacts, 'home-own-box-phone.png') });
  await choose(nell('c5'));
  await page.click('#new-game button[type=submit]');
  await page.waitForURL(/\/g\//);
  await live(page);
  assert.match(await page.innerHTML('#board'), /Nell Hatch/);
});

// Switches the owner's page from the table screen to the owner's view.
async function asOwner(page) {
  await page.click('#views button[data-as=owner]');
  await page.waitForSelector('#views .warning');
  await page.waitForSelector('button.choice');
}

// The strings the owner's view of a state holds that the public's does
// not hold anywhere: hands, face-down cards, hidden choices.
function hiddenStrings(owner, pub) {
  const seen = JSON.stringify(pub);
  const out = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    else if (typeof v === 'string' && v.length > 3 && !seen.includes(JSON.stringify(v))) out.add(v);
  };
  walk(owner);
  return [...out];
}

// A drawing page reached as a table would, from the new-game form's
// "Your own box": its `link`'s words, and what shows once it is drawn.
async function drawingPage(link, drawn) {
  const page = await (await context(PHONE)).newPage();
  await page.goto(base + '/');
  await page.click('#new-game summary:has-text("Your own box")');
  await page.click(`a:has-text("${link}")`);
  await page.waitForSelector(drawn);
  return page;
}

// The state of the game a page just started, read with the owner's token
// the page kept.
async function startedState(page) {
  await page.waitForURL(/\/g\//);
  await live(page);
  const game = page.url().match(/\/g\/([^#?]+)/)[1];
  const token = await page.evaluate((g) => JSON.parse(localStorage.getItem('tt:token:' + g)), game);
  tokensSeen.add(token);
  return api('GET', `/games/${game}/state`, undefined, token);
}

test('a Legless board drawn by tapping a grid: saved as a pack file, a mistake named, and a game played on it', async () => {
  const page = await drawingPage('Draw a Legless in London board', '#draw .grid');
  // A Street Event symbol at c3, the ground at g7 made a street, and
  // Albert Pinch's start moved to a3.
  await page.click('#draw .tools button:text-is("Street Event symbol")');
  await page.click('#sq-c3');
  await page.click('#draw .tools button:text-is("Street")');
  await page.click('#sq-g7');
  await page.click('#draw .tools button:text-is("Albert Pinch starts here")');
  await page.click('#sq-a3');
  assert.match(await page.getAttribute('#sq-c3', 'aria-label'), /c3: street, Street Event symbol/);
  assert.match(await page.getAttribute('#sq-a3', 'aria-label'), /start of Albert Pinch/);
  // The board grows by a row and a column, and a street is laid on the new
  // corner; a column with a location on it is not taken away.
  const before = JSON.parse(await page.inputValue('#drawn-pack')).board.rows;
  await page.click('#draw .size button:text-is("Row +")');
  await page.click('#draw .size button:text-is("Column +")');
  const corner = String.fromCharCode(97 + before[0].length) + (before.length + 1);
  await page.click('#draw .tools button:text-is("Street")');
  await page.click('#sq-' + corner);
  const grown = JSON.parse(await page.inputValue('#drawn-pack')).board.rows;
  assert.equal(grown.length, before.length + 1);
  assert.equal(grown.at(-1).at(-1), '.');
  await page.click('#draw .size button:text-is("Column −")');
  await page.click('#draw .size button:text-is("Column −")');
  assert.equal(JSON.parse(await page.inputValue('#drawn-pack')).board.rows[0].length, before[0].length);
  if (before.some((row) => /[A-Z]/.test(row.at(-1)))) {
    await page.click('#draw .size button:text-is("Column −")');
    assert.match(await page.textContent('#draw .size'), /move it first/);
  }
  // The box's Church is St Giles at this table, with a property space
  // printed there too; a square more of it is laid at f7.
  await page.click('#draw .spaces summary');
  await page.fill('#location-7', 'St Giles');
  await page.click('#draw .spaces [aria-label="location 8"] button[aria-label="property space"]');
  await page.click('#draw .tools button:text-is("St Giles")');
  await page.click('#sq-f7');
  assert.match(await page.getAttribute('#sq-f7', 'aria-label'), /f7: St Giles/);
  const pack = JSON.parse(await page.inputValue('#drawn-pack'));
  assert.deepEqual(pack.locations, [{ id: 'church', name: 'St Giles', spaces: ['love', 'personal', 'property'] }]);
  assert.equal(pack.board.key[pack.board.rows[6][5]], 'church');
  assert.equal(pack.board.rows[2][2], '*');
  assert.equal(pack.board.rows[6][6], '.');
  assert.deepEqual(pack.characters.find((c) => c.name === 'Albert Pinch'), { name: 'Albert Pinch', start: 'a3' });
  assert.match(decodeURIComponent(await page.getAttribute('#save-pack', 'href')), /"start": "a3"/);
  await shot(page, 'draw-legless-phone');
  // A start on a location is a mistake the server names by its place.
  await page.click('#draw .tools button:text-is("Mabel Horne starts here")');
  await page.click('#sq-a1');
  await page.fill('textarea[name=players]', 'Ada\nBo');
  await page.fill('input[name="opt.legless.characters"]', 'Albert Pinch,Mabel Horne');
  await page.click('#new-game button[type=submit]');
  await page.waitForSelector('#created.error');
  assert.match(await page.textContent('#created'), /characters\[\d+\]\.start: a1 is not a street square/);
  await page.click('#draw .tools button:text-is("Mabel Horne starts here")');
  await page.click('#sq-c3');
  await page.click('#new-game button[type=submit]');
  const state = await startedState(page);
  const albert = state.view.londoners.find((l) => l.character === 'Albert Pinch');
  assert.equal(albert.at, 'a3', JSON.stringify(albert));
  assert.match(JSON.stringify(state.view), /St Giles/, 'the location goes by the table\'s name in play');
});

test('a Lost Worlds scenario map drawn by tapping its spaces, saved as a pack file and fought on', async () => {
  const page = await drawingPage("a Lost Worlds scenario's map", '#draw .hexes');
  await page.click('#draw button:text-is("The Well House")');
  await page.fill('#scenario-title', 'The Mill Yard');
  await page.fill('#scenario-id', 'mill-yard');
  // A wall at c2, a step up to level 1 at d3, and the first figure moved to a1.
  await page.click('#draw .tools button:text-is("Wall")');
  await page.click('#hex-c2');
  await page.click('#draw .tools button:text-is("Step up to 1")');
  await page.click('#hex-d3');
  const figure = page.locator('#draw .tools button:has-text("stands here")').first();
  const who = (await figure.textContent()).replace(' stands here', '');
  await figure.click();
  await page.click('#hex-a1');
  // A row more, the sides renamed and rescored, twelve turns at most; the
  // first row holds a figure now and is not the last, so the last goes.
  await page.click('#draw .size button:text-is("Row +")');
  await page.fill('#side-0-name', 'The Millers');
  await page.fill('#side-0-points', '30');
  await page.fill('#scenario-turns', '12');
  // The Millers now play to reach a goal space, not to carry the box there:
  // the spaces stay, b1 is tapped away and the far corner h6 added (the
  // well house is eight spaces wide).
  await page.selectOption('#side-0-goal', 'reach');
  assert.ok(await page.isHidden('#side-0-object'), 'an object is asked for only to carry one');
  await page.click('#draw .tools button:text-is("a goal space of side 1")');
  await page.click('#hex-h6');
  await page.click('#hex-b1');
  assert.doesNotMatch(await page.getAttribute('#hex-b1', 'aria-label'), /goal/);
  assert.match(await page.getAttribute('#hex-h6', 'aria-label'), /a goal of The Millers/);
  assert.match(await page.getAttribute('#hex-c2', 'aria-label'), /^W c2: wall/);
  // The figure is named with its side's new name, on the map and its tool.
  assert.equal(await page.locator('#draw .tools button[data-side="0"]').first().textContent(), who.replace(/\(.*\)/, '(The Millers)') + ' stands here');
  const renamed = who.replace(/\(.*\)/, '(The Millers)');
  assert.match(await page.getAttribute('#hex-a1', 'aria-label'), new RegExp('a1: .*' + renamed.replace(/[()]/g, '\\$&')));
  const pack = JSON.parse(await page.inputValue('#drawn-pack'));
  const drawn = pack.scenarios[0];
  assert.equal(drawn.id, 'mill-yard');
  assert.equal(drawn.map[1].split(' ')[2], 'W');
  assert.equal(drawn.map[2].split(' ')[3], '1s');
  assert.equal(drawn.sides[0].figures[0].at, 'a1');
  assert.equal(drawn.map.length, 7, 'the well house\'s six rows and one more');
  assert.equal(drawn.map[6], drawn.map[6].split(' ').map(() => '0').join(' '));
  assert.equal(drawn.sides[0].name, 'The Millers');
  assert.equal(drawn.sides[0].points, 30);
  assert.equal(drawn.turn_limit, 12);
  assert.deepEqual(drawn.sides[0].goal, { kind: 'reach', spaces: ['a1', 'h6'] });
  assert.equal(await page.inputValue('input[name="opt.lostworlds.scenario"]'), 'mill-yard');
  await shot(page, 'draw-lostworlds-phone');
  const players = drawn.sides.flatMap((s) => s.figures).map((_, i) => ['Ada', 'Bo', 'Cy', 'Dee'][i]);
  await page.fill('textarea[name=players]', players.join('\n'));
  await page.click('#new-game button[type=submit]');
  const state = await startedState(page);
  assert.equal(state.view.field.scenario.title, 'The Mill Yard');
  assert.equal(state.view.field.scenario.turn_limit, 12);
  assert.deepEqual(state.view.field.scenario.sides[0].goal, { kind: 'reach', spaces: ['a1', 'h6'] });
  assert.equal(state.view.field.pieces[0].at, 'a1');
});

test('the table screen shows what lies face up; the owner\'s view only when asked for, and marked', async () => {
  for (const [kind, players, options] of [['ludovia', ['Ada', 'Bo', 'Cy'], {}], ['dread', ['Ada', 'Bo'], { timer: 'off' }]]) {
    const g = await newGame({ kind, players, seed: 987654321, options });
    const read = (q) => api('GET', `/games/${g.game}/state${q}`, undefined, g.owner_token);
    let secrets = [];
    // The table plays (the owner recording) until something lies face down.
    for (let i = 0; i < 200; i++) {
      const owner = (await read('')).view;
      // Ludovia's cards are named face up elsewhere (the deck's faces): its
      // secrets are the cards in each thief's hand.
      secrets = kind === 'ludovia' ? players.flatMap((_, seat) => handNames(owner, seat))
        : hiddenStrings(owner, (await read('?as=public')).view);
      if (secrets.length) break;
      const legal = (await api('GET', `/games/${g.game}/legal`, undefined, g.owner_token))
        .filter((l) => !(l.needs || []).length && !l.seal);
      // A thief robs where it can, and otherwise does not idle.
      const robs = legal.filter((l) => l.action.type === 'rob');
      const busy = legal.filter((l) => l.action.type !== 'end_turn');
      const from = robs.length ? robs : busy.length ? busy : legal;
      await api('POST', `/games/${g.game}/actions`, { action: from[(i * 7) % from.length].action }, g.owner_token);
    }
    assert.ok(secrets.length > 0, `${kind} hides something once played a while`);
    secrets.push('987654321');
    const screen = await open(await context(LAPTOP), g.game, g.owner_token);
    const shown = () => screen.evaluate(() => document.querySelector('main').textContent + document.querySelector('#board').innerHTML);
    const noSecret = async (when) => {
      const page = await shown();
      for (const s of secrets) assert.ok(!page.includes(s), `${kind}: the shared screen shows ${s} ${when}: …${page.slice(Math.max(0, page.indexOf(s) - 300), page.indexOf(s) + 100)}`);
    };
    assert.match(await screen.textContent('#who'), /table screen/);
    // Once the live stream is open the page has read the table again: still face up only.
    await screen.waitForTimeout(1200);
    await noSecret('once live');
    assert.equal(await screen.$('#views .warning'), null);
    // What it shows is the public's view itself.
    const pub = await api('GET', `/games/${g.game}/table?as=public`, undefined, g.owner_token);
    const drawn = await screen.evaluate((svg) => [document.querySelector('#board svg').textContent,
      new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement.textContent], pub.svg);
    assert.equal(drawn[0], drawn[1]);
    await shot(screen, `${kind}-table-screen-laptop`);
    // The owner asks for everything: it shows, and the page says so.
    await screen.click('#views button[data-as=owner]');
    await screen.waitForSelector('#views .warning');
    const everything = await shown();
    assert.ok(secrets.some((s) => everything.includes(s)), `${kind}: the owner's view shows what is hidden`);
    // The choice is this device's until changed; the table screen is one tap back.
    await screen.reload();
    await live(screen);
    assert.equal(await screen.getAttribute('#views button[aria-pressed=true]', 'data-as'), 'owner');
    await screen.click('#views button[data-as=public]');
    await screen.waitForFunction(() => !document.querySelector('#views .warning'));
    await screen.waitForTimeout(300);
    await noSecret('after going back to the table screen');
    assert.deepEqual(screen.errors, []);
  }
});

async function ownerToken(page, game) {
  return page.evaluate((g) => JSON.parse(localStorage.getItem('tt:token:' + g)), game);
}

// The names of the cards in a seat's hand, from the owner's view of the state.
function handNames(view, seat) {
  const names = [];
  const walk = (v, inHand) => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, inHand));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, inHand || k === 'hand');
    } else if (inHand && typeof v === 'string' && v.length > 3) names.push(v);
  };
  const thieves = view.thieves || view.seats || [];
  walk(thieves[seat] || {}, false);
  return names;
}

test('two seats fight a whole Lost Worlds duel by tapping, choices sealed until both have chosen', async () => {
  const g = await newGame({ kind: 'lostworlds', players: ['Ada', 'Bo'], seed: 11 });
  const laptop = await context(LAPTOP);
  const table = await laptop.newPage();
  await table.goto(`${base}/g/${g.game}#t=${g.owner_token}`);
  await live(table);
  const phones = [];
  for (const s of g.seats) phones.push(await open(await context(PHONE), g.game, s.token));
  let exchanges = 0;
  for (; exchanges < 60; exchanges++) {
    // The fight is over when no sealed choice is offered any more.
    if (!(await phones[0].$('button.sealable'))) break;
    const head = await seq(phones[0]);
    // Seat 0 taps its first choice: only a seal reaches the server.
    const choice = await phones[0].textContent('button.sealable >> nth=0').catch(async (e) => {
      await shot(phones[0], 'debug-lw');
      throw new Error(`exchange ${exchanges}: ${e.message}\n${await phones[0].textContent('#table')}`);
    });
    const maneuver = choice.split(':')[1].split('(')[0].trim(); // "Nowa: Extended Range Charge (page 50)"
    await phones[0].click('button.sealable >> nth=0');
    await atSeq(phones[1], head + 1);
    await phones[0].waitForSelector('.sealed').catch(async (e) => {
      throw new Error(e.message + '\noutcome: ' + (await phones[0].textContent('#outcome')));
    });
    for (const [who, page] of [['Bo', phones[1]], ['the table', table]]) {
      await atSeq(page, head + 1);
      const newest = await page.textContent('#told li:first-child');
      assert.ok(!newest.includes(maneuver), `${who} reads "${newest}" and learns ${maneuver}`);
    }
    if (exchanges === 0) {
      // Bo cannot take back what Ada recorded; Ada can. The table screen,
      // though the owner's, records nothing: it offers no take-back.
      assert.equal(await phones[1].$('#undo'), null);
      assert.ok(await phones[0].$('#undo'));
      assert.equal(await table.$('#undo'), null, 'the table screen offers a take-back');
      await shot(phones[1], 'lostworlds-bo-waiting-phone');
      await shot(phones[0], 'lostworlds-ada-sealed-phone');
    }
    // Seat 1 chooses; both pages reveal by themselves and the exchange resolves.
    await phones[1].click('button.sealable >> nth=0');
    await phones[0].waitForFunction((h) => Number(document.querySelector('#table').dataset.head) >= h + 4, head, { timeout: 8000 });
    await phones[1].waitForFunction((h) => Number(document.querySelector('#table').dataset.head) >= h + 4, head, { timeout: 8000 });
    // The last entry is a reveal, which showed what was sealed: no phone
    // offers to take it back (the server would refuse).
    for (const [s, p] of phones.entries()) {
      assert.equal((await api('GET', `/games/${g.game}/table`, undefined, g.seats[s].token)).take_back, false);
      assert.equal(await p.$('#undo'), null, `seat ${s} is offered a take-back of a reveal`);
    }
  }
  assert.ok(exchanges > 1 && exchanges < 60, `the duel ended after ${exchanges} exchanges`);
  // After the fight the journal is closed once, by either fighter; the
  // other phone and the table see the game end by themselves.
  const closer = phones[exchanges % 2];
  await closer.locator('button.choice', { hasText: /Close the journal/ }).first().click({ timeout: 8000 }).catch(async (e) => {
    throw new Error(`${e.message}\nthe phone shows: ${await explain(closer)}`);
  });
  for (const p of phones) await p.waitForFunction(() => document.querySelector('#waiting').textContent.includes('over'));
  await table.waitForFunction(() => document.querySelector('#waiting').textContent.includes('over'));
  // The end, on the first screen of every device: who won, how the story
  // opens, the play for BG Stats; only the owner is offered a rematch.
  for (const p of [...phones, table]) {
    await p.waitForSelector('#result h2');
    assert.match(await p.textContent('#result h2'), /^(\w+ wins|.+ share the win|Nobody wins)\.$/);
    assert.ok(await p.$eval('#result', (r) => r.getBoundingClientRect().top < innerHeight), 'the result is on the first screen');
    assert.ok(await p.$('#result blockquote p'), 'the story opens on the result screen');
    assert.ok(await p.$('#result a[href*="format=bgstats"]'));
  }
  for (const p of phones) assert.equal(await p.$('#rematch'), null, 'a seat is offered a rematch');
  await atMostTwoTaps(phones, 'a Lost Worlds duel');
  assert.ok(await table.$('#rematch'));
  await shot(phones[0], 'lostworlds-over-phone');
  await shot(table, 'lostworlds-over-laptop');
  await table.click('#tools a:has-text("Verify")');
  await table.waitForFunction(() => document.querySelector('#outcome').textContent.startsWith('Verified'));
  // Once the game is over everyone's check is the full one, every action re-decided.
  assert.equal(await table.textContent('#outcome'),
    `Verified: ${await seq(table)} events on its one line, every hash and link checked and every action re-decided.`);
  // The story, with a board at each chapter, is readable at once.
  await table.click('a:has-text("The story")');
  await table.waitForSelector('.story .chapter figure svg');
  // The fight reads as prose: the books' page numbers are in the chapter's
  // record, folded under it until opened.
  const prose = () => table.$eval('.story details.chapter[open]', (c) => c.innerText);
  assert.doesNotMatch(await prose(), /page \d/);
  await table.click('.story details.chapter[open] details.record summary');
  assert.match(await prose(), /page \d+ of/);
  await table.click('.story details.chapter[open] details.record summary');
  await shot(table, 'lostworlds-story-laptop');
  // The owner plays again: a new game with the same players, its seats'
  // join links ready on the owner's screen.
  await table.goto(`${base}/g/${g.game}`);
  await live(table);
  // Making the new game waits on a durable write, which a loaded machine
  // (the Rust tests run beside these) can hold up past the usual 8 s.
  await table.click('#rematch');
  await table.waitForURL((u) => u.pathname.startsWith('/g/') && !u.pathname.endsWith(g.game), { timeout: 20000 });
  await live(table);
  const join = await table.textContent('#join');
  assert.ok(join.includes('Ada') && join.includes('Bo'), join);
  assert.match(await table.textContent('h1'), /Ada, Bo/);
  for (const p of phones) assert.deepEqual(p.errors, []);
});

test('a choice sealed on one phone is revealed from another holding the same link, and the wait names whom', async () => {
  const g = await newGame({ kind: 'lostworlds', players: ['Ada', 'Bo'], seed: 5 });
  const first = await context(PHONE);
  const ada = await open(first, g.game, g.seats[0].token);
  const bo = await open(await context(PHONE), g.game, g.seats[1].token);
  const head = await seq(ada);
  const choice = await ada.textContent('button.sealable >> nth=0');
  const maneuver = choice.split(':')[1].split('(')[0].trim(); // "Nowa: Extended Range Charge (page 50)"
  await ada.click('button.sealable >> nth=0');
  await ada.waitForSelector('.sealed');
  await atSeq(bo, head + 1);
  // Ada's phone is gone, with the salt it kept.
  await first.close();
  await bo.click('button.sealable >> nth=0');
  // Bo's page reveals Bo's choice; the game then waits on Ada alone, by name.
  await atSeq(bo, head + 3);
  await bo.waitForFunction(() => /Waiting for Ada\b/.test(document.querySelector('#waiting').textContent));
  // Bo's seal is broken: the page no longer says it is sealed.
  await bo.waitForSelector('.sealed', { state: 'detached' });
  assert.doesNotMatch(await bo.textContent('#waiting'), /Bo/);
  await shot(bo, 'lostworlds-waiting-for-a-reveal-phone');
  // Ada opens her link on another phone: it finds the seal's salt from
  // the link alone and reveals the choice; the exchange resolves.
  const again = await open(await context(PHONE), g.game, g.seats[0].token);
  await bo.waitForFunction((h) => Number(document.querySelector('#table').dataset.head) >= h + 4, head)
    .catch(async (e) => { throw new Error(`${e.message}: ${await explain(again)}`); });
  const told = await bo.textContent('#told');
  assert.ok(told.includes(maneuver), `the exchange names Ada's ${maneuver}: ${told.slice(0, 400)}`);
  assert.equal(await again.$('form.needs'), null, 'no one is asked for a salt');
  assert.deepEqual(again.errors, []);
  assert.deepEqual(bo.errors, []);
});

// axe-core's rules, run in the page itself: what a screen reader or a
// keyboard would trip over, and text too faint to read.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function axeProblems(page) {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
  return found;
}

test('axe-core finds no serious or critical issue on any page, in every kind, phone and table screen', async () => {
  const checked = [];
  const check = async (page, what) => {
    const found = await axeProblems(page);
    assert.deepEqual(found, [], `${what}: ${found.join('; ')}`);
    checked.push(what);
  };
  for (const kind of ['legend', 'ludovia', 'dread', 'lostworlds', 'legless']) {
    const g = await newGame({ kind, players: kind === 'lostworlds' ? ['Ada', 'Bo'] : ['Ada', 'Bo', 'Cy'], seed: 3 });
    // A few moves in, so the story and what happened are not empty.
    for (let i = 0; i < 4; i++) {
      const legal = await api('GET', `/games/${g.game}/legal`, undefined, g.owner_token);
      const ready = legal.find((l) => !(l.needs || []).length);
      if (ready) await api('POST', `/games/${g.game}/actions`, { action: ready.action }, g.owner_token);
    }
    // (The page's own policy allows no injected script; axe is the test's.)
    const phone = await (await browser.newContext({ ...PHONE, bypassCSP: true })).newPage();
    await phone.goto(`${base}/g/${g.game}#t=${g.seats[0].token}`);
    await live(phone);
    await check(phone, `${kind} on a seat's phone`);
    const laptop = await (await browser.newContext({ ...LAPTOP, bypassCSP: true })).newPage();
    await laptop.goto(`${base}/g/${g.game}#t=${g.owner_token}`);
    await live(laptop);
    await check(laptop, `${kind} on the table screen`);
    await laptop.goto(`${base}/g/${g.game}/story`);
    await check(laptop, `${kind}'s story`);
  }
  const home = await (await browser.newContext({ ...PHONE, bypassCSP: true })).newPage();
  await home.goto(base + '/');
  await check(home, 'the home page');
  for (const drawing of ['legless', 'lostworlds']) {
    await home.goto(`${base}/draw/${drawing}`);
    await home.waitForSelector('#draw button');
    await check(home, `the ${drawing} drawing page`);
  }
  assert.equal(checked.length, 18);
});

test('a LEGEND turn: a square tapped on the map, scenery and an explanation typed in', async () => {
  const g = await newGame({ kind: 'legend', players: ['Ada', 'Bo', 'Cy'], seed: 3 });
  const phones = [];
  for (const s of g.seats) phones.push(await open(await context(PHONE), g.game, s.token));
  await diceMade(phones);
  const start = await seq(phones[0]);
  // Each player introduces their Avatar, Talisman and Symbol in their own
  // words, all three typing at once. Ada claims the corner Bo's line had
  // by default, which changes what Bo is offered: Bo's form must survive.
  for (let s = 0; s < 3; s++) {
    const page = phones[s];
    await page.waitForFunction(() => document.querySelector('#waiting').textContent.includes('Your move'));
    await openForm(page, 'button.choice[data-n="1"]');
    const inputs = await page.$$('form.needs input, form.needs textarea:not([name=corner])');
    for (const [i, input] of inputs.entries()) await input.fill(`${['Ada', 'Bo', 'Cy'][s]}'s thing ${i}`);
  }
  for (let s = 0; s < 3; s++) {
    const page = phones[s];
    // Each claims a Corner of their choosing (the form offers it, optional).
    await page.fill('form.needs textarea[name=corner]', ['ne', 'sw', 'se'][s]);
    await page.click('form.needs button[type=submit]');
    await atSeq(page, start + 1 + s);
    // The next phone has heard of it, and still holds what its player typed.
    if (s < 2) {
      await atSeq(phones[s + 1], start + 1 + s);
      assert.equal(await phones[s + 1].inputValue('form.needs #need-0'), `${['Ada', 'Bo', 'Cy'][s + 1]}'s thing 0`);
    }
  }
  const ada = phones[0];
  await atSeq(ada, start + 3);
  // Tap square c3 on the map: only what involves c3 is offered. (A spot is
  // a target once the list offers something there: a tap before, while
  // the page still asks what may follow the new head, narrows nothing.)
  await ada.click('#board #sq-c3.target');
  await ada.waitForSelector('.filter');
  const offered = await ada.$$eval('button.choice', (bs) => bs.map((b) => b.textContent));
  assert.ok(offered.length > 0 && offered.every((t) => t.includes('c3')), offered.join(' | '));
  await shot(ada, 'legend-tap-square-phone');
  await ada.click('button.choice >> nth=0');
  await ada.waitForSelector('form.needs');
  const fields = await ada.$$('form.needs input');
  for (const [i, f] of fields.entries()) await f.fill(i === 0 ? 'a rusty key' : 'a fog-bound quay');
  await ada.fill('form.needs textarea', 'The key was lying on the quay, where the fog rolls in.');
  await shot(ada, 'legend-form-phone');
  await ada.click('form.needs button[type=submit]');
  await atSeq(phones[1], start + 4);
  const told = await phones[1].textContent('#told');
  assert.match(told, /rusty key/);
  assert.match(told, /fog rolls in/);
  await shot(phones[1], 'legend-after-turn-phone');
  await atMostTwoTaps(phones, 'LEGEND');
  for (const p of phones) assert.deepEqual(p.errors, []);
});

test('on a phone, what to record comes first, and whose move it is stays in sight', async () => {
  for (const kind of ['ludovia', 'dread', 'lostworlds']) {
    const g = await newGame({ kind, players: ['Ada', 'Bo', 'Cy'].slice(0, kind === 'lostworlds' ? 2 : 3), seed: 5 });
    const phones = [];
    for (const s of g.seats) phones.push(await open(await context(PHONE), g.game, s.token));
    if (kind !== 'lostworlds') {
      await diceMade(phones); // (a duel draws nothing)
      // Only shares of the dice so far: no seat has an action to take back.
      for (const p of phones) assert.equal(await p.$('#undo'), null, `${kind}: a share of the dice offered for taking back`);
    }
    let mover = null;
    for (const p of phones) {
      await p.waitForFunction(() => document.querySelector('#waiting').textContent.trim() !== '');
      if ((await p.textContent('#waiting')).includes('Your move')) { mover = p; break; }
    }
    assert.ok(mover, `${kind}: someone has the move`);
    // A seat is told whom it plays, where the box gives it someone to play.
    if (kind !== 'ludovia') assert.match(await mover.textContent('#who'), /^you are \w+ \(seat \d\), playing \S/);
    // The first action is on the first screen, above the board.
    const first = await mover.$eval('#legal button.choice, #legal summary', (b) => {
      const r = b.getBoundingClientRect();
      return { bottom: r.bottom, board: document.querySelector('#board').getBoundingClientRect().top, screen: innerHeight };
    });
    assert.ok(first.bottom <= first.screen, `${kind}: the first action ends at ${first.bottom} on a ${first.screen}-pixel screen`);
    assert.ok(first.bottom <= first.board, `${kind}: the actions come before the board`);
    await shot(mover, `${kind}-first-screen-phone`);
    // Scrolled down to the story, the page still says whose move it is,
    // and the timeline sits right under the board it moves.
    await mover.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const seen = await mover.$eval('#waiting', (w) => {
      const r = w.getBoundingClientRect();
      const board = document.querySelector('#board').getBoundingClientRect();
      const timeline = document.querySelector('#timeline').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, screen: innerHeight, gap: timeline.top - board.bottom };
    });
    assert.ok(seen.top >= 0 && seen.bottom <= seen.screen, `${kind}: "Your move" off screen after a scroll (${seen.top}-${seen.bottom})`);
    assert.ok(seen.gap >= 0 && seen.gap < 40, `${kind}: the timeline is ${seen.gap} pixels below the board`);
    // "Back to now" is offered only while looking at the past.
    if (await mover.$('#seq')) {
      assert.equal(await mover.isVisible('#back-to-now'), false, `${kind}: "Back to now" at the head`);
      await mover.fill('#seq', '1');
      await mover.waitForSelector('#back-to-now', { state: 'visible' });
      await mover.click('#back-to-now');
      await mover.waitForSelector('#back-to-now', { state: 'hidden' });
    }
    for (const p of phones) assert.deepEqual(p.errors, []);
  }
});

// The board as a thumb and an eye meet it at 390 pixels wide: no label
// under 11 pixels (the board zooms and scrolls sideways where it cannot
// fit), every place a tap narrows the list to at least 24 by 24 and a
// button the keyboard reaches, named in words, and Enter on it does what a
// tap does.
async function boardMeasures(page) {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll('#board text')].filter((t) => t.textContent.trim())
      .map((t) => ({ size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a, text: t.textContent.trim() }));
    const targets = [...document.querySelectorAll('#board .target')].map((n) => {
      const r = n.getBoundingClientRect();
      return { id: n.id, w: r.width, h: r.height, role: n.getAttribute('role'), tab: n.getAttribute('tabindex'), name: n.getAttribute('aria-label') || '' };
    });
    return { labels, targets, svgRole: document.querySelector('#board svg').getAttribute('role') };
  });
}

test('every kind\'s board on a phone: labels of 11 pixels or more, targets of 24 or more that the keyboard reaches', async () => {
  const games = [
    ['ludovia', ['Ada', 'Bo', 'Cy'], {}], ['dread', ['Ada', 'Bo'], {}], ['legless', ['Ada', 'Bo'], {}],
    ['legend', ['Ada', 'Bo', 'Cy'], {}], ['lostworlds', ['Ada', 'Bo'], {}], ['lostworlds', ['Ada', 'Bo'], { scenario: 'well-house' }],
  ];
  const tapped = [];
  for (const [kind, players, options] of games) {
    const g = await newGame({ kind, players, seed: 3, options });
    const phone = await open(await context({ ...PHONE, viewport: { width: 390, height: 844 } }), g.game, g.seats[0].token);
    // The owner plays on until this seat has something to tap on the board
    // (a book duel has no map, and LEGEND opens with words to type).
    for (let i = 0; i < 40 && !(await phone.$('#board .target')); i++) {
      const ready = (await api('GET', `/games/${g.game}/legal`, undefined, g.owner_token)).find((l) => !(l.needs || []).length);
      if (!ready) break;
      const before = await seq(phone);
      await api('POST', `/games/${g.game}/actions`, { action: ready.action }, g.owner_token);
      await phone.waitForFunction((n) => Number(document.querySelector('#table').dataset.seq) > n, before);
    }
    const m = await boardMeasures(phone);
    const name = `${kind}${options.scenario ? ' ' + options.scenario : ''}`;
    assert.ok(m.labels.length > 0, `${name}: the board has labels`);
    const small = m.labels.filter((l) => l.size < 11);
    assert.deepEqual(small, [], `${name}: labels under 11 pixels`);
    // Nothing is cut off: not on this seat's board, nor on the owner's,
    // where every face-down London location is named.
    const cut = m.labels.filter((l) => l.text.endsWith('\u2026'));
    assert.deepEqual(cut, [], `${name}: labels cut off`);
    const res = await fetch(`${base}/games/${g.game}/board.svg`, { headers: { Authorization: 'Bearer ' + g.owner_token } });
    const ownerCut = (await res.text()).match(/[^>]*\u2026<\/text>/g);
    assert.equal(ownerCut, null, `${name}: the owner's board cuts off ${ownerCut}`);
    const tiny = m.targets.filter((t) => t.w < 24 || t.h < 24);
    assert.deepEqual(tiny, [], `${name}: targets under 24 pixels`);
    for (const t of m.targets) {
      assert.ok(t.role === 'button' && t.tab === '0' && t.name && !/[{}<]/.test(t.name), `${name}: target ${t.id} is ${JSON.stringify(t)}`);
    }
    if (m.targets.length) {
      assert.equal(m.svgRole, 'group', `${name}: a board with targets is not an image`);
      // Enter on the first target narrows the list to what it names.
      await phone.focus(`#board #${m.targets[0].id}`);
      await phone.keyboard.press('Enter');
      await phone.waitForSelector('#legal p.filter');
      const first = await phone.textContent('#legal button.choice');
      const offer = m.targets[0].name.replace(/, and \d+ more$/, '');
      assert.ok(offer.endsWith(first.replace(/^\d+/, '').replace(/ …$/, '').trim()), `${name}: Enter on ${m.targets[0].name} offers ${first}`);
      tapped.push(kind);
    }
    await shot(phone, `${name.replace(' ', '-')}-board-phone`);
    assert.deepEqual(phone.errors, []);
    await phone.context().close();
  }
  // Every kind with a map was tapped through (a book duel has none).
  assert.deepEqual([...new Set(tapped)].sort(), ['dread', 'legless', 'lostworlds', 'ludovia']);
});

test('a Legless in London turn on phones: a roll from the die pad, a location tapped on the board', async () => {
  const locations = ['cottage', 'slums', 'theatre', 'country-estate', 'workhouse', 'gin-palace', 'market',
    'church', 'docks', 'leg-store', 'factory', 'sickroom', 'music-hall', 'pawnbroker', 'club'].map((l) => l + '-1');
  const g = await newGame({
    kind: 'legless', players: ['Ada', 'Bo'], seed: 4, dice: 'physical',
    options: { banker: 1, characters: 'Lady Constance Vane,Agatha Finch', locations: locations.join(',') },
  });
  const [ada, bo] = [await open(await context(PHONE), g.game, g.seats[0].token),
    await open(await context(PHONE), g.game, g.seats[1].token)];
  await ada.waitForFunction(() => document.querySelector('#waiting').textContent.includes('Your move'));
  await shot(ada, 'legless-start-phone');
  // The roll: one choice, then the face the die shows, and it is recorded.
  // Its answer is held back a while, as on a slow connection: the live
  // stream shows the roll first, and Ada taps on at once.
  let answered = false;
  await ada.route('**/actions', async (route) => {
    const reply = await route.fetch();
    await new Promise((ok) => setTimeout(ok, 1500));
    await route.fulfill({ response: reply });
    answered = true;
  });
  await ada.click('button.choice[data-n="1"]');
  await ada.click('form.needs .picker button:text-is("2")');
  await atSeq(ada, 2);
  // Tap the Artificial Leg Store: only the walk there is offered, and the
  // roll's late answer does not take that away.
  await ada.click('#board #location-leg-store');
  await ada.waitForSelector('.filter');
  await ada.waitForFunction(() => !document.querySelector('#outcome').textContent.includes('Recording'));
  assert.ok(answered, 'the roll was answered');
  assert.ok(await ada.$('.filter'), 'the tap still narrows the list once the roll is answered');
  await ada.unroute('**/actions');
  const offered = await ada.$$eval('button.choice', (bs) => bs.map((b) => b.textContent));
  assert.ok(offered.length > 0 && offered.every((t) => t.includes('Artificial Leg Store')), offered.join(' | '));
  await ada.click('button.choice >> nth=0');
  await atSeq(bo, 3);
  assert.match(await bo.textContent('#told'), /Artificial Leg Store/);
  await shot(bo, 'legless-after-move-phone');
  await atMostTwoTaps([ada, bo], 'Legless in London');
  // Ada's money and health show on every phone's board.
  assert.match(await bo.innerHTML('#board'), /£20/);
  for (const p of [ada, bo]) assert.deepEqual(p.errors, []);
});

test('London Dread planning on phones: one countdown on every device, a card turned and a token placed by tapping', async () => {
  const g = await newGame({ kind: 'dread', players: ['Ada', 'Bo'], seed: 3 });
  const [ada, bo] = [await open(await context(PHONE), g.game, g.seats[0].token),
    await open(await context(PHONE), g.game, g.seats[1].token)];
  await diceMade([ada, bo]);
  const start = await seq(ada);
  // Big Ben: the one thing to do before planning.
  await ada.click('button.choice[data-n="1"]');
  await atSeq(bo, start + 1);
  for (const p of [ada, bo]) {
    await p.waitForSelector('#countdown:not([hidden])');
    assert.match(await p.textContent('#countdown'), /planning 1[12]:\d\d left/i);
    const size = await p.$eval('#countdown', (e) => parseFloat(getComputedStyle(e).fontSize));
    assert.ok(size >= 28, `the countdown is large on a phone (${size}px)`);
  }
  // It keeps counting on its own.
  const first = await ada.textContent('#countdown');
  await ada.waitForFunction((was) => document.querySelector('#countdown').textContent !== was, first, { timeout: 3000 });
  // Bo taps a face-down card on the board and turns it.
  await bo.click('#board #loc-north-3.target');
  await bo.waitForSelector('.filter');
  const offered = await bo.$$eval('button.choice', (bs) => bs.map((b) => b.textContent));
  assert.ok(offered.length === 1 && /Turn up the card at North 3/.test(offered[0]), offered.join(' | '));
  await bo.click('button.choice >> nth=0');
  await atSeq(ada, start + 2);
  assert.match(await ada.textContent('#told'), /North 3/);
  // Ada taps the first slot of her clock (6 a.m.): only what goes there is
  // offered, in words.
  await ada.click('#board #clock-0-1');
  await ada.waitForSelector('.filter');
  const slot = await ada.$$eval('button.choice', (bs) => bs.map((b) => b.textContent));
  assert.ok(slot.length > 1 && slot.every((t) => /'s clock at 6 a\.m\.: /.test(t)), slot.join(' | '));
  await ada.click('button.choice:has-text("number 4") >> nth=0');
  await atSeq(bo, start + 3);
  assert.match(await bo.innerHTML('#board #clock-0-1'), />4</);
  // A seat plans only its own character's clock: another's is no target.
  assert.equal(await bo.$('#board #clock-0-2.target'), null);
  assert.ok(await bo.$('#board #clock-1-2.target'));
  // Beginning the story cuts planning short for the team: the page asks
  // first, and a "no" records nothing.
  const planned = await seq(bo);
  const asked = [];
  bo.once('dialog', (d) => { asked.push(d.message()); d.dismiss(); });
  await bo.click('button.choice:has-text("the story begins") >> nth=0');
  await bo.waitForTimeout(300);
  assert.match(asked.join(''), /Planning ends for the whole team/);
  assert.equal(await seq(bo), planned);
  await atMostTwoTaps([ada, bo], 'London Dread planning');
  await shot(ada, 'dread-planning-phone');
  await ada.evaluate(() => window.scrollTo(0, 0));
  await ada.screenshot({ path: join(artifacts, 'dread-planning-phone-top.png') });
  for (const p of [ada, bo]) assert.deepEqual(p.errors, []);
});

test('London Dread with the table\'s own cards: the deal and a card turned up are picked on the page', async () => {
  const g = await newGame({
    kind: 'dread', players: ['Ada', 'Bo'], seed: 8, dice: 'physical',
    options: { characters: 'Ada Lockwood,Silas Crane' },
  });
  const table = await open(await context(PHONE), g.game, g.owner_token);
  // Recording the table's own deal takes the owner's view, asked for by name.
  await asOwner(table);
  await table.click('button.choice[data-n="1"]');
  await table.waitForSelector('form.needs .picker');
  // Two starting Items, the Supply's three, three Confidence cards.
  for (const card of ['Lockpicks', 'Crowbar', 'Bandages', 'Rosary', 'Pocket Watch', 'Hope', 'Cold Logic', 'Steady Nerves']) {
    await table.click(`form.needs .picker button:text-is("${card}")`);
  }
  await table.click('form.needs button[type=submit]');
  await atSeq(table, 2);
  // Under load the board of seq 2 can be up before its list: a tap then
  // narrows nothing. Tap once the list offers the place.
  await table.waitForSelector('button.choice:has-text("South 4")');
  await table.click('#board #loc-south-4.target');
  await table.waitForSelector('.filter');
  const offered = await table.$$eval('button.choice', (bs) => bs.map((b) => b.textContent));
  assert.ok(offered.length > 0 && offered.every((t) => t.includes('South 4')), offered.join(' | '));
  await table.click('button.choice >> nth=0');
  // One card, nothing else to ask: the tap that picks it records it.
  await table.click('form.needs .picker button:text-is("placeholder")');
  await atSeq(table, 3);
  assert.match(await table.textContent('#told'), /South 4 the trail surfaces: Plot A/);
  assert.deepEqual(table.errors, []);
});

test('London Dread in record mode: a table with its own box types each card on the page as it comes', async () => {
  const g = await newGame({
    kind: 'dread', players: ['Ada', 'Bo'], seed: 4, dice: 'physical',
    options: {
      record: 'on', timer: 'off', story: "The Tailor's Ledger", plots: '4,5', characters: 'Mabel Finch,Ivo Marsh',
      sheets: [{ icons: ['strength', 'lore'], virtue: { successes: 1 } }, { icons: ['charm', 'guile'], virtue: { rerolls: 2 } }],
      antagonist: { name: 'The Lamplighter', text: 'Each Dread card left face up costs one more dread.', extra_successes: 1 },
    },
  });
  // (CSP bypassed for axe-core, which checks the card form below.)
  const table = await open(await context({ ...PHONE, bypassCSP: true }), g.game, g.owner_token);
  await asOwner(table);
  await table.click('button.choice[data-n="1"]');
  // Nothing is known yet: the deal is typed whole, two starting Items,
  // the Supply's three and three Confidence cards, in one field.
  const item = (name, use) => JSON.stringify({ item: { name, use, deplete: { successes: 1 } } });
  const drew = [
    item('Brass Lantern', { icons: ['lore'] }), item('Tin Whistle', { rerolls: 1 }),
    item('Hip Flask', { text: 'Each investigator here may flip again.' }), item('Street Map', { icons: ['guile'] }),
    item('Pawn Ticket', { confidence: 1 }),
    ...['Steady Nerves', 'Old Friend', 'A Second Wind'].map((name) => JSON.stringify({ confidence: { name, icons: ['courage'] } })),
  ].join(', ');
  await table.fill('form.needs [name="outcomes.drew"]', drew);
  await table.click('form.needs button[type=submit]');
  await atSeq(table, 2);
  assert.match(await table.textContent('#told'), /Mabel Finch takes Brass Lantern/);
  // A card turned up on the board, typed by tapping: the form the shape
  // `legal` gives builds the card and writes it into the field.
  await table.click('button.choice:has-text("Turn up the card at North 1")');
  await table.click('form.needs .typed button:has-text("New Dread card")');
  const card = table.locator('.card-form');
  await card.getByLabel('Name', { exact: true }).fill('The Ratcatcher');
  await card.getByLabel('Tier', { exact: true }).fill('1');
  await card.locator('button.chip:has-text("strength")').click();
  await card.locator('button.chip:has-text("guile")').click();
  await card.getByLabel('Difficulty', { exact: true }).fill('2');
  // A field left empty is asked for, and nothing is written yet.
  await card.locator('button:has-text("Add the Dread card")').click();
  assert.match(await card.locator('.error').textContent(), /Dread is needed/);
  await card.getByLabel('Dread', { exact: true }).fill('1');
  await shot(table, 'dread-record-mode-card-form-phone');
  assert.deepEqual(await axeProblems(table), [], 'the card form reads to a screen reader');
  await card.locator('button:has-text("Add the Dread card")').click();
  assert.deepEqual(JSON.parse(await table.inputValue('form.needs [name="card"]')),
    { dread: { name: 'The Ratcatcher', tier: 1, icons: ['strength', 'guile'], difficulty: 2, dread: 1 } });
  assert.equal(await table.$('.card-form'), null, 'the form folds away once the card is added');
  await shot(table, 'dread-record-mode-phone');
  await table.click('form.needs button[type=submit]');
  await atSeq(table, 3);
  assert.match(await table.textContent('#told'), /At North 1 a threat shows itself: The Ratcatcher/);
  assert.deepEqual(table.errors, []);
});

test('London Dread in record mode: a Plot card\'s reverse is typed outcome by outcome', async () => {
  // The golden record-mode game, played through the API up to the first
  // Plot card resolved, whose reverse no one has read yet.
  const lines = readFileSync(join(here, '../data/dread/record_mode_own_box_physical.jsonl'), 'utf8')
    .trim().split('\n').map((l) => JSON.parse(l));
  const g = await newGame(lines[0].new);
  let at = 1;
  for (; !lines[at].act.reverse; at++) {
    const l = lines[at];
    if (l.rejected) continue;
    await api('POST', `/games/${g.game}/actions`, { action: l.act }, l.as === undefined ? g.owner_token : g.seats[l.as].token);
  }
  const want = lines[at].act.reverse;
  const legal = await api('GET', `/games/${g.game}/legal`, undefined, g.owner_token);
  const resolve = legal.find((l) => (l.needs || []).some((n) => n.startsWith('reverse:')));
  assert.ok(resolve && resolve.typed.some((t) => t.field === 'reverse'), 'the resolve asks for the reverse, with its shape');
  const table = await open(await context({ ...PHONE, bypassCSP: true }), g.game, g.owner_token);
  await asOwner(table);
  await openForm(table, `button.choice:has-text(${JSON.stringify(resolve.says)})`);
  await table.click('form.needs .typed button:has-text("New Plot card\'s reverse")');
  const form = table.locator('.card-form');
  // Each outcome as the card reads, one more on a tap; what it does folds
  // away under the words.
  for (const [i, tier] of want.tiers.entries()) {
    if (i) await form.locator('button:has-text("One more outcome")').click();
    const row = form.locator(`fieldset[aria-label="Outcome ${i + 1}"]`);
    await row.getByLabel('Fists at least').fill(String(tier.successes));
    await row.getByLabel('What is read').fill(tier.text);
    await row.locator('summary:has-text("What it does")').click();
    if (tier.effect.condition) await row.getByLabel('Condition taken').selectOption(tier.effect.condition);
    for (const icon of tier.effect.icons || []) await row.locator(`button.chip:text-is("${icon}")`).click();
  }
  await form.getByLabel('Its story (optional)').fill(want.story);
  assert.deepEqual(await axeProblems(table), [], 'the outcomes read to a screen reader');
  await shot(table, 'dread-record-mode-reverse-phone');
  await form.locator('button:has-text("Add the Plot card\'s reverse")').click();
  assert.deepEqual(JSON.parse(await table.inputValue('form.needs [name="reverse"]')), want);
  const head = Number(await table.getAttribute('#table', 'data-head'));
  // This outcome draws no card.
  await table.fill('form.needs [name="outcomes"]', '{}');
  await table.click('form.needs button[type=submit]');
  await atSeq(table, head + 1);
  assert.match(await table.textContent('#told'), new RegExp(want.tiers.map((t) => t.text).join('|')));
  assert.deepEqual(table.errors, []);
});

test('a mistaken entry is taken back, and the abandoned line stays in the branch tree', async () => {
  const g = await newGame({ kind: 'legend', players: ['Ada', 'Bo', 'Cy'], seed: 5 });
  const laptop = await context(LAPTOP);
  const table = await open(laptop, g.game, g.owner_token);
  await asOwner(table);
  // The form is waited for, and a wait that fails says what the page
  // offered (it once timed out here on a loaded CI machine).
  await openForm(table, 'button.choice[data-n="1"]');
  for (const input of await table.$$('form.needs input, form.needs textarea:not([name=corner])')) await input.fill('oops');
  await table.click('form.needs button[type=submit]');
  await atSeq(table, 2);
  table.once('dialog', (d) => d.accept());
  await table.click('#undo');
  await outcome(table, 'Took back seq 2');
  await atSeq(table, 1);
  await table.waitForSelector('#branches li:has-text("taken back")');
  const summary = await api('GET', `/games/${g.game}`, undefined, g.owner_token);
  assert.notEqual(summary.current, 'main');
  await shot(table, 'take-back-laptop');
});

test('a Lost Worlds scenario on phones: initiative rolled, a hex tapped on the map to move there', async () => {
  const g = await newGame({ kind: 'lostworlds', players: ['Ada', 'Bo'], seed: 7, options: { scenario: 'well-house' } });
  const [ada, bo] = [await open(await context(PHONE), g.game, g.seats[0].token),
    await open(await context(PHONE), g.game, g.seats[1].token)];
  // The map is drawn: every hex of the 8 by 6 farmhouse, both figures on it.
  assert.equal(await ada.$$eval('#board g.space', (gs) => gs.length), 48);
  assert.ok(await ada.$('#board #figure-0') && await ada.$('#board #figure-1'));
  await diceMade([ada, bo]);
  const start = await seq(ada);
  await ada.waitForFunction(() => document.querySelector('#waiting').textContent.includes('Your move'));
  await ada.click('button.choice[data-n="1"]');
  await atSeq(bo, start + 1);
  // Whoever won the roll (the dice are the phones' own) taps a space next
  // to their figure, and only what goes there is offered.
  const bosMove = (await bo.textContent('#waiting')).includes('Your move');
  const [mover, other, space, name] = bosMove ? [bo, ada, 'f3', 'Brakka'] : [ada, bo, 'b1', 'Nowa'];
  await mover.click(`#board #space-${space}`);
  await mover.waitForSelector('.filter');
  const offered = await mover.$$eval('button.choice', (bs) => bs.map((b) => b.textContent));
  assert.ok(offered.length > 0 && offered.every((t) => t.includes(space)), offered.join(' | '));
  await mover.click('button.choice >> nth=0');
  await atSeq(other, start + 2);
  assert.match(await other.textContent('#told'), new RegExp(`${name} moves to ${space}`));
  await shot(ada, 'lostworlds-scenario-phone');
  await atMostTwoTaps([ada, bo], 'a Lost Worlds scenario');
  for (const p of [ada, bo]) assert.deepEqual(p.errors, []);
});

test('a page that loses the server misses nothing once it reconnects, and a retried action is recorded once', async () => {
  const g = await newGame({ kind: 'lostworlds', players: ['Ada', 'Bo'], seed: 9 });
  const bo = await open(await context(PHONE), g.game, g.seats[1].token);
  const ada = await open(await context(PHONE), g.game, g.seats[0].token);
  // The server goes away and comes back; meanwhile Ada chooses (through the API).
  await stopServer();
  await bo.waitForSelector('#live.off');
  await startServer();
  const legal = await api('GET', `/games/${g.game}/legal`, undefined, g.seats[0].token);
  await api('POST', `/games/${g.game}/actions`, { action: legal[0].action }, g.seats[0].token);
  await live(bo);
  await atSeq(bo, 2);
  assert.match(await bo.textContent('#waiting'), /Your move/);

  // Ada's page is refreshed; Bo's answer reaches the server but its reply
  // is lost once: the page sends it again with the same key.
  await ada.reload();
  await live(ada);
  let dropped = 0;
  await bo.route('**/actions', async (route) => {
    if (dropped++ === 0) {
      await route.fetch(); // the server records it...
      await route.abort('connectionreset'); // ...and the phone never hears back
    } else {
      await route.continue();
    }
  });
  await bo.click('button.choice[data-n="1"]');
  await bo.waitForFunction(() => Number(document.querySelector('#table').dataset.head) >= 3, null, { timeout: 10000 });
  // The page's own answer arrives with its retry.
  await bo.waitForFunction(() => !document.body.classList.contains('busy'), null, { timeout: 10000 });
  const events = await api('GET', `/games/${g.game}/events`, undefined, g.owner_token);
  // Bo's choice is sealed: the tap records its commitment, and the page
  // reveals it by itself once both have chosen (perhaps already). The
  // commitment is there exactly once.
  const byBo = events.filter((e) => e.actor && e.actor.seat === 1).map((e) => e.body.action && e.body.action.type);
  assert.ok(byBo.length >= 1, 'Bo\'s action is recorded');
  assert.equal(byBo.filter((t) => t === byBo[0]).length, 1, 'Bo\'s action is recorded exactly once: ' + JSON.stringify(byBo));
  assert.ok(dropped >= 2, 'the page retried');
  await shot(bo, 'reconnect-phone');
});

test('the story and the table read without JavaScript', async () => {
  const g = await newGame({ kind: 'lostworlds', players: ['Ada', 'Bo'], seed: 4, public: true });
  const legal = await api('GET', `/games/${g.game}/legal`, undefined, g.owner_token);
  await api('POST', `/games/${g.game}/actions`, { action: legal[0].action }, g.owner_token);
  const ctx = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(`${base}/g/${g.game}/story`);
  assert.ok(await page.isVisible('.story .chapter figure svg'));
  await page.goto(`${base}/g/${g.game}`);
  assert.ok(await page.isVisible('#board svg'));
  assert.match(await page.textContent('#waiting'), /Waiting for/);
  await shot(page, 'no-js-table-phone');

  // A private game: the token is given through the page's form.
  const p = await newGame({ kind: 'lostworlds', players: ['Ada', 'Bo'], seed: 4 });
  await page.goto(`${base}/g/${p.game}`);
  await page.fill('input[name=token]', p.seats[0].token);
  await page.click('form button[type=submit]');
  await page.waitForSelector('#board svg');
  assert.match(await page.textContent('#who'), /seat 0/);
});

test('a moment is noted from a phone, and a named fork is compared with the line played', async () => {
  const g = await newGame({ kind: 'lostworlds', players: ['Ada', 'Bo'], seed: 7 });
  const playOn = async (branch) => {
    const legal = await api('GET', `/games/${g.game}/legal?branch=${branch}`, undefined, g.owner_token);
    await api('POST', `/games/${g.game}/actions`, { action: legal[0].action, branch }, g.owner_token);
  };
  for (let i = 0; i < 4; i++) await playOn('main');
  const phone = await context(PHONE);
  const bo = await open(phone, g.game, g.seats[1].token);
  await bo.click('#note-open');
  await bo.fill('#note-text', 'Bo should have blocked here');
  await bo.fill('#note-title', 'the turning point');
  await bo.click('form.note button[type=submit]');
  await bo.waitForFunction(() => document.querySelector('#told').textContent.includes('Bookmark by Bo on seq 5, "the turning point"'));
  await bo.waitForSelector('#branches ul.notes li:has-text("the turning point")');

  await api('POST', `/games/${g.game}/branches`, { at: 3, name: 'what-if' }, g.owner_token);
  await playOn('what-if');
  await playOn('what-if');
  await api('POST', `/games/${g.game}/names`, { branch: 'what-if', title: 'Bo blocks' }, g.owner_token);
  await bo.reload();
  await live(bo);
  await bo.waitForSelector('#branches li:has-text("Bo blocks")');
  await bo.click('#branches button:has-text("compare")');
  await bo.waitForFunction(() => document.querySelector('#compare').textContent.includes('They share seqs 1 to 3 and part at seq 4.'));
  assert.ok((await bo.textContent('#compare')).includes('How the states differ'));
  await shot(bo, 'notes-and-compare-phone');
});

test('no token ever reaches the server log', async () => {
  assert.ok(serverLog.includes('/actions'), 'requests are traced');
  for (const token of tokensSeen) assert.ok(!serverLog.includes(token), 'a token is in the server log');
});
