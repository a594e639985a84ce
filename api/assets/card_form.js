// Record mode on the table page: a card the table meets for the first
// time, typed by tapping. Served in one script with app.js (this first):
// `cardFormsWith(el, $)` gives app.js its `cardForms`, built from the
// page's own element helpers. Like app.js, it knows no game: the shapes
// come from `legal` (`typed`).
'use strict';

function cardFormsWith(el, $) {
  // A card the table meets for the first time, typed by tapping: a small
  // form for each kind of card the field may take, built from the shape
  // `legal` gives (the page knows no card). "Add" writes the card into the
  // field as JSON, after what is there when the field takes a list.
  function cardForms(typed, input) {
    const open = el('div', {});
    const buttons = typed.shapes.map((shape) => el('button', {
      type: 'button',
      class: 'chip',
      onclick: () => {
        open.textContent = '';
        open.append(cardForm(shape, (card) => {
          const text = JSON.stringify(card);
          const now = input.value.trim();
          input.value = typed.many && now ? now + ', ' + text : text;
          open.textContent = '';
          input.focus();
        }));
        $('input, select', open)?.focus();
      },
    }, 'New ' + shape.label));
    return el('div', { class: 'typed' }, el('div', { class: 'picker', role: 'group', 'aria-label': 'type a new card' }, buttons), open);
  }

  let shapeIds = 0;

  // One input of a card's shape: its nodes, and how to read it (undefined
  // when left empty).
  function shapeInput(label, input) {
    const id = 'shape-' + (++shapeIds);
    const labelled = (node) => [el('label', { for: id, text: label }), node];
    if (input.type === 'number') {
      const i = el('input', { id, type: 'number', inputmode: 'numeric', min: input.min, max: input.max });
      return { nodes: labelled(i), focus: i, read: () => (i.value === '' ? undefined : Number(i.value)) };
    }
    if (input.type === 'one_of') {
      const i = el('select', { id }, el('option', { value: '', text: '—' }),
        input.values.map((v) => el('option', { value: v, text: v })));
      return { nodes: labelled(i), focus: i, read: () => i.value || undefined };
    }
    if (input.type === 'some_of') {
      // Each tap adds one (a card may show an icon twice); the list shows.
      const chosen = [];
      const shown = el('output', { id, class: 'chosen' });
      const show = () => { shown.textContent = chosen.join(', ') || '—'; };
      show();
      const chips = input.values.map((v) => el('button', {
        type: 'button', class: 'chip', onclick: () => { chosen.push(v); show(); },
      }, v));
      const clear = el('button', { type: 'button', class: 'quiet', onclick: () => { chosen.length = 0; show(); } }, 'clear');
      return {
        nodes: [el('label', { for: id, text: label }), ' ', shown, el('div', { class: 'picker', role: 'group', 'aria-label': label }, chips, clear)],
        focus: chips[0],
        read: () => (chosen.length ? [...chosen] : undefined),
      };
    }
    const i = el('input', { id, autocomplete: 'off', maxlength: 2000 });
    return { nodes: labelled(i), focus: i, read: () => i.value.trim() || undefined };
  }

  // A list of entries (a reverse's outcomes), one fieldset each and one
  // more on a tap. A part named `effect.icons` goes into the entry's
  // `effect`, and such parts fold away; an entry left empty is left out.
  function rowsInput(box, f, label) {
    const list = el('div', { class: 'rows' });
    const rows = [];
    const addRow = () => {
      const n = rows.length + 1;
      const row = el('fieldset', { class: 'row', 'aria-label': `${f.label} ${n}` }, el('p', { class: 'what', text: `${f.label} ${n}` }));
      let inner = null;
      const inputs = f.parts.map((p) => {
        const one = shapeInput(p.label, p.input);
        if (p.name.includes('.')) {
          if (!inner) row.append(inner = el('details', {}, el('summary', { text: 'What it does' })));
          inner.append(...one.nodes);
        } else row.append(...one.nodes);
        return [p.name, one];
      });
      rows.push(inputs);
      list.append(row);
      inputs[0][1].focus?.focus();
    };
    box.append(el('p', { class: 'what', text: label }), list,
      el('button', { type: 'button', class: 'chip', onclick: addRow }, `One more ${f.label.toLowerCase()}`));
    addRow();
    return {
      f,
      focus: list,
      read: () => {
        const out = [];
        for (const inputs of rows) {
          const entry = {};
          for (const [name, one] of inputs) {
            const v = one.read();
            if (v === undefined) continue;
            const [outer, part] = name.split('.');
            if (part) (entry[outer] = entry[outer] || {})[part] = v;
            else entry[outer] = v;
          }
          if (Object.keys(entry).length) out.push(entry);
        }
        return out.length ? out : undefined;
      },
    };
  }

  function cardForm(shape, done) {
    const title = 'New ' + shape.label;
    const box = el('fieldset', { class: 'card-form', 'aria-label': title }, el('p', { class: 'what', text: title }));
    const reads = shape.fields.map((f) => {
      const label = f.label + (f.optional ? ' (optional)' : '');
      if (f.input.type === 'rows') return rowsInput(box, f, label);
      if (f.input.type !== 'parts') {
        const one = shapeInput(label, f.input);
        box.append(...one.nodes);
        return { f, read: one.read, focus: one.focus };
      }
      // An effect: its parts folded away, each left out when empty.
      const parts = el('details', {}, el('summary', { text: label }));
      const inputs = f.parts.map((p) => {
        const one = shapeInput(p.label, p.input);
        parts.append(...one.nodes);
        return [p.name, one];
      });
      box.append(parts);
      return {
        f,
        focus: parts,
        read: () => {
          const out = {};
          for (const [name, one] of inputs) {
            const v = one.read();
            if (v !== undefined) out[name] = v;
          }
          return Object.keys(out).length || !f.optional ? out : undefined;
        },
      };
    });
    const missing = el('p', { class: 'error', role: 'alert' });
    box.append(missing, el('button', {
      type: 'button',
      onclick: () => {
        const card = {};
        for (const { f, read, focus } of reads) {
          const v = read();
          if (v === undefined && !f.optional) {
            missing.textContent = f.label + ' is needed.';
            focus.focus();
            return;
          }
          if (v !== undefined) card[f.name] = v;
        }
        // A shape with no key is the object itself (a card's reverse).
        done(shape.key ? { [shape.key]: card } : card);
      },
    }, 'Add the ' + shape.label));
    return box;
  }

  return cardForms;
}
