// Tabletape's web recorder. It knows no game rules: it shows what the
// server draws and narrates, and records what `legal` offers, filling in
// what each line `needs`. Tokens come in the link's fragment (#t=...), stay
// in this browser, and travel only in the Authorization header (and the
// game's read-only cookie, for plain links and the live stream).
'use strict';
(() => {
  const $ = (sel, root = document) => root.querySelector(sel);

  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v === true ? '' : v);
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return node;
  }

  // A card typed by tapping (assets/card_form.js, served with this script).
  const cardForms = cardFormsWith(el, $);

  // ---------------------------------------------------------- storage

  const store = {
    get(key) {
      try { return JSON.parse(localStorage.getItem(key)); } catch (_) { return null; }
    },
    set(key, value) {
      try { localStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* private mode */ }
    },
    del(key) {
      try { localStorage.removeItem(key); } catch (_) { /* private mode */ }
    },
  };

  const tokenKey = (game) => 'tt:token:' + game;

  function keepToken(game, token) {
    store.set(tokenKey(game), token);
    // Read-only: the server honours the cookie for GET only.
    document.cookie = `tt_${game}=${token}; path=/; SameSite=Strict; max-age=31536000`;
  }

  function remember(game, title, role) {
    const mine = (store.get('tt:games') || []).filter((g) => g.game !== game);
    mine.unshift({ game, title, role });
    store.set('tt:games', mine.slice(0, 50));
  }

  function randomHex(bytes) {
    const a = new Uint8Array(bytes);
    crypto.getRandomValues(a);
    return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  // SHA-256 of a string (or an array of bytes), as hex. `crypto.subtle` exists only on https or
  // localhost, and phones join over the table's plain-http network.
  function sha256(text) {
    const K = [
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ];
    const bytes = Array.from(typeof text === 'string' ? new TextEncoder().encode(text) : text);
    const bits = bytes.length * 8;
    bytes.push(0x80);
    while (bytes.length % 64 !== 56) bytes.push(0);
    for (let i = 7; i >= 0; i--) bytes.push(i >= 4 ? 0 : (bits >>> (8 * i)) & 0xff);
    const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    const w = new Array(64);
    const rotr = (x, n) => (x >>> n) | (x << (32 - n));
    for (let off = 0; off < bytes.length; off += 64) {
      for (let i = 0; i < 16; i++) {
        const j = off + 4 * i;
        w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
      }
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      [a, b, c, d, e, f, g, hh].forEach((v, i) => { h[i] = (h[i] + v) | 0; });
    }
    return h.map((v) => (v >>> 0).toString(16).padStart(8, '0')).join('');
  }

  // ---------------------------------------------------------- the API

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // One request. With `retry`, a lost connection or a server that is
  // briefly away is retried with the same idempotency key until it answers:
  // an action is recorded once however often it is sent.
  async function api(method, path, body, opts = {}) {
    const headers = { Accept: 'application/json' };
    const token = opts.game ? store.get(tokenKey(opts.game)) : null;
    if (token) headers.Authorization = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.key) headers['Idempotency-Key'] = opts.key;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (opts.retry && res.status >= 500 && attempt < 40) throw new Error('server ' + res.status);
        const type = res.headers.get('content-type') || '';
        const data = type.includes('json') ? await res.json() : await res.text();
        return { ok: res.ok, status: res.status, data };
      } catch (err) {
        if (!opts.retry || attempt >= 40) return { ok: false, status: 0, data: { message: String(err) } };
        if (opts.onRetry) opts.onRetry(attempt + 1);
        await sleep(Math.min(500 * 2 ** attempt, 8000));
      }
    }
  }

  // ---------------------------------------------------------- home page

  function home() {
    const form = $('#new-game');
    const kind = $('#kind');
    // Only the options of the kind picked, and those for the table's own
    // dice only once they are picked.
    const showOptions = () => {
      document.querySelectorAll('fieldset.options').forEach((f) => {
        f.hidden = f.dataset.kind !== kind.value;
      });
      const dice = (form.querySelector('input[name=dice]:checked') || {}).value;
      document.querySelectorAll('fieldset.options [data-dice]').forEach((o) => {
        o.hidden = o.dataset.dice !== dice;
      });
    };
    // The last game started on this device: its kind, dice and each kind's
    // options come back, and its players with the names from earlier games
    // as chips a tap adds or takes away.
    const last = store.get('tt:setup') || {};
    const players = form.elements.players;
    const restore = () => {
      for (const [name, value] of Object.entries((last.options || {})[kind.value] || {})) {
        const input = document.getElementById(`opt.${kind.value}.${name}`);
        if (input && !input.value) input.value = value;
      }
    };
    if (last.kind && [...kind.options].some((o) => o.value === last.kind)) kind.value = last.kind;
    if (last.dice) {
      const radio = form.querySelector(`input[name=dice][value="${last.dice}"]`);
      if (radio) radio.checked = true;
    }
    if (last.public) form.elements.public.checked = true;
    if (last.players && !players.value) players.value = last.players.join('\n');
    restore();
    const named = () => players.value.split('\n').map((p) => p.trim()).filter(Boolean);
    const known = store.get('tt:players') || [];
    if (known.length) {
      const chips = el('p', { class: 'values', id: 'known-players', 'aria-label': 'players from earlier games' });
      const mark = () => chips.querySelectorAll('button').forEach((b) => {
        b.setAttribute('aria-pressed', String(named().includes(b.dataset.player)));
      });
      for (const name of known) {
        chips.append(el('button', {
          type: 'button',
          class: 'chip',
          'data-player': name,
          onclick: () => {
            const now = named();
            players.value = (now.includes(name) ? now.filter((p) => p !== name) : [...now, name]).join('\n');
            mark();
          },
        }, name), ' ');
      }
      players.closest('label').after(chips);
      players.addEventListener('input', mark);
      mark();
    }
    kind.addEventListener('change', () => { restore(); showOptions(); });
    form.querySelectorAll('input[name=dice]').forEach((r) => r.addEventListener('change', showOptions));
    // A value chip adds its value to its option (comma-separated: a list
    // option such as one character per seat takes several).
    form.addEventListener('click', (ev) => {
      const chip = ev.target.closest('button.chip[data-for]');
      if (!chip) return;
      const input = document.getElementById(chip.dataset.for);
      const now = input.value.trim();
      input.value = now ? now + ',' + chip.dataset.value : chip.dataset.value;
    });
    showOptions();
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const options = {};
      for (const [name, value] of data.entries()) {
        const m = name.match(/^opt\.([^.]+)\.(.+)$/);
        const shown = m && !document.getElementById(name).closest('[hidden]');
        if (shown && m[1] === kind.value && String(value).trim() !== '') options[m[2]] = String(value).trim();
      }
      const body = {
        kind: kind.value,
        players: String(data.get('players') || '').split('\n').map((p) => p.trim()).filter(Boolean),
        dice: data.get('dice') || 'digital',
        public: data.get('public') === 'on',
        options,
      };
      const title = String(data.get('title') || '').trim();
      if (title) body.title = title;
      const seed = String(data.get('seed') || '').trim();
      if (seed !== '') body.seed = Number(seed);
      const out = $('#created');
      // The table's own box: the file is sent as it is, and the server
      // names any error by its place in it.
      const file = form.elements.pack && form.elements.pack.files[0];
      // A board drawn on this page goes as its kind's pack, unless a file
      // is chosen.
      const drawn = $('#drawn-pack');
      if (!file && drawn && drawn.value && kind.value === drawn.dataset.kind) {
        body.pack = JSON.parse(drawn.value);
        body.pack_name = 'the board drawn here';
      }
      if (file) {
        try {
          body.pack = JSON.parse(await file.text());
          body.pack_name = file.name;
        } catch (err) {
          out.textContent = `Not started: ${file.name} is not JSON (${err.message})`;
          out.className = 'error';
          return;
        }
      }
      out.textContent = 'Starting…';
      const res = await api('POST', '/games', body, { retry: false });
      if (!res.ok) {
        out.textContent = 'Not started: ' + (res.data.message || res.status);
        out.className = 'error';
        return;
      }
      const g = res.data;
      store.set('tt:setup', {
        kind: body.kind,
        dice: body.dice,
        public: body.public,
        players: body.players,
        options: { ...(last.options || {}), [body.kind]: options },
      });
      store.set('tt:players', [...new Set([...body.players, ...known])].slice(0, 24));
      keepToken(g.game, g.owner_token);
      store.set('tt:seats:' + g.game, g.seats);
      remember(g.game, title || body.kind + ' · ' + body.players.join(', '), 'owner');
      location.href = '/g/' + g.game;
    });
    const list = $('#my-games');
    if (!list) return; // the board drawing page has the form alone
    for (const g of store.get('tt:games') || []) {
      list.append(el('li', {}, el('a', { href: '/g/' + g.game, text: g.title }), ' · ' + g.role));
    }
    if (!list.children.length) list.append(el('li', { text: 'None on this device yet.' }));
  }

  // ---------------------------------------------------------- the table

  const T = {
    game: null,
    branch: null, // null: the game's current line
    as: null, // whom the page shows the game to: 'public', 'owner' or a seat number
    at: null, // null: the head
    view: null,
    filter: null,
    formFor: null, // the open form's line, as `formKey` reads it
    formLine: null, // the line the open form records (kept fresh by renders)
    source: null,
    busy: false,
  };

  function query(extra) {
    const p = new URLSearchParams();
    if (T.branch) p.set('branch', T.branch);
    if (T.as !== null) p.set('as', T.as);
    for (const [k, v] of Object.entries(extra || {})) if (v !== null && v !== undefined) p.set(k, v);
    const s = p.toString();
    return s ? '?' + s : '';
  }

  // Only whom the page shows the game to, for the reads that take no branch.
  const asOnly = () => (T.as !== null ? '?as=' + encodeURIComponent(T.as) : '');

  // A short label for an action: its type, then its values, seat last.
  function label(action, players) {
    const parts = [];
    const seat = action.seat;
    const walk = (v) => {
      if (v === null || v === undefined || v === '') return;
      if (Array.isArray(v)) v.forEach(walk);
      else if (typeof v === 'object') Object.values(v).forEach(walk);
      else parts.push(String(v));
    };
    // A bare number says little ("0 · 5 · 3"): it goes with its field's name.
    for (const [k, v] of Object.entries(action)) {
      if (k === 'type' || k === 'seat') continue;
      if (typeof v === 'number') parts.push(`${k.replace(/_/g, ' ')} ${v}`);
      else walk(v);
    }
    const who = seat !== undefined && players && T.view && T.view.viewer === 'owner' ? ` (${players[seat] || 'seat ' + seat})` : '';
    const type = String(action.type || 'action').replace(/_/g, ' ');
    return parts.length ? `${type}: ${parts.join(' · ')}${who}` : type + who;
  }

  // A line in the kind's own words when it gives them (`says`), else its
  // values.
  function says(l, players) {
    return l.says || label(l.action, players);
  }

  function norm(v) {
    return String(v).toLowerCase().replace(/[^a-z0-9]+/g, '-');
  }

  // Whether any value of `action` (but its type and seat) is `pick`.
  function mentions(action, pick) {
    let found = false;
    const walk = (v) => {
      if (found || v === null || v === undefined) return;
      if (Array.isArray(v)) v.forEach(walk);
      else if (typeof v === 'object') Object.values(v).forEach(walk);
      else if (norm(v) === pick) found = true;
    };
    for (const [k, v] of Object.entries(action)) if (k !== 'type' && k !== 'seat') walk(v);
    return found;
  }

  // The end of a game, on the first screen: who won, the scores where the
  // game keeps them, how the story closes and opens, the play for BG Stats,
  // and (for the owner) the same game again.
  function renderResult() {
    const v = T.view;
    let box = $('#result');
    if (!v.result) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = el('section', { id: 'result', class: 'result', 'aria-label': 'how the game ended' });
      $('#now').after(box);
      // What the last tap said is stale next to the ending.
      const said = $('#outcome');
      if (said && said.className !== 'error') said.textContent = '';
    }
    box.textContent = '';
    const names = v.summary.players;
    const r = v.result;
    const won = r.winners.map((s) => names[s]);
    const headline = r.cooperative
      ? (won.length ? 'The table wins together.' : 'The game wins this time.')
      : won.length === 1 ? `${won[0]} wins.`
        : won.length ? `${won.join(' and ')} share the win.` : 'Nobody wins.';
    box.append(el('h2', { text: headline }));
    if (r.scores) {
      const ranked = names.map((name, seat) => ({ name, score: r.scores[seat], won: r.winners.includes(seat) }))
        .sort((a, b) => b.score - a.score);
      box.append(el('ol', { class: 'scores' }, ...ranked.map((p) =>
        el('li', { class: p.won ? 'won' : null }, el('span', { text: p.name }), el('b', { text: String(p.score) })))));
    }
    for (const line of v.ending || []) box.append(el('p', { text: line }));
    if (v.opening && v.opening.length) {
      box.append(el('blockquote', {}, ...v.opening.map((line) => el('p', { text: line }))));
    }
    const links = el('p', { class: 'links' },
      el('a', { href: `/g/${T.game}/story` + query(), text: 'Read the whole story' }), ' · ',
      el('a', { href: `/games/${T.game}/export` + query({ format: 'bgstats' }), download: `${T.game}-bgstats.json`, text: 'Log the play in BG Stats' }));
    box.append(links);
    if (v.owner) {
      box.append(el('button', { type: 'button', id: 'rematch', onclick: rematch }, 'Play again: same players and options'));
    }
  }

  // A new game like this one; the owner lands on it with its join links.
  async function rematch() {
    const res = await api('POST', `/games/${T.game}/rematch`, undefined, { game: T.game, retry: false });
    if (!res.ok) {
      say('Not started: ' + ((res.data && res.data.message) || res.status), true);
      return;
    }
    const g = res.data;
    keepToken(g.game, g.owner_token);
    store.set('tt:seats:' + g.game, g.seats);
    remember(g.game, T.view.title, 'owner');
    location.href = '/g/' + g.game;
  }

  // Labels stay legible: on a phone the board is drawn at least large
  // enough that its smallest label is 11 CSS pixels, and scrolls sideways
  // within its box when that is wider than the screen. (A laptop's board
  // has room; the table screen shows it whole.)
  function legible() {
    const box = $('#board');
    const svg = box.querySelector('svg');
    const vb = svg && svg.viewBox.baseVal;
    if (!vb || !vb.width) return;
    if (window.innerWidth > 700) {
      box.classList.remove('zoomed');
      box.removeAttribute('tabindex');
      svg.style.width = '';
      return;
    }
    let smallest = Infinity;
    for (const t of svg.querySelectorAll('text')) {
      if (t.textContent.trim()) smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize));
    }
    const fitted = box.clientWidth - 8;
    const needed = Math.ceil(vb.width * 11 / smallest) + 2;
    const zoom = isFinite(needed) && needed > fitted;
    box.classList.toggle('zoomed', zoom);
    // A board that scrolls sideways is reached by the keyboard too.
    if (zoom) box.setAttribute('tabindex', '0'); else box.removeAttribute('tabindex');
    svg.style.width = zoom ? needed + 'px' : '';
  }

  // What a tap on the board picks: the fields its piece names
  // (`data-pick`), else the value its id ends in (`post-p1-2`: `p1-2`).
  function pickOf(node) {
    if (node.dataset && node.dataset.pick) {
      try { return JSON.parse(node.dataset.pick); } catch (_) { return null; }
    }
    const id = node.id || '';
    const pick = norm(id.slice(id.indexOf('-') + 1));
    // A bare number (a token drawn as `piece-1`) would match every field holding it.
    return /[a-z]/.test(pick) ? pick : null;
  }

  // Whether a line of `legal` involves what was picked on the board.
  function fits(l, pick) {
    return typeof pick === 'object'
      ? Object.entries(pick).every(([k, want]) => norm(l.action[k]) === norm(want))
      : mentions(l.action, pick);
  }

  // The board's targets: each place or piece a tap narrows the list to
  // something becomes a button the keyboard and a screen reader reach,
  // named by what it offers (the drawing itself stays an image).
  function markTargets(offered) {
    const board = $('#board');
    const svg = board.querySelector('svg');
    if (!svg) return;
    let any = false;
    for (const node of board.querySelectorAll('[data-pick], g[id]')) {
      if (node.parentElement.closest('[role=button]')) continue; // no button in a button
      const pick = pickOf(node);
      const hits = pick ? offered.filter(({ l }) => fits(l, pick)) : [];
      if (!hits.length) continue;
      any = true;
      const first = says(hits[0].l, T.view.summary.players);
      node.setAttribute('role', 'button');
      node.setAttribute('tabindex', '0');
      node.classList.add('target');
      const offers = hits.length === 1 ? first : `${first}, and ${hits.length - 1} more`;
      // What the target shows in words starts its name, as a reader sees it.
      // Its lines are separate texts: each ends in a space (which SVG does
      // not draw) so that read as one they stay words apart.
      const texts = [...node.querySelectorAll('text')];
      for (const t of texts) if (!/\s$/.test(t.textContent)) t.append(' ');
      const shown = texts.map((t) => t.textContent.trim()).filter(Boolean).join(' ');
      node.setAttribute('aria-label', shown ? `${shown}: ${offers}` : offers);
      reachable(node);
    }
    if (any) svg.setAttribute('role', 'group');
  }

  // A target smaller than a fingertip (24 CSS pixels a side) gets an
  // invisible pad around it, in the drawing's own units at its scale now.
  function reachable(node) {
    const old = node.querySelector(':scope > rect.hit');
    if (old) old.remove();
    const ctm = node.getScreenCTM();
    if (!ctm || !ctm.a) return;
    const box = node.getBBox();
    const least = 24 / ctm.a + 1;
    if (box.width >= least && box.height >= least) return;
    const w = Math.max(box.width, least);
    const h = Math.max(box.height, least);
    const pad = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    pad.setAttribute('class', 'hit');
    pad.setAttribute('x', box.x + box.width / 2 - w / 2);
    pad.setAttribute('y', box.y + box.height / 2 - h / 2);
    pad.setAttribute('width', w);
    pad.setAttribute('height', h);
    pad.setAttribute('fill', 'transparent');
    node.prepend(pad);
  }

  // Loads overlap (a live ring, a recorded action, a tap on the timeline)
  // and their answers may come back in any order: only the newest asked
  // is shown, so an older answer never hides a later move.
  let asked = 0;
  async function load() {
    const mine = ++asked;
    const res = await api('GET', `/games/${T.game}/table` + query({ at: T.at }), undefined, { game: T.game, retry: true });
    if (mine !== asked) return;
    if (!res.ok) {
      say(res.data.message || 'The table cannot be read (' + res.status + ')', true);
      return;
    }
    T.view = res.data;
    render();
    await revealWhenDue();
    await shareDice();
  }

  let reloadTimer = null;
  function reloadSoon() {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(load, 120);
  }

  function say(text, bad) {
    const out = $('#outcome');
    out.textContent = '';
    out.className = bad ? 'error' : 'ok';
    if (Array.isArray(text)) text.forEach((t) => out.append(el('span', { class: 'line', text: t })));
    else out.textContent = text;
  }

  function render() {
    const v = T.view;
    const main = $('#table');
    main.dataset.seq = v.seq;
    main.dataset.head = v.head_seq;
    main.dataset.branch = v.branch;
    $('#where').textContent = `${v.chapter} · seq ${v.seq}${v.seq === v.head_seq ? '' : ' of ' + v.head_seq} · ${v.over ? 'over' : 'in play'}`;
    const you = v.seat !== null && v.seat !== undefined ? v.summary.players[v.seat] : null;
    $('#who').textContent = you ? `you are ${you} (seat ${v.seat})${v.plays ? ', playing ' + v.plays : ''}` : v.viewer === 'public' ? 'the table screen: only what lies face up' : `seen as ${v.viewer}`;
    renderViews();
    const waiting = $('#waiting');
    if (v.over) waiting.textContent = 'The game is over.';
    else if (!v.waiting_for.length) waiting.textContent = '';
    else if (you && v.waiting_for.includes(you)) waiting.textContent = v.waiting_for.length === 1 ? 'Your move.' : `Your move (also waiting for ${v.waiting_for.filter((p) => p !== you).join(', ')}).`;
    else waiting.textContent = `Waiting for ${v.waiting_for.join(', ')}.`;
    const dice = $('#dice');
    if (dice) dice.textContent = v.dice;
    // The state as text follows the table too (it was the server's first
    // drawing, for whomever that was).
    const text = $('details.text pre');
    if (text) text.textContent = v.text;
    countdown();
    renderResult();
    $('#board').innerHTML = v.svg; // drawn by the engine's escaping SVG writer
    legible();
    renderLegal();
    renderTold();
    renderTimeline();
    renderJoin();
  }

  // A running deadline (a timed planning phase) counts down on every
  // device to the moment in the game, by the server's clock: a phone whose
  // own clock is off still shows the table's time. At zero the table is
  // read again, so what the deadline closed leaves the list.
  function countdown() {
    const box = $('#countdown');
    clearInterval(T.ticker);
    const d = T.view.deadline;
    if (!box) return;
    if (!d) { box.hidden = true; return; }
    const skew = T.view.server_ms - Date.now();
    let rang = false;
    const tick = () => {
      const left = Math.max(0, Math.ceil((d.ends_at_ms - (Date.now() + skew)) / 1000));
      box.hidden = false;
      box.className = 'countdown' + (left === 0 ? ' over' : left <= 60 ? ' warn' : '');
      box.textContent = left === 0 ? `${d.what} is over` : `${d.what} ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left`;
      if (left === 0 && !rang) { rang = true; clearInterval(T.ticker); reloadSoon(); }
    };
    tick();
    T.ticker = setInterval(tick, 250);
  }

  function renderTold() {
    const told = $('#told');
    told.textContent = '';
    // An entry the kind tells nothing of (a token set on a clock, which
    // the board draws instead) is not listed as an empty line.
    for (const t of T.view.recent.slice().reverse().filter((t) => t.lines.length)) {
      told.append(el('li', { value: t.seq }, t.lines.map((l) => el('p', { text: l }))));
    }
  }

  function renderLegal() {
    const v = T.view;
    const box = $('#legal');
    box.textContent = '';
    // A form being filled in survives a live refresh while its line is
    // still offered; someone else's move must not wipe what you typed. The
    // line's defaults may change meanwhile (a corner another player took),
    // so it is matched without the fields the form asks for, and the form
    // then records the fresh line.
    const still = T.formFor && v.seq === v.head_seq ? v.legal.find((l) => formKey(l) === T.formFor) : null;
    if (still) T.formLine = still;
    else {
      $('#form').textContent = '';
      T.formFor = null;
    }
    if (v.seq !== v.head_seq) {
      box.append(el('p', { text: 'Looking at the past: nothing is recorded from here.' }),
        el('button', { type: 'button', onclick: () => { T.at = null; load(); } }, 'Back to now'));
      return;
    }
    const sealed = store.get(revealKey());
    if (sealed) box.append(el('p', { class: 'sealed', text: `You chose ${sealed.label}. It stays sealed until everyone has chosen.` }));
    // A seat's sealed choices are made through their seal: the raw form of
    // the sealing action (a hash typed by hand) is left to the CLI.
    const sealing = new Set(v.seat !== null && v.seat !== undefined
      ? v.legal.filter((l) => l.seal).map((l) => l.seal.commit.type) : []);
    // A reveal this page makes by itself is not offered as a form.
    let offered = v.legal.map((l, i) => ({ l, n: i + 1 }))
      .filter(({ l }) => !sealing.has(l.action.type) && !unsealed(l));
    markTargets(offered);
    if (T.filter) {
      offered = offered.filter(({ l }) => fits(l, T.filter));
      box.append(el('p', { class: 'filter' }, 'Only what the spot you tapped offers ',
        el('button', { type: 'button', class: 'quiet', onclick: () => { T.filter = null; renderLegal(); } }, 'show all')));
    } else if (offered.length > 3 && $('#board .target')) {
      box.append(el('p', { class: 'hint', text: 'Tap a glowing place or piece on the board to see only what involves it.' }));
    }
    if (!offered.length) {
      const idle = v.owner && v.viewer === 'public'
        ? 'The table screen records nothing: each player records on their own phone, or pick a player above to record for them here.'
        : 'Nothing for you to record now.';
      box.append(el('p', { text: v.legal.length ? 'Nothing here involves that: tap elsewhere or show all.' : idle }));
    }
    // A kind of action offered many times over (a clock's every slot and
    // token) is folded into one group until opened; a tap on the board
    // filters it instead.
    const typeOf = (l) => String(l.action.type || 'action');
    const counts = new Map();
    for (const { l } of offered) counts.set(typeOf(l), (counts.get(typeOf(l)) || 0) + 1);
    const groups = new Map();
    const list = el('ol', { class: 'choices' });
    for (const { l, n } of offered) {
      let into = list;
      const type = typeOf(l);
      if (!T.filter && counts.get(type) > 30) {
        if (!groups.has(type)) {
          const inner = el('ol', { class: 'choices' });
          const open = T.opened && T.opened.has(type);
          const d = el('details', { class: 'group', 'data-type': type },
            el('summary', {}, type.replace(/_/g, ' ') + ' '), inner);
          if (open) d.open = true;
          d.addEventListener('toggle', () => {
            T.opened = T.opened || new Set();
            if (d.open) T.opened.add(type); else T.opened.delete(type);
          });
          groups.set(type, { d, inner, count: 0 });
          list.append(el('li', {}, d));
        }
        const g = groups.get(type);
        g.count += 1;
        into = g.inner;
      }
      into.append(el('li', {}, el('button', {
        type: 'button',
        class: l.seal && sealing.size ? 'choice sealable' : 'choice',
        'data-n': n,
        'aria-keyshortcuts': n <= 9 ? String(n) : null,
        // An action that ends something early for everyone is confirmed
        // first, in the kind's words (`confirm`).
        onclick: () => { if (!l.confirm || window.confirm(l.confirm)) choose(l); },
      }, el('span', { class: 'n', text: n }), says(l, v.summary.players),
        l.needs && l.needs.length ? el('small', { text: ' …' }) : null,
        l.seal && sealing.size ? el('small', { class: 'seal', text: 'sealed' }) : null)));
      // (A line with `needs` opens a short form; one with only `may` too.)
    }
    for (const g of groups.values()) g.d.querySelector('summary').append(el('small', { text: `(${g.count})` }));
    box.append(list);
    // Offered only where the server would record it (`take_back`): the
    // owner's, or a seat's own last action, and not one that showed what
    // lay hidden.
    if (v.take_back) {
      box.append(el('p', {}, el('button', { type: 'button', class: 'quiet', id: 'undo', 'aria-keyshortcuts': 'u', onclick: takeBack }, 'Take back the last entry')));
    }
  }

  // What one need asks for: `field: what`.
  function splitNeed(need) {
    const i = need.indexOf(': ');
    return i < 0 ? [need, ''] : [need.slice(0, i), need.slice(i + 2)];
  }

  // A list typed or picked: split at the commas between its items, not
  // those inside a card typed whole as JSON ({"item": {...}}), and each
  // item read as a number, a typed card or a name.
  function splitList(text) {
    const items = [];
    let depth = 0, quoted = false, start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) { if (c === '\\') i++; else if (c === '"') quoted = false; continue; }
      if (c === '"') quoted = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      else if (c === ',' && depth === 0) { items.push(text.slice(start, i)); start = i + 1; }
    }
    items.push(text.slice(start));
    return items.map((v) => v.trim()).filter(Boolean).map(parseItem);
  }

  function parseItem(v) {
    if (/^\d+$/.test(v)) return Number(v);
    if (v === 'null') return null;
    if (/^[{[]/.test(v)) { try { return JSON.parse(v); } catch (_) { return v; } }
    return v;
  }

  function parseAnswer(text) {
    const t = text.trim();
    if (/^\d+(\s*[, ]\s*\d+)+$/.test(t)) return t.split(/[\s,]+/).map(Number);
    try { return JSON.parse(t); } catch (_) { /* several items, or words */ }
    // Cards typed whole, one after another: a list.
    const items = splitList(t);
    return items.length > 1 && items.some((v) => typeof v === 'object') ? items : t;
  }

  function setPath(obj, path, value) {
    const parts = path.split('.');
    let at = obj;
    for (let i = 0; i < parts.length - 1; i++) {
      const k = Array.isArray(at) && /^\d+$/.test(parts[i]) ? Number(parts[i]) : parts[i];
      if (at[k] === null || typeof at[k] !== 'object') at[k] = {};
      at = at[k];
    }
    const last = parts[parts.length - 1];
    at[Array.isArray(at) && /^\d+$/.test(last) ? Number(last) : last] = value;
  }

  function replaceIn(value, from, to) {
    if (typeof value === 'string') return value === from ? to : value;
    if (Array.isArray(value)) return value.map((v) => replaceIn(v, from, to));
    if (value && typeof value === 'object') {
      const out = {};
      for (const [k, v] of Object.entries(value)) out[k] = replaceIn(v, from, to);
      return out;
    }
    return value;
  }

  // A line as its form knows it: the action without the fields the form
  // fills in, and the names of those fields (their hints may change: the
  // corners still free).
  function formKey(l) {
    const action = JSON.parse(JSON.stringify(l.action));
    const fields = [...(l.needs || []), ...(l.may || [])].map((f) => splitNeed(f)[0]);
    for (const path of fields) {
      if (path.includes(' ')) continue;
      const parts = path.split('.');
      let at = action;
      for (const p of parts.slice(0, -1)) at = at && typeof at === 'object' ? at[p] : undefined;
      if (at && typeof at === 'object') delete at[parts[parts.length - 1]];
    }
    return JSON.stringify([action, fields]);
  }

  function choose(l) {
    const v = T.view;
    if (l.seal && v.seat !== null && v.seat !== undefined) return chooseSealed(l);
    const needs = l.needs || [];
    const may = l.may || [];
    if (!needs.length && !may.length) return record(l.action);
    const form = el('form', { class: 'needs' });
    form.append(el('p', { class: 'what', text: says(l, v.summary.players) }));
    needs.forEach((need, i) => {
      const [field, what] = splitNeed(need);
      const id = 'need-' + i;
      const long = /story|explanation|explain|description/i.test(what);
      const input = long
        ? el('textarea', { id, name: field, rows: 3, required: true, maxlength: 2000 })
        : el('input', { id, name: field, required: true, autocomplete: 'off', maxlength: 2000 });
      form.append(el('label', { for: id }, el('b', { text: field }), ' ', el('small', { text: what })), input);
      // A picker when the kind lists the values (the cards a draw may turn up).
      const pick = (l.picks || []).find((p) => p.field === field);
      if (pick) {
        input.dataset.many = pick.many ? '1' : '';
        // Nothing else to ask: the tap that picks the one value (or the
        // last of as many as the field takes) records.
        const alone = needs.length === 1 && !may.length && (!pick.many || pick.count > 0);
        const picker = el('div', { class: 'picker', role: 'group', 'aria-label': 'values for ' + field });
        for (const value of pick.values) {
          picker.append(el('button', {
            type: 'button',
            class: 'chip',
            onclick: () => {
              const now = input.value.trim();
              input.value = pick.many && now ? now + ', ' + value : value;
              const picked = input.value.split(',').filter((v) => v.trim()).length;
              if (alone && (!pick.many || picked >= pick.count)) form.requestSubmit();
            },
          }, value));
        }
        form.append(picker);
      }
      const typed = (l.typed || []).find((t) => t.field === field);
      if (typed) form.append(cardForms(typed, input));
      if (!pick && /\bd6\b|die|dice|roll/i.test(need)) {
        const pad = el('div', { class: 'die', role: 'group', 'aria-label': 'die faces for ' + field });
        for (let face = 1; face <= 6; face++) {
          pad.append(el('button', {
            type: 'button',
            'aria-label': 'rolled ' + face,
            onclick: () => { input.value = input.value.trim() ? input.value.trim() + ', ' + face : String(face); input.focus(); },
          }, String(face)));
        }
        pad.append(el('button', { type: 'button', class: 'quiet', onclick: () => { input.value = ''; } }, 'clear'));
        form.append(pad);
      }
    });
    may.forEach((field, i) => {
      const [name, what] = splitNeed(field);
      const id = 'may-' + i;
      form.append(el('label', { for: id }, el('b', { text: name }), ' ', el('small', { text: what + ' (optional)' })),
        el('textarea', { id, name, rows: 2, maxlength: 2000 }));
    });
    form.append(el('p', {}, el('button', { type: 'submit' }, 'Record'), ' ',
      el('button', { type: 'button', class: 'quiet', onclick: () => { $('#form').textContent = ''; T.formFor = null; } }, 'Cancel')));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const action = JSON.parse(JSON.stringify((T.formLine || l).action));
      may.forEach((field, i) => {
        const text = $('#may-' + i, form).value.trim();
        if (text) setPath(action, splitNeed(field)[0], text);
      });
      needs.forEach((need, i) => {
        const [field] = splitNeed(need);
        const answer = $('#need-' + i, form).value;
        // A need may name several fields ("page and salt"); those are
        // answered as a JSON object merged into the action.
        if (field.includes(' ')) {
          const parsed = parseAnswer(answer);
          if (parsed && typeof parsed === 'object') Object.assign(action, parsed);
        } else if ($('#need-' + i, form).dataset.many) {
          // Picked numbers (fists on dice) go as numbers, typed cards as
          // themselves.
          const t = answer.trim();
          const whole = t.startsWith('[') ? parseAnswer(t) : null;
          setPath(action, field, Array.isArray(whole) ? whole : splitList(t));
        } else if ((l.picks || []).some((p) => p.field === field)) {
          // A die's face goes as a number, a card's name as its name, a
          // card typed whole as itself.
          setPath(action, field, parseItem(answer.trim()));
        } else {
          setPath(action, field, parseAnswer(answer));
        }
      });
      record(action);
    });
    const box = $('#form');
    box.textContent = '';
    box.append(form);
    T.formFor = formKey(l);
    T.formLine = l;
    const first = $('input, textarea', form);
    if (first) first.focus();
  }

  const revealKey = () => `tt:reveal:${T.game}:${T.view ? T.view.branch : ''}`;

  // A seal's salt, made from the link this device holds and a public
  // nonce: any device with the same link makes the same salt, so a choice
  // sealed on one phone is revealed from another (or on a fork) as well.
  const sealSalt = (nonce) =>
    sha256(`tabletape seal\n${store.get(tokenKey(T.game)) || ''}\n${nonce}`).slice(0, 32);

  // A sealed choice: commit to a hash of it now; the page reveals it by
  // itself once `legal` offers the reveal (everyone has chosen).
  async function chooseSealed(l) {
    const nonce = randomHex(16);
    const salt = sealSalt(nonce);
    const hash = sha256(l.seal.preimage.replace('<salt>', salt));
    const commit = replaceIn(replaceIn(l.seal.commit, '<hash>', hash), '<nonce>', nonce);
    const reveal = replaceIn(l.seal.reveal, '<salt>', salt);
    // "You chose Smash", not "You chose choose: Smash".
    const chose = l.says || label(l.action, T.view.summary.players).replace(/^[^:]*: /, '');
    store.set(revealKey(), { reveal, label: chose });
    const ok = await record(commit);
    if (!ok) store.del(revealKey());
  }

  // Dice nobody chose: before the first action, each seat's page adds a
  // share of its own to the dice, a random value kept in this browser. It
  // commits to the value at once (its SHA-256) and reveals it once every
  // seat has committed; the server then keys the dice by every share and
  // the owner's seed.
  const shareKey = () => `tt:share:${T.game}:${T.view.seat}`;
  const hexBytes = (hex) => hex.match(/../g).map((b) => parseInt(b, 16));
  async function shareDice() {
    const v = T.view;
    const dice = v.summary.dice;
    const seat = v.seat;
    if (!dice || !dice.open || seat === null || seat === undefined || T.at !== null || T.busy || T.shareRefused) return;
    if (v.branch !== v.summary.current) return;
    let mine = store.get(shareKey());
    let body = null;
    if (!dice.committed.includes(seat)) {
      if (!mine) { mine = randomHex(32); store.set(shareKey(), mine); }
      const domain = Array.from(new TextEncoder().encode('tabletape dice share\n'));
      body = { commitment: sha256(domain.concat(hexBytes(mine))) };
    } else if (mine && dice.committed.length === v.summary.players.length && !dice.revealed.includes(seat)) {
      body = { contribution: mine };
    }
    if (!body) return;
    T.busy = true;
    const res = await api('POST', `/games/${T.game}/dice`, body, { game: T.game });
    T.busy = false;
    // A refusal (another device committed for this seat, play began) is
    // not asked again on every reload; the status line says where it stands.
    if (res.ok) await load();
    else T.shareRefused = true;
  }

  // The reveal of a choice this link sealed, found from the link alone:
  // the one option whose preimage, salted as `sealSalt` salts, hashes to
  // the commitment. (Null for a seal made elsewhere, with a salt of its own.)
  const unsealings = new Map();
  function unsealed(l) {
    if (!l.unseal) return null;
    const key = `${l.unseal.commitment}:${l.unseal.nonce}`;
    if (!unsealings.has(key)) {
      const salt = sealSalt(l.unseal.nonce);
      const hit = l.unseal.options.find((o) => sha256(o.preimage.replace('<salt>', salt)) === l.unseal.commitment);
      unsealings.set(key, hit ? replaceIn(hit.reveal, '<salt>', salt) : null);
    }
    return unsealings.get(key);
  }

  async function revealWhenDue() {
    if (T.at !== null || T.busy) return;
    const sealed = store.get(revealKey());
    const due = sealed && T.view.legal.some((l) => l.action.type === sealed.reveal.type && l.action.seat === sealed.reveal.seat);
    const reveal = due ? sealed.reveal : T.view.legal.map(unsealed).find(Boolean);
    if (!reveal) return;
    const ok = await record(reveal);
    // The seal is broken: "You chose …, sealed" no longer holds.
    if (ok && sealed) { store.del(revealKey()); renderLegal(); }
  }

  // Records one action, retrying a flaky connection with the same key.
  async function record(action) {
    if (T.busy) return false;
    T.busy = true;
    document.body.classList.add('busy');
    const key = randomHex(16);
    const pendingKey = 'tt:pending:' + T.game;
    const body = { action, idempotency_key: key };
    if (T.branch) body.branch = T.branch;
    store.set(pendingKey, body);
    say('Recording…');
    // The narrowing this action was picked under; a tap on the board made
    // while it was on its way (the live stream may show the new move first)
    // is the player's next step, and stays.
    const narrowed = T.filter;
    const res = await api('POST', `/games/${T.game}/actions`, body, {
      game: T.game,
      retry: true,
      key,
      onRetry: (n) => say(`No answer from the table's server; trying again (${n})…`),
    });
    store.del(pendingKey);
    T.busy = false;
    document.body.classList.remove('busy');
    if (res.ok) {
      say(res.data.narration && res.data.narration.length ? res.data.narration : `Recorded as seq ${res.data.seq}.`);
      if (T.filter === narrowed) T.filter = null;
      await load();
      return true;
    }
    const d = res.data || {};
    const rule = d.rule ? ` (rule ${d.rule})` : '';
    say([`Refused${rule}: ${d.message || res.status}`, 'You tried: ' + label(action, T.view.summary.players)], true);
    return false;
  }

  // An action sent before the page was closed or reloaded mid-flight is
  // sent again with its key: recorded once, never lost.
  async function resendPending() {
    const pending = store.get('tt:pending:' + T.game);
    if (!pending) return;
    const res = await api('POST', `/games/${T.game}/actions`, pending, { game: T.game, retry: true, key: pending.idempotency_key });
    store.del('tt:pending:' + T.game);
    if (res.ok) say(res.data.narration || 'Recorded.');
  }

  async function takeBack() {
    const v = T.view;
    if (!confirm(`Take back seq ${v.head_seq}? Nothing is deleted: play moves to a line forked just before it.`)) return;
    const res = await api('POST', `/games/${T.game}/undo`, undefined, { game: T.game });
    if (!res.ok) {
      say(res.data.message || 'Not taken back', true);
      return;
    }
    say(`Took back seq ${res.data.seq}; play continues on line ${res.data.current}.`);
    T.branch = null;
    follow();
    await load();
  }

  // ----------------------------------------------------- timeline, tree

  function renderTimeline() {
    const v = T.view;
    const box = $('#timeline');
    if (!box) return;
    renderBranches();
    if (v.head_seq < 2) { box.textContent = ''; return; }
    let slider = $('#seq', box);
    if (!slider) {
      box.textContent = '';
      slider = el('input', { type: 'range', id: 'seq', min: 1, 'aria-label': 'seq shown' });
      let timer = null;
      slider.addEventListener('input', () => {
        clearTimeout(timer);
        $('#seq-shown').textContent = 'seq ' + slider.value;
        timer = setTimeout(() => {
          const s = Number(slider.value);
          T.at = s === T.view.head_seq ? null : s;
          load();
        }, 150);
      });
      box.append(el('label', { for: 'seq' }, 'Timeline '), slider, el('span', { id: 'seq-shown' }),
        el('p', {},
          el('button', { type: 'button', class: 'quiet', onclick: forkHere }, 'Fork here'), ' ',
          v.viewer === 'public' ? null : el('button', { type: 'button', class: 'quiet', id: 'note-open', onclick: noteForm }, 'Note this moment'), ' ',
          el('button', { type: 'button', class: 'quiet', id: 'back-to-now', onclick: () => { T.at = null; load(); } }, 'Back to now')),
        el('div', { id: 'note-box' }));
    }
    slider.max = v.head_seq;
    slider.value = v.seq;
    $('#seq-shown').textContent = `seq ${v.seq} of ${v.head_seq}`;
    // "Back to now" only when looking at the past.
    $('#back-to-now').hidden = v.seq === v.head_seq;
  }

  async function forkHere() {
    const v = T.view;
    const res = await api('POST', `/games/${T.game}/branches`, { at: v.seq, from: v.branch }, { game: T.game });
    if (!res.ok) { say(res.data.message || 'Not forked', true); return; }
    say(`Forked ${res.data.name} at seq ${v.seq}: you are on it now.`);
    T.branch = res.data.name;
    T.at = null;
    follow();
    history.replaceState(null, '', `/g/${T.game}?branch=${encodeURIComponent(T.branch)}`);
    await load();
  }

  // A note (or, with a title, a bookmark) on the seq shown: kept in the
  // log and told beside that moment; it changes nothing in play.
  function noteForm() {
    const box = $('#note-box');
    if (box.firstChild) { box.textContent = ''; return; }
    const at = T.view.seq;
    const text = el('input', { id: 'note-text', maxlength: 2000, placeholder: 'What you noticed' });
    const title = el('input', { id: 'note-title', maxlength: 80, placeholder: 'the turning point' });
    const secret = el('input', { type: 'checkbox', id: 'note-private' });
    const form = el('form', { class: 'needs note' },
      el('p', { class: 'what', text: `A note on seq ${at}` }),
      el('label', {}, 'Note ', text),
      el('label', {}, 'Bookmark title ', el('small', { text: 'optional: makes the note a bookmark' }), title),
      el('label', {}, secret, ' Private: only you (and the owner) read it until the game is over'),
      el('button', { type: 'submit' }, 'Save the note'));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const body = { branch: T.view.branch, at, text: text.value.trim(), private: secret.checked };
      if (title.value.trim()) body.title = title.value.trim();
      const res = await api('POST', `/games/${T.game}/notes`, body, { game: T.game });
      if (!res.ok) { say(res.data.message || 'Not noted', true); return; }
      say(res.data.narration);
      box.textContent = '';
      $('#branches').dataset.head = '';
      await load();
    });
    box.append(form);
    text.focus();
  }

  // Two lines side by side: where they part, how each went, what differs.
  async function compareWith(other) {
    const box = $('#compare');
    const q = `a=${encodeURIComponent(T.view.branch)}&b=${encodeURIComponent(other)}` + asOnly().replace('?', '&');
    const res = await api('GET', `/games/${T.game}/compare?${q}`, undefined, { game: T.game });
    if (!res.ok) { say(res.data.message || 'Not compared', true); return; }
    const c = res.data;
    const line = (l) => el('div', { class: 'line' },
      el('h3', { text: l.title ? `${l.branch} “${l.title}”` : l.branch }),
      el('p', { class: 'hint', text: `head seq ${l.head_seq}${l.over ? ', over' : ', in play'}` }),
      el('ol', {}, l.story.slice(0, 12).map((s) => el('li', { text: s }))),
      l.over ? el('p', { text: l.closing.join(' ') }) : null);
    const shown = (v) => (v === undefined ? '—' : JSON.stringify(v));
    box.textContent = '';
    box.append(el('details', { open: true },
      el('summary', { text: `${c.a.branch} and ${c.b.branch}` }),
      el('p', { text: `They share seqs 1 to ${c.common_seq}` + (c.parts_at ? ` and part at seq ${c.parts_at}.` : '.') }),
      el('div', { class: 'lines' }, line(c.a), line(c.b)),
      el('h3', { text: 'How the states differ' }),
      c.differences.length
        ? el('table', { class: 'diff' }, el('tr', {}, el('th', { text: 'where' }), el('th', { text: c.a.branch }), el('th', { text: c.b.branch })),
          c.differences.slice(0, 40).map((d) => el('tr', {}, el('td', { text: d.path }), el('td', { text: shown(d.a) }), el('td', { text: shown(d.b) }))))
        : el('p', { text: 'No difference.' })));
    box.scrollIntoView({ block: 'nearest' });
  }

  async function renderBranches() {
    const box = $('#branches');
    if (!box || box.dataset.head === String(T.view.head_seq) + T.view.branch) return;
    box.dataset.head = String(T.view.head_seq) + T.view.branch;
    const res = await api('GET', `/games/${T.game}/branches` + asOnly(), undefined, { game: T.game });
    if (!res.ok) { box.textContent = ''; return; }
    const byParent = new Map();
    for (const b of res.data) {
      const p = b.parent || '';
      if (!byParent.has(p)) byParent.set(p, []);
      byParent.get(p).push(b);
    }
    const tree = (parent) => {
      const kids = byParent.get(parent) || [];
      if (!kids.length) return null;
      return el('ul', {}, kids.map((b) => el('li', {},
        b.name === T.view.branch ? el('b', { text: b.name }) : el('a', { href: `/g/${T.game}?branch=${encodeURIComponent(b.name)}`, title: 'continue from here', text: b.name }),
        b.title ? ` “${b.title}”` : '',
        ` head seq ${b.head_seq}`,
        b.fork_seq ? `, forked at ${b.fork_seq}` : '',
        b.taken_back ? ' · taken back' : '',
        b.name === T.view.summary.current ? ' · current line' : '',
        b.name === T.view.branch ? null : [' ', el('button', { type: 'button', class: 'quiet', onclick: () => compareWith(b.name) }, 'compare')],
        b.description ? el('p', { class: 'hint', text: b.description }) : null,
        (b.notes || []).length ? el('ul', { class: 'notes' }, b.notes.map((n) => el('li', {},
          el('a', { href: `/g/${T.game}?branch=${encodeURIComponent(b.name)}&at=${n.at}`, text: `seq ${n.at}` }), ' ',
          n.title ? el('b', { text: n.title }) : null, n.title && n.text ? ': ' : ' ',
          n.text, el('small', { text: ` (${n.by}${n.private ? ', private' : ''})` })))) : null,
        tree(b.name))));
    };
    const noted = res.data.some((b) => (b.notes || []).length);
    box.textContent = '';
    if (res.data.length < 2 && !noted) return;
    box.append(el('details', { open: true }, el('summary', { text: res.data.length < 2 ? 'Notes' : 'Branches and notes' }), tree('')),
      el('div', { id: 'compare' }));
  }

  // ------------------------------------------------------------ views

  // Whom this device shows the game to. The owner's page opens as the
  // table screen (what lies face up, for a screen everyone sees); the
  // owner's view, with every secret, is chosen by name, kept on this
  // device until changed, and marked on the page while it shows.
  const asKey = () => 'tt:as:' + T.game;
  function renderViews() {
    const v = T.view;
    document.body.classList.toggle('owner-view', v.viewer === 'owner');
    let box = $('#views');
    if (!v.owner) { if (box) box.remove(); return; }
    const current = v.viewer === 'owner' ? 'owner' : v.viewer === 'public' ? 'public' : String(v.seat);
    if (box && box.dataset.current === current) return;
    if (!box) {
      box = el('div', { id: 'views', role: 'group', 'aria-label': 'Show the game to' });
      $('#status').append(box);
    }
    box.dataset.current = current;
    box.textContent = '';
    const choice = (value, text) => el('button', {
      type: 'button',
      class: 'view-choice',
      'data-as': value,
      'aria-pressed': String(value === current),
      onclick: () => showAs(value),
    }, text);
    box.append(el('span', { text: 'Show: ' }), choice('public', 'Table screen'), ' ',
      ...v.summary.players.map((p, i) => [choice(String(i), p), ' ']).flat(),
      choice('owner', 'Everything (owner)'));
    if (current === 'owner') {
      box.append(el('p', { class: 'warning', role: 'note', text: 'Owner\'s view: every hand, face-down card and the seed show. Keep this screen to yourself.' }));
    }
  }

  function showAs(value) {
    T.as = value;
    store.set(asKey(), value);
    const p = new URLSearchParams(location.search);
    p.set('as', value);
    history.replaceState(null, '', location.pathname + '?' + p.toString());
    T.filter = null;
    follow();
    load();
  }

  // ----------------------------------------------------------- joining

  // The seats' links: kept by the browser that started the game, and given
  // again by the server to the owner's token on any other device.
  async function renderJoin() {
    const box = $('#join');
    if (!box || !T.view.owner || box.dataset.done) return;
    box.dataset.done = '1';
    let seats = store.get('tt:seats:' + T.game);
    if (!seats) {
      const res = await api('GET', `/games/${T.game}/seats`, undefined, { game: T.game, retry: false });
      if (!res.ok) return;
      seats = res.data;
      store.set('tt:seats:' + T.game, seats);
    }
    const local = /^(127\.|localhost|\[::1\])/.test(location.host);
    const list = el('ul', { class: 'join' });
    for (const s of seats) {
      const link = `${location.origin}/g/${T.game}#t=${s.token}`;
      const qr = el('div', { class: 'qr' });
      list.append(el('li', {},
        el('b', { text: s.player }), ` (seat ${s.seat}) `,
        el('button', { type: 'button', class: 'quiet', onclick: () => copy(link) }, 'Copy link'), ' ',
        el('button', {
          type: 'button',
          class: 'quiet',
          'aria-expanded': 'false',
          // A second tap hides the code again once the seat has joined.
          onclick: async (ev) => {
            const button = ev.currentTarget;
            if (qr.innerHTML) {
              qr.innerHTML = '';
              button.textContent = 'Show QR';
              button.setAttribute('aria-expanded', 'false');
              return;
            }
            const res = await api('POST', '/qr', { text: link });
            qr.innerHTML = res.ok ? res.data : '';
            button.textContent = 'Hide QR';
            button.setAttribute('aria-expanded', 'true');
          },
        }, 'Show QR'),
        qr));
    }
    box.append(el('details', {}, el('summary', { text: 'Join links for each seat' }),
      el('p', { class: 'hint', text: 'Each player opens their own link on their own phone: it shows only what that seat may see.' }),
      local ? el('p', { class: 'hint', text: 'This page is on the loopback address: phones cannot reach it. Start the server with --addr 0.0.0.0:7878 and open it by this machine\'s network address.' }) : null,
      list));
  }

  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      say('Link copied.');
    } catch (_) {
      prompt('Copy this link:', text);
    }
  }

  // -------------------------------------------------------------- live

  function follow() {
    if (T.source) T.source.close();
    if (typeof EventSource === 'undefined') return;
    const src = new EventSource(`/games/${T.game}/live` + query());
    T.source = src;
    const dot = $('#live');
    src.addEventListener('open', () => {
      if (dot) { dot.textContent = 'live'; dot.className = 'live on'; }
      // A stream that never carried an event starts at the head as the
      // server reads it when it connects, not where the page was: an event
      // written between the page's last read and that moment is never
      // sent. Read the table again each time the stream opens, the first
      // time included.
      if (T.at === null) reloadSoon();
    });
    src.addEventListener('error', () => { if (dot) { dot.textContent = 'reconnecting…'; dot.className = 'live off'; } });
    src.addEventListener('event', () => { if (T.at === null) reloadSoon(); });
    src.addEventListener('line', () => { if (!T.branch) reloadSoon(); });
  }

  // --------------------------------------------------------- keyboard

  function keys(ev) {
    if (ev.target.closest('input, textarea, select') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (/^[1-9]$/.test(ev.key)) {
      const b = document.querySelector(`button.choice[data-n="${ev.key}"]`);
      if (b) { ev.preventDefault(); b.click(); }
    } else if (ev.key === 'u') {
      const b = $('#undo');
      if (b) b.click();
    } else if (ev.key === 'r') {
      load();
    } else if (ev.key === 's') {
      location.href = `/g/${T.game}/story` + query();
    } else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
      const v = T.view;
      const s = Math.max(1, Math.min(v.head_seq, v.seq + (ev.key === 'ArrowLeft' ? -1 : 1)));
      T.at = s === v.head_seq ? null : s;
      load();
    } else if (ev.key === 'Escape') {
      $('#form').textContent = '';
      T.formFor = null;
      T.filter = null;
      renderLegal();
    } else if (ev.key === '?') {
      $('#keys').click();
    }
  }

  function showKeys() {
    const help = $('#key-help');
    if (help) { help.remove(); return; }
    document.body.append(el('aside', { id: 'key-help', class: 'keys' },
      el('h2', { text: 'Keys' }),
      el('ul', {},
        el('li', { text: '1–9: record that line' }),
        el('li', { text: 'u: take back the last entry' }),
        el('li', { text: '← →: step through the game' }),
        el('li', { text: 'r: refresh · s: the story · Esc: cancel' }))));
  }

  async function table() {
    const main = $('#table');
    T.game = main.dataset.game;
    const params = new URLSearchParams(location.search);
    T.branch = params.get('branch');
    T.at = params.get('at') ? Number(params.get('at')) : null;
    // Whom the page shows the game to: as asked in the address, else as
    // the owner chose on this device, else as the server drew the page
    // (the table screen for the owner, a seat's own view for its token).
    // A seat's link is never read otherwise than as that seat.
    const drawn = main.dataset.viewer || '';
    const seatDrawn = drawn.startsWith('seat ') ? drawn.slice(5) : null;
    T.as = params.get('as') || seatDrawn || store.get('tt:as:' + T.game) || drawn || null;
    const m = location.hash.match(/[#&]t=([0-9A-Za-z_-]+)/);
    if (m) {
      keepToken(T.game, m[1]);
      // The token leaves the address bar (and any screenshot of it).
      history.replaceState(null, '', location.pathname + location.search);
    }
    const token = store.get(tokenKey(T.game));
    if (token) keepToken(T.game, token);
    try { sessionStorage.removeItem('tt:retried:' + T.game); } catch (_) { /* private mode */ }
    $('#status').append(el('p', {}, el('span', { id: 'live', class: 'live off', text: 'connecting…' })));
    // A tap (or Enter, or Space) on a target narrows the list to it.
    const pickOn = (ev) => {
      const target = ev.target.closest('#board .target');
      if (!target || !T.view || !T.view.legal.length) return false;
      T.filter = pickOf(target);
      renderLegal();
      const first = $('#legal button.choice');
      if (first && ev.type === 'keydown') first.focus();
      return true;
    };
    $('#board').addEventListener('click', pickOn);
    window.addEventListener('resize', () => { legible(); if (T.view) renderLegal(); });
    $('#board').addEventListener('keydown', (ev) => {
      if ((ev.key === 'Enter' || ev.key === ' ') && pickOn(ev)) ev.preventDefault();
    });
    document.addEventListener('keydown', keys);
    // Verify in place: the result in words, not a JSON page.
    const verify = document.querySelector('#tools a[href*="/verify"]');
    if (verify) {
      verify.addEventListener('click', async (ev) => {
        ev.preventDefault();
        say('Verifying…');
        // Checked as this page shows the game (the table screen checks what the public may see).
        const res = await api('GET', `/games/${T.game}/verify` + asOnly(), undefined, { game: T.game });
        const r = res.data || {};
        const lines = r.branches || [];
        const bad = lines.find((b) => b.problem);
        const events = lines.reduce((n, b) => n + b.events, 0);
        const count = lines.length === 1 ? 'its one line' : `its ${lines.length} lines`;
        if (!res.ok) say(r.message || 'Not verified', true);
        else if (bad) say(`Verify found a problem on ${bad.branch} at seq ${bad.problem.seq}: ${bad.problem.what}`, true);
        else say(`Verified: ${events} events on ${count}, every hash and link checked` + (lines.every((b) => b.check === 'full') ? ' and every action re-decided.' : ' (the parts you may see).'));
      });
    }
    await resendPending();
    await load();
    if (T.view) remember(T.game, T.view.title, T.view.viewer);
    follow();
  }

  // --------------------------------------------------------------- start

  document.addEventListener('DOMContentLoaded', () => {
    const keysButton = $('#keys');
    if ($('#table')) {
      keysButton.hidden = false;
      keysButton.addEventListener('click', showKeys);
      table();
    } else if ($('#new-game')) {
      home();
    } else if ($('main.failure')) {
      // A private game opened without its cookie: the fragment carries the
      // token, so keep it and look again.
      const game = $('main.failure').dataset.game;
      const m = location.hash.match(/[#&]t=([0-9A-Za-z_-]+)/);
      const token = m ? m[1] : store.get(tokenKey(game));
      if (game && token && !sessionStorage.getItem('tt:retried:' + game)) {
        sessionStorage.setItem('tt:retried:' + game, '1');
        keepToken(game, token);
        // The server sets the read cookie, and the page looks again once it
        // has: a cookie written by script may reach the network after the
        // next page's request has left (which then fails again).
        fetch(`/g/${game}/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token }),
          redirect: 'manual',
        }).catch(() => {}).then(() => location.replace(location.pathname + location.search));
      }
    }
  });
})();
