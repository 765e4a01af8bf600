// An attack by the units the player ticks, where the game lets any set of the units able
// to attack a target make one (its module's attackGroup: BD 11.6). The panel lists every
// unit that may join, grouped by the hex it attacks from, each with a checkbox (a hex's
// own box ticks all of its units; the listed attacks tick theirs), the choices that go
// with the attack, and the game's preview of the ticked set with its Attack button.
import type { ActionInfo, AttackGroup } from '../games/game';
import { labelOf } from '../games/game';
import { h } from '../svg';
import { stackOf } from './actions';
import type { PlayContext } from './context';
import { showPreview } from './previews';

export interface GroupPick {
  units: string[];
  options: string[];
}

// Where the player starts: the listed attack without extra choices that takes the most
// units (the whole-hex forms together), else the first unit alone.
export function initialPick(g: AttackGroup, listed: ActionInfo[]): GroupPick {
  let best: GroupPick | null = null;
  for (const a of listed) {
    const p = g.parts(a.text);
    if (p && !p.options.length && p.units.length && (!best || p.units.length > best.units.length)) best = { units: [...p.units], options: [] };
  }
  return best ?? { units: g.units.slice(0, 1).map((u) => u.unit), options: [] };
}

// The units in groups by the location they attack from, in the order first listed; `where`
// places a unit the game gave no location for.
export function groupsByOrigin(g: AttackGroup, where: (unit: string) => string | undefined): { from: string; units: string[] }[] {
  const out: { from: string; units: string[] }[] = [];
  for (const u of g.units) {
    const from = u.from || where(u.unit) || '';
    const grp = out.find((x) => x.from === from);
    if (grp) grp.units.push(u.unit);
    else out.push({ from, units: [u.unit] });
  }
  return out;
}

// The listed attacks that stand for a set of more than one unit (the whole-hex forms),
// offered as starting points with their words ("All from 2017 2116 (8)"); the choices
// that go with an attack are the player's own, so only the forms without them.
export function presets(g: AttackGroup, listed: ActionInfo[]): { text: string; label: string; units: string[] }[] {
  const out: { text: string; label: string; units: string[] }[] = [];
  for (const a of listed) {
    const p = g.parts(a.text);
    if (p && p.units.length > 1 && !p.options.length) out.push({ text: a.text, label: `All from ${a.from.length ? a.from.join(' + ') : 'the listed hexes'} (${p.units.length})`, units: [...p.units] });
  }
  return out;
}

// The player's ticks for the current target and position (kept across redraws).
let state: { key: string; pick: GroupPick } | null = null;

// The panel of the attack on g.target by a ticked set; `listed` the listed attacks on it.
export function attackGroupBox(ctx: PlayContext, g: AttackGroup, listed: ActionInfo[]): HTMLElement {
  const target = g.target;
  const key = `${ctx.id}:${target}:${ctx.view.actions_count}`;
  if (!state || state.key !== key) state = { key, pick: initialPick(g, listed) };
  const pick = state.pick;
  const box = h('div', { class: 'attack-group', id: 'attack-group' });
  if (g.note) box.append(h('p', { class: 'hint' }, g.note));

  const boxes = new Map<string, HTMLInputElement>();
  const hexBoxes: { input: HTMLInputElement; units: string[] }[] = [];
  const optBoxes = new Map<string, HTMLInputElement>();
  const code = h('code', { id: 'group-action' }, '');
  const go = h('button', { class: 'primary', id: 'group-attack' }, 'Attack');
  const previewHost = h('div', { class: 'group-preview-body' });
  go.addEventListener('click', () => {
    const text = go.getAttribute('data-action');
    if (text) void ctx.act(text);
  });

  // Everything that follows the ticks: the hex boxes, the action, its preview.
  const update = () => {
    for (const [u, b] of boxes) b.checked = pick.units.includes(u);
    for (const [o, b] of optBoxes) b.checked = pick.options.includes(o);
    for (const hb of hexBoxes) {
      const n = hb.units.filter((u) => pick.units.includes(u)).length;
      hb.input.checked = n === hb.units.length;
      hb.input.indeterminate = n > 0 && n < hb.units.length;
    }
    const count = h('span', { class: 'group-count', id: 'group-count' }, `${pick.units.length} of ${g.units.length} unit${g.units.length === 1 ? '' : 's'} ticked`);
    if (!pick.units.length) {
      code.textContent = '';
      go.removeAttribute('data-action');
      go.setAttribute('disabled', '');
      previewHost.replaceChildren(count, h('p', { class: 'hint', id: 'group-empty' }, 'Tick at least one unit to attack.'));
      return;
    }
    const text = g.compose(pick.units, pick.options);
    code.textContent = labelOf(text);
    go.setAttribute('data-action', text);
    go.removeAttribute('disabled');
    // Fresh elements for each set: an answer for a set no longer ticked lands nowhere.
    const odds = h('span', { class: 'odds' }, '…');
    const detail = h('div', { class: 'combat-detail' });
    previewHost.replaceChildren(count, odds, detail);
    showPreview(ctx, text, target, odds, detail);
  };
  const toggle = (units: string[], on: boolean) => {
    pick.units = on ? [...pick.units, ...units.filter((u) => !pick.units.includes(u))] : pick.units.filter((u) => !units.includes(u));
    update();
  };

  const starts = presets(g, listed);
  if (starts.length) {
    const row = h('div', { class: 'group-presets', id: 'group-presets' }, h('span', {}, 'Tick: '));
    for (const s of starts) {
      const b = h('button', { class: 'preset', 'data-pick': s.text, title: labelOf(s.text) }, s.label);
      b.addEventListener('click', () => {
        pick.units = [...s.units];
        update();
      });
      row.append(b);
    }
    box.append(row);
  }

  for (const grp of groupsByOrigin(g, (u) => stackOf(ctx, u)?.hex)) {
    const hexBox = h('input', { type: 'checkbox', 'data-hex': grp.from, 'aria-label': `All units attacking from ${grp.from || 'their hexes'}` });
    hexBox.addEventListener('change', () => toggle(grp.units, hexBox.checked));
    hexBoxes.push({ input: hexBox, units: grp.units });
    const place = ctx.map.byId.get(grp.from)?.name;
    const fs = h('fieldset', { class: 'group-hex', 'data-from': grp.from }, h('legend', {}, h('label', {}, hexBox, ` From ${grp.from || '?'}${place ? ` (${place})` : ''}`)));
    const st = stackOf(ctx, grp.units[0]);
    for (const u of grp.units) {
      const c = st?.units.find((x) => x.label === u) ?? stackOf(ctx, u)?.units.find((x) => x.label === u);
      const b = h('input', { type: 'checkbox', 'data-unit': u });
      b.addEventListener('change', () => toggle([u], b.checked));
      boxes.set(u, b);
      fs.append(
        h(
          'label',
          { class: 'group-unit' },
          b,
          ' ',
          h('strong', {}, c?.display ?? u),
          c?.name ? ` ${c.name}` : '',
          c?.attack !== undefined && c?.defense !== undefined ? h('span', { class: 'factors' }, ` ${c.attack}-${c.defense}`) : '',
          c?.type ? h('span', { class: 'hint' }, ` ${c.type.replace(/-/g, ' ')}`) : '',
        ),
      );
    }
    box.append(fs);
  }

  if (g.options.length) {
    const fs = h('fieldset', { class: 'group-options' }, h('legend', {}, 'With'));
    for (const o of g.options) {
      const b = h('input', { type: 'checkbox', 'data-option': o.id });
      b.addEventListener('change', () => {
        pick.options = b.checked ? [...pick.options.filter((x) => x !== o.id), o.id] : pick.options.filter((x) => x !== o.id);
        update();
      });
      optBoxes.set(o.id, b);
      fs.append(h('label', { class: 'group-option' }, b, ` ${o.label}`, o.rule ? h('span', { class: 'rule', title: 'Rule section' }, ` §${o.rule}`) : ''));
    }
    box.append(fs);
  }

  box.append(h('div', { class: 'group-go' }, code, go, previewHost));
  update();
  return box;
}
