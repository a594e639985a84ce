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
        ...(t.data || {}),
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

  // The grid's size: a row or a column more or fewer, at the bottom and
  // the right. A row or column with something on it is not taken away.
  // (26 at most: columns are named by letter.)
  function sizer(grid, blank, holds, redraw) {
    const note = el('span', { class: 'hint', role: 'status' });
    const more = (what, fn) => el('button', { type: 'button', class: 'chip', onclick: () => { note.textContent = fn() || ''; redraw(); } }, what);
    return el('p', { class: 'size', role: 'group', 'aria-label': 'the size of the grid' },
      more('Row +', () => {
        if (grid.length >= 26) return 'At most 26 rows.';
        grid.push(grid[0].map(() => blank));
      }),
      more('Row −', () => {
        if (grid.length <= 2) return 'At least 2 rows.';
        if (holds(grid.length - 1, null)) return 'Something stands on the last row: move it first.';
        grid.pop();
      }),
      more('Column +', () => {
        if (grid[0].length >= 26) return 'At most 26 columns.';
        for (const row of grid) row.push(blank);
      }),
      more('Column −', () => {
        if (grid[0].length <= 2) return 'At least 2 columns.';
        if (holds(null, grid[0].length - 1)) return 'Something stands on the last column: move it first.';
        for (const row of grid) row.pop();
      }),
      note);
  }

  // Whether a square named like `c3` lies on row `r` or column `c`.
  const onLine = (sq, r, c) => (r !== null && Number(sq.slice(1)) === r + 1) || (c !== null && sq.charCodeAt(0) - 97 === c);

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
    const locations = start.locations.map((l) => ({ ...l, spaces: [...(l.spaces || [])] }));
    const bundled = Object.fromEntries(start.locations.map((l) => [l.id, `${l.name}|${(l.spaces || []).join(',')}`]));
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
      ...locations.map((l) => ({ kind: 'location', id: l.id, label: l.name, data: { 'data-location': l.id } })),
      ...Object.keys(starts).map((name) => ({ kind: 'start', name, label: `${name} starts here` })),
    ], (t) => { tool = t; });
    // Each location as the table's box names it, and the victory spaces
    // printed at it (a box has the same fifteen, under its own names).
    const spaces = el('details', { class: 'spaces' }, el('summary', { text: 'Locations: their names and victory spaces' }));
    locations.forEach((l, i) => {
      const name = el('input', { id: `location-${i}`, autocomplete: 'off', maxlength: '60', value: l.name });
      name.addEventListener('input', () => {
        l.name = name.value.trim() || l.name;
        for (const b of tools.querySelectorAll(`[data-location="${l.id}"]`)) b.textContent = l.name;
        draw();
      });
      const row = el('p', { role: 'group', 'aria-label': `location ${i + 1}` }, el('label', { for: name.id, text: `Location ${i + 1} ` }), name, ' ');
      for (const kind of ['love', 'property', 'personal']) {
        row.append(el('button', {
          type: 'button',
          class: 'chip',
          'aria-label': `${kind} space`,
          'aria-pressed': String(l.spaces.includes(kind)),
          onclick: (ev) => {
            l.spaces = l.spaces.includes(kind) ? l.spaces.filter((k) => k !== kind) : [...l.spaces, kind];
            ev.currentTarget.setAttribute('aria-pressed', String(l.spaces.includes(kind)));
            draw();
          },
        }, kind), ' ');
      }
      spaces.append(row);
    });
    const grid = el('div', { class: 'grid', role: 'group', 'aria-label': 'the board' });
    const legend = el('p', { class: 'hint legend' });
    // A location's square or a start holds its line; a street does not.
    const size = sizer(rows, '#', (r, c) => rows.some((row, ri) => row.some((ch, ci) => /[A-Z]/.test(ch) && ((r !== null && ri === r) || (c !== null && ci === c))))
      || Object.values(starts).some((sq) => onLine(sq, r, c)), () => draw());
    root.append(tools, spaces, size, grid, legend);

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
        // The locations the table renamed or gave other victory spaces.
        locations: locations.filter((l) => bundled[l.id] !== `${l.name}|${l.spaces.join(',')}`),
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
    let goals = [];
    const GOALS = [
      ['defeat_all', 'defeat every opponent'],
      ['reach', 'reach a goal space'],
      ['carry', 'carry an object to a goal space'],
      ['hold', 'hold out to the last turn'],
    ];
    const picker = el('p', {}, 'Start from: ');
    const id = el('input', { id: 'scenario-id', autocomplete: 'off', 'aria-label': 'the scenario\'s id' });
    const title = el('input', { id: 'scenario-title', autocomplete: 'off', 'aria-label': 'the scenario\'s title' });
    const named = el('p', {}, el('label', { for: 'scenario-title' }, 'Title '), title, ' ', el('label', { for: 'scenario-id' }, 'id '), id);
    const tools = el('div');
    const sides = el('div', { class: 'sides' });
    const size = el('div');
    const grid = el('div', { class: 'hexes', role: 'group', 'aria-label': 'the map' });
    const turns = el('input', { id: 'scenario-turns', type: 'number', inputmode: 'numeric', min: '1', max: '99' });
    root.append(picker, named, el('p', {}, el('label', { for: 'scenario-turns' }, 'Turns at most '), turns), sides, tools, size, grid,
      el('p', { class: 'hint', text: 'Levels 0 to 3; a step leads up to its level. ▲ a figure · ■ an object · a green ring a goal space' }));
    id.addEventListener('input', draw);
    title.addEventListener('input', draw);
    turns.addEventListener('input', draw);

    function from(s) {
      scenario = JSON.parse(JSON.stringify(s));
      scenario.sample = false;
      map = scenario.map.map((row) => row.split(' '));
      id.value = 'our-' + s.id;
      title.value = 'Our ' + s.title.replace(/^The /, '').toLowerCase();
      const figures = scenario.sides.flatMap((side, si) => side.figures.map((f, fi) => ({
        kind: 'figure', si, fi, label: `${nameOf(f.character)} (${side.name}) stands here`,
        data: { 'data-side': String(si), 'data-character': f.character },
      })));
      const objects = (scenario.objects || []).map((o, oi) => ({ kind: 'object', oi, label: `the ${o.id} goes here` }));
      turns.value = scenario.turn_limit || '';
      // Each side's name, its goal (and the spaces it names, tapped on the
      // map with the side's goal tool) and the victory points it is worth.
      goals = scenario.sides.map((side) => ({
        kind: side.goal.kind,
        object: side.goal.object || (scenario.objects || [])[0]?.id || '',
        spaces: [...(side.goal.spaces || side.goal.to || [])],
      }));
      sides.textContent = '';
      scenario.sides.forEach((side, si) => {
        const name = el('input', { id: `side-${si}-name`, autocomplete: 'off', value: side.name });
        const points = el('input', { id: `side-${si}-points`, type: 'number', inputmode: 'numeric', min: '0', max: '99', value: String(side.points) });
        name.addEventListener('input', () => {
          side.name = name.value.trim();
          for (const b of tools.querySelectorAll(`[data-side="${si}"]`)) b.textContent = `${nameOf(b.dataset.character)} (${side.name}) stands here`;
          draw();
        });
        points.addEventListener('input', () => { side.points = Number(points.value); draw(); });
        const kind = el('select', { id: `side-${si}-goal` }, ...GOALS.map(([value, words]) => el('option', { value, text: words })));
        kind.value = goals[si].kind;
        kind.addEventListener('change', () => { goals[si].kind = kind.value; draw(); });
        const object = el('select', { id: `side-${si}-object`, 'aria-label': 'the object to carry' },
          ...(scenario.objects || []).map((o) => el('option', { value: o.id, text: 'the ' + o.id })));
        object.value = goals[si].object;
        object.addEventListener('change', () => { goals[si].object = object.value; draw(); });
        sides.append(el('p', {}, el('label', { for: name.id }, `Side ${si + 1} `), name, ' ',
          el('label', { for: points.id }, 'points '), points, ' ',
          el('label', { for: kind.id }, 'goal '), kind, ' ', object));
      });
      size.textContent = '';
      size.append(sizer(map, '0', (r, c) => scenario.sides.some((side) => side.figures.some((f) => onLine(f.at, r, c)))
        || (scenario.objects || []).some((o) => onLine(o.at, r, c)), () => draw()));
      tools.textContent = '';
      tools.append(toolbar([
        ...['0', '1', '2', '3'].map((t) => ({ kind: 'ground', token: t, label: `Open, level ${t}` })),
        ...['1s', '2s', '3s'].map((t) => ({ kind: 'ground', token: t, label: `Step up to ${t[0]}` })),
        { kind: 'ground', token: 'W', label: 'Wall' },
        { kind: 'ground', token: 'P', label: 'Pillar' },
        ...figures,
        ...objects,
        ...scenario.sides.map((side, si) => ({ kind: 'goal', si, label: `a goal space of side ${si + 1}` })),
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
      else if (tool.kind === 'goal') {
        const g = goals[tool.si].spaces;
        goals[tool.si].spaces = g.includes(at) ? g.filter((x) => x !== at) : [...g, at];
      }
      draw();
    }

    function draw() {
      // Each side's goal as the scenario writes it.
      scenario.sides.forEach((side, si) => {
        const g = goals[si];
        side.goal = g.kind === 'reach' ? { kind: 'reach', spaces: g.spaces }
          : g.kind === 'carry' ? { kind: 'carry', object: g.object, to: g.spaces }
            : { kind: g.kind };
        const object = document.getElementById(`side-${si}-object`);
        if (object) object.hidden = g.kind !== 'carry';
      });
      const goalOf = {};
      scenario.sides.forEach((side, si) => {
        if (['reach', 'carry'].includes(goals[si].kind)) for (const at of goals[si].spaces) (goalOf[at] = goalOf[at] || []).push(side.name);
      });
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
          const here = [...(on[at] || []), ...(things[at] || []).map((t) => `the ${t}`),
            ...(goalOf[at] || []).map((side) => `a goal of ${side}`)];
          const shown = on[at] ? '▲' : things[at] ? '■' : token;
          // The name starts with what the space shows, as a reader sees it.
          line.append(el('button', {
            type: 'button',
            id: 'hex-' + at,
            class: 'hex ' + (token === 'W' || token === 'P' ? 'solid' : 'level' + token[0]) + (goalOf[at] ? ' goal' : ''),
            'aria-label': `${shown} ${at}: ${what}${here.length ? ', ' + here.join(', ') : ''}`,
            onclick: () => lay(r, c),
          }, shown));
        });
        grid.append(line);
      });
      const drawn = { ...scenario, id: id.value.trim(), title: title.value.trim(), map: map.map((row) => row.join(' ')) };
      if (turns.value !== '') drawn.turn_limit = Number(turns.value);
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
