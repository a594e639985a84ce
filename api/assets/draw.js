// Drawing a Legless in London board by tapping a grid. The page knows the
// pack's shape (rows of squares: `.` a street, `*` a street with a Street
// Event symbol, `#` ground no one walks on, a capital letter a location's
// square), not the game's rules: the server reads the pack when a game
// starts on it and names any error by its place in the file.
'use strict';

(() => {
  const root = document.getElementById('draw');
  if (!root) return;
  const start = JSON.parse(root.dataset.start);
  const out = document.getElementById('drawn-pack');
  const save = document.getElementById('save-pack');

  // The board as squares, and which location each letter stands for.
  let rows = start.board.rows.map((r) => [...r]);
  const letterOf = {};
  for (const [letter, id] of Object.entries(start.board.key)) letterOf[id] = letter;
  const locations = start.locations;
  const starts = Object.fromEntries(start.characters.map((c) => [c.name, c.start]));
  let tool = { kind: 'street' };

  const square = (r, c) => String.fromCharCode(97 + c) + (r + 1);
  const nameOf = (id) => (locations.find((l) => l.id === id) || { name: id }).name;
  // A location's letter: its own, or the first one free.
  function letterFor(id) {
    if (letterOf[id]) return letterOf[id];
    const used = new Set(Object.values(letterOf));
    for (let k = 0; k < 26; k++) {
      const l = String.fromCharCode(65 + k);
      if (!used.has(l)) return (letterOf[id] = l);
    }
    return null;
  }

  function el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') n.textContent = v;
      else if (k.startsWith('on')) n.addEventListener(k.slice(2), v);
      else n.setAttribute(k, v);
    }
    n.append(...kids.filter((k) => k != null));
    return n;
  }

  // What to lay, in the box's words: a street, a Street Event symbol,
  // ground, a location, or a character's start.
  const tools = el('div', { class: 'tools', role: 'group', 'aria-label': 'what a tap lays' });
  const choices = [
    { kind: 'street', label: 'Street' },
    { kind: 'event', label: 'Street Event symbol' },
    { kind: 'ground', label: 'Ground (no street)' },
    ...locations.map((l) => ({ kind: 'location', id: l.id, label: l.name })),
    ...Object.keys(starts).map((name) => ({ kind: 'start', name, label: `${name} starts here` })),
  ];
  for (const t of choices) {
    tools.append(el('button', {
      type: 'button',
      class: 'chip',
      'aria-pressed': String(t.kind === tool.kind && !t.id && !t.name),
      onclick: (ev) => {
        tool = t;
        for (const b of tools.children) b.setAttribute('aria-pressed', 'false');
        ev.currentTarget.setAttribute('aria-pressed', 'true');
      },
    }, t.label));
  }
  const grid = el('div', { class: 'grid', role: 'grid', 'aria-label': 'the board' });
  const legend = el('p', { class: 'hint legend' });
  root.append(tools, grid, legend);

  function lay(r, c) {
    const here = rows[r][c];
    if (tool.kind === 'street') rows[r][c] = '.';
    else if (tool.kind === 'event') rows[r][c] = '*';
    else if (tool.kind === 'ground') rows[r][c] = '#';
    else if (tool.kind === 'location') {
      const l = letterFor(tool.id);
      if (l) rows[r][c] = l;
    } else if (tool.kind === 'start') {
      starts[tool.name] = square(r, c);
    }
    if (here !== rows[r][c] || tool.kind === 'start') draw();
  }

  function draw() {
    const startAt = {};
    for (const [name, sq] of Object.entries(starts)) (startAt[sq] = startAt[sq] || []).push(name);
    const idOf = Object.fromEntries(Object.entries(letterOf).map(([id, l]) => [l, id]));
    grid.textContent = '';
    grid.style.gridTemplateColumns = `repeat(${rows[0].length}, 1fr)`;
    rows.forEach((row, r) => row.forEach((ch, c) => {
      const sq = square(r, c);
      const id = idOf[ch];
      const what = ch === '.' ? 'street' : ch === '*' ? 'street, Street Event symbol'
        : ch === '#' ? 'ground' : id ? nameOf(id) : 'ground';
      const who = startAt[sq] ? `, start of ${startAt[sq].join(' and ')}` : '';
      grid.append(el('button', {
        type: 'button',
        id: 'sq-' + sq,
        class: 'sq ' + (ch === '.' || ch === '*' ? 'street' : id ? 'location' : 'ground'),
        'aria-label': `${sq}: ${what}${who}`,
        onclick: () => lay(r, c),
      }, ch === '*' ? '★' : id ? ch : startAt[sq] ? '●' : ''));
    }));
    // Each letter on the board, in words.
    legend.textContent = Object.entries(idOf)
      .filter(([l]) => rows.some((row) => row.includes(l)))
      .sort()
      .map(([l, id]) => `${l} ${nameOf(id)}`)
      .join(' · ') + ' · ★ Street Event symbol · ● a start';
    write();
  }

  // The pack file: the drawn board whole, the characters' start squares
  // laid over the bundled characters, everything else as bundled.
  function write() {
    const used = new Set(rows.flat());
    const key = {};
    for (const [id, l] of Object.entries(letterOf)) if (used.has(l)) key[l] = id;
    const pack = {
      '//': 'A board drawn on the Tabletape page: laid over the bundled pack.',
      whole: ['board'],
      board: { name: 'Our board', rows: rows.map((r) => r.join('')), key },
      characters: Object.entries(starts).map(([name, sq]) => ({ name, start: sq })),
    };
    out.value = JSON.stringify(pack, null, 1);
    save.href = 'data:application/json;charset=utf-8,' + encodeURIComponent(out.value + '\n');
  }

  // A game started here is a Legless game.
  const kind = document.getElementById('kind');
  if (kind) {
    kind.value = 'legless';
    kind.dispatchEvent(new Event('change'));
  }
  draw();
})();
