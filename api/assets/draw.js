// Drawing a board by tapping: a Legless in London board (rows of squares:
// `.` a street, `*` a street with a Street Event symbol, `#` ground no one
// walks on, a capital letter a location's square) or a Lost Worlds
// scenario's map (rows of spaces, every other row set half a space over:
// `0`-`9` open ground at that level, `2s` a step up to it, `W` a wall, `P`
// a pillar, with its figures and objects on their spaces). The page knows
// the pack's shape, not the game's rules: the server reads the pack when a
// game starts on it and names any mistake by its place in the file.
'use strict';

(() => {
  const root = document.getElementById('draw');
  if (!root) return;
  const start = JSON.parse(root.dataset.start);
  const out = document.getElementById('drawn-pack');
  const save = document.getElementById('save-pack');

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

  const square = (r, c) => String.fromCharCode(97 + c) + (r + 1);

  // What a tap lays: one tool pressed at a time.
  function toolbar(choices, onPick) {
    const bar = el('div', { class: 'tools', role: 'group', 'aria-label': 'what a tap lays' });
    choices.forEach((t, i) => {
      bar.append(el('button', {
        type: 'button',
        class: 'chip',
        'aria-pressed': String(i === 0),
        onclick: (ev) => {
          for (const b of bar.children) b.setAttribute('aria-pressed', 'false');
          ev.currentTarget.setAttribute('aria-pressed', 'true');
          onPick(t);
        },
      }, t.label));
    });
    onPick(choices[0]);
    return bar;
  }

  function writePack(pack) {
    out.value = JSON.stringify(pack, null, 1);
    save.href = 'data:application/json;charset=utf-8,' + encodeURIComponent(out.value + '\n');
  }

  // A game started here is of the drawing's kind.
  function kindIs(kind) {
    const select = document.getElementById('kind');
    if (!select) return;
    select.value = kind;
    select.dispatchEvent(new Event('change'));
  }

  // ------------------------------------------------- Legless in London

  function legless() {
    const rows = start.board.rows.map((r) => [...r]);
    const letterOf = {};
    for (const [letter, id] of Object.entries(start.board.key)) letterOf[id] = letter;
    const locations = start.locations;
    const starts = Object.fromEntries(start.characters.map((c) => [c.name, c.start]));
    let tool;
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
    const tools = toolbar([
      { kind: 'street', label: 'Street' },
      { kind: 'event', label: 'Street Event symbol' },
      { kind: 'ground', label: 'Ground (no street)' },
      ...locations.map((l) => ({ kind: 'location', id: l.id, label: l.name })),
      ...Object.keys(starts).map((name) => ({ kind: 'start', name, label: `${name} starts here` })),
    ], (t) => { tool = t; });
    const grid = el('div', { class: 'grid', role: 'group', 'aria-label': 'the board' });
    const legend = el('p', { class: 'hint legend' });
    root.append(tools, grid, legend);

    function lay(r, c) {
      if (tool.kind === 'street') rows[r][c] = '.';
      else if (tool.kind === 'event') rows[r][c] = '*';
      else if (tool.kind === 'ground') rows[r][c] = '#';
      else if (tool.kind === 'location') rows[r][c] = letterFor(tool.id) || rows[r][c];
      else if (tool.kind === 'start') starts[tool.name] = square(r, c);
      draw();
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
        const what = ch === '.' ? 'street' : ch === '*' ? 'street, Street Event symbol' : id ? nameOf(id) : 'ground';
        const who = startAt[sq] ? `, start of ${startAt[sq].join(' and ')}` : '';
        grid.append(el('button', {
          type: 'button',
          id: 'sq-' + sq,
          class: 'sq ' + (ch === '.' || ch === '*' ? 'street' : id ? 'location' : 'ground'),
          'aria-label': `${sq}: ${what}${who}`,
          onclick: () => lay(r, c),
        }, ch === '*' ? '★' : id ? ch : startAt[sq] ? '●' : ''));
      }));
      legend.textContent = Object.entries(idOf)
        .filter(([l]) => rows.some((row) => row.includes(l)))
        .sort()
        .map(([l, id]) => `${l} ${nameOf(id)}`)
        .join(' · ') + ' · ★ Street Event symbol · ● a start';
      // The board whole, the starts laid over the bundled characters,
      // everything else as bundled.
      const used = new Set(rows.flat());
      const key = {};
      for (const [id, l] of Object.entries(letterOf)) if (used.has(l)) key[l] = id;
      writePack({
        '//': 'A board drawn on the Tabletape page: laid over the bundled pack.',
        whole: ['board'],
        board: { name: 'Our board', rows: rows.map((r) => r.join('')), key },
        characters: Object.entries(starts).map(([name, sq]) => ({ name, start: sq })),
      });
    }
    kindIs('legless');
    draw();
  }

  // --------------------------------------------------------- Lost Worlds

  function lostworlds() {
    const nameOf = (id) => (start.characters.find((c) => c.id === id) || { name: id }).name;
    let scenario;
    let map;
    let tool;
    const picker = el('p', {}, 'Start from: ');
    const id = el('input', { id: 'scenario-id', autocomplete: 'off', 'aria-label': 'the scenario\'s id' });
    const title = el('input', { id: 'scenario-title', autocomplete: 'off', 'aria-label': 'the scenario\'s title' });
    const named = el('p', {}, el('label', { for: 'scenario-title' }, 'Title '), title, ' ', el('label', { for: 'scenario-id' }, 'id '), id);
    const tools = el('div');
    const grid = el('div', { class: 'hexes', role: 'group', 'aria-label': 'the map' });
    root.append(picker, named, tools, grid, el('p', { class: 'hint', text: 'Levels 0 to 3; a step leads up to its level. ▲ a figure · ■ an object' }));
    id.addEventListener('input', draw);
    title.addEventListener('input', draw);

    function from(s) {
      scenario = JSON.parse(JSON.stringify(s));
      scenario.sample = false;
      map = scenario.map.map((row) => row.split(' '));
      id.value = 'our-' + s.id;
      title.value = 'Our ' + s.title.replace(/^The /, '').toLowerCase();
      const figures = scenario.sides.flatMap((side, si) => side.figures.map((f, fi) => ({
        kind: 'figure', si, fi, label: `${nameOf(f.character)} (${side.name}) stands here`,
      })));
      const objects = (scenario.objects || []).map((o, oi) => ({ kind: 'object', oi, label: `the ${o.id} goes here` }));
      tools.textContent = '';
      tools.append(toolbar([
        ...['0', '1', '2', '3'].map((t) => ({ kind: 'ground', token: t, label: `Open, level ${t}` })),
        ...['1s', '2s', '3s'].map((t) => ({ kind: 'ground', token: t, label: `Step up to ${t[0]}` })),
        { kind: 'ground', token: 'W', label: 'Wall' },
        { kind: 'ground', token: 'P', label: 'Pillar' },
        ...figures,
        ...objects,
      ], (t) => { tool = t; }));
      draw();
    }

    for (const s of start.scenarios) {
      picker.append(el('button', { type: 'button', class: 'chip', onclick: () => from(s) }, s.title), ' ');
    }

    function lay(r, c) {
      const at = square(r, c);
      if (tool.kind === 'ground') map[r][c] = tool.token;
      else if (tool.kind === 'figure') scenario.sides[tool.si].figures[tool.fi].at = at;
      else if (tool.kind === 'object') scenario.objects[tool.oi].at = at;
      draw();
    }

    function draw() {
      const on = {};
      scenario.sides.forEach((side) => side.figures.forEach((f) => { (on[f.at] = on[f.at] || []).push(`${nameOf(f.character)} (${side.name})`); }));
      const things = {};
      for (const o of scenario.objects || []) (things[o.at] = things[o.at] || []).push(o.id);
      grid.textContent = '';
      map.forEach((row, r) => {
        // Every other row half a space over, as the map's rows lie.
        const line = el('div', { class: 'hexrow' });
        if (r % 2) line.style.paddingLeft = `calc(50% / ${row.length})`;
        row.forEach((token, c) => {
          const at = square(r, c);
          const what = token === 'W' ? 'wall' : token === 'P' ? 'pillar'
            : token.endsWith('s') ? `step up to level ${token[0]}` : `open, level ${token}`;
          const here = [...(on[at] || []), ...(things[at] || []).map((t) => `the ${t}`)];
          const shown = on[at] ? '▲' : things[at] ? '■' : token;
          // The name starts with what the space shows, as a reader sees it.
          line.append(el('button', {
            type: 'button',
            id: 'hex-' + at,
            class: 'hex ' + (token === 'W' || token === 'P' ? 'solid' : 'level' + token[0]),
            'aria-label': `${shown} ${at}: ${what}${here.length ? ', ' + here.join(', ') : ''}`,
            onclick: () => lay(r, c),
          }, shown));
        });
        grid.append(line);
      });
      const drawn = { ...scenario, id: id.value.trim(), title: title.value.trim(), map: map.map((row) => row.join(' ')) };
      writePack({ '//': 'A scenario drawn on the Tabletape page: added to the bundled pack.', scenarios: [drawn] });
      const option = document.getElementById('opt.lostworlds.scenario');
      if (option) option.value = drawn.id;
    }
    kindIs('lostworlds');
    from(start.scenarios[0]);
  }

  if (root.dataset.kind === 'lostworlds') lostworlds();
  else legless();
})();
