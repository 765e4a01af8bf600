// The side panels: the hex (or area) under the cursor with its stack, the game's own
// panels (games/<id>.ts: reinforcements, off-map boxes), and the VP and losses plots; and
// the read-out of a location for the screen reader.
import { api } from '../api';
import { describeCounter, SIDE_COLORS, supplyDescription } from '../counters';
import { cap, PlayHooks } from '../games/game';
import { describeHex } from '../mapview';
import { h } from '../svg';
import { lossPlot, vpPlot } from '../vpplot';
import { legal, stackAt } from './actions';
import type { PlayContext } from './context';
import { announce } from './context';

// What the page lends the game's own panels.
export function hooks(ctx: PlayContext): PlayHooks {
  return {
    view: ctx.view,
    map: ctx.map,
    sides: ctx.sides,
    data: ctx.data,
    stacks: ctx.stacks,
    selectedUnit: ctx.sel.unit,
    selectPiece(piece, announcement) {
      ctx.sel.unit = piece;
      ctx.sel.hex = null;
      ctx.sel.pendingMove = null;
      ctx.sel.combatTarget = null;
      ctx.render();
      announce(announcement);
    },
    act: (text) => void ctx.act(text),
  };
}

// A block's strength as steps: "3/4 steps".
export function stepText(u: { steps?: number; maxSteps?: number }): string {
  if (u.steps === undefined) return '';
  return u.maxSteps !== undefined ? `${u.steps}/${u.maxSteps} steps` : `${u.steps} steps`;
}

// What the observation says about supply at a location: each unit's isolation or supply
// state (grouped by state) and the game's markers there.
export function supplyText(ctx: PlayContext, hex: string): string {
  const obs = ctx.view.observation ?? {};
  const parts: string[] = [];
  const st = stackAt(ctx, hex);
  const others = ctx.stacks.filter((s) => s.hex === hex && s !== st);
  for (const s of [st, ...others]) {
    if (!s) continue;
    const known = s.units.filter((u) => u.isolated !== undefined);
    const iso = known.filter((u) => u.isolated).map((u) => u.label);
    if (known.length) parts.push(iso.length ? `${cap(s.side)}: ${iso.join(', ')} isolated` : `${cap(s.side)}: in supply`);
    const named = s.units.filter((u) => u.supply !== undefined);
    // Units with the same state together: "Soviet: 23A, 42A overland supply".
    const groups = new Map<string, string[]>();
    for (const u of named) groups.set(supplyDescription(u), [...(groups.get(supplyDescription(u)) ?? []), u.label]);
    if (named.length) parts.push(`${cap(s.side)}: ` + [...groups].map(([d, l]) => `${l.join(', ')} ${d}`).join('; '));
    if (s.isolatedHidden) parts.push(`${cap(s.side)}: ${s.isolatedHidden} hidden block(s) isolated`);
  }
  parts.push(...ctx.game.supplyNotes(obs, hex));
  const area = ctx.map.areas.find((a) => a.id === hex);
  if (area?.supply?.length) parts.push(`supply icon (${area.supply.join(', ')})`);
  return parts.join('; ');
}

// A location read out in one paragraph.
export function hexText(ctx: PlayContext, hex: string): string {
  const area = ctx.map.areas.find((a) => a.id === hex);
  const box = ctx.map.boxes.find((b) => b.id === hex);
  const parts = [box ? ctx.game.boxNote(box).short : area ? `Area ${area.id}${area.name ? `, ${area.name}` : ''}, ${area.terrain}${area.features.length ? `, ${area.features.join(', ').replace(/_/g, ' ')}` : ''}` : describeHex(ctx.map.byId.get(hex), hex)];
  const obs = ctx.view.observation ?? {};
  const ctl = ctx.game.controlOf(obs, hex, ctx.sides);
  if (ctl) parts.push(`${ctl} controlled`);
  const sup = supplyText(ctx, hex);
  if (sup) parts.push(`supply: ${sup}`);
  const st = stackAt(ctx, hex);
  if (st) parts.push(`${st.side} stack of ${st.count}: ` + st.units.map((u) => describeCounter(u)).join('; ') + (st.count > st.units.length ? `; ${st.count - st.units.length} hidden` : ''));
  else parts.push('no units');
  const atk = legal(ctx).attacks.filter((a) => a.target === hex).length;
  if (atk) parts.push(`can be attacked (${atk} options)`);
  return parts.join('. ') + '.';
}

export function renderHexPanel(ctx: PlayContext, hex: string | null) {
  const { hexPanel } = ctx.el;
  const map = ctx.map;
  hexPanel.replaceChildren(h('h3', {}, 'Hex'));
  if (!hex) {
    hexPanel.append(
      h('p', { class: 'hint' }, 'Hover or tap a hex. Drag to pan, wheel or pinch to zoom.'),
      h('p', { class: 'hint', id: 'keys-hint' }, 'Keyboard: click or Tab to the map, then arrows (or Q E A D Z C) move the cursor, Enter selects or confirms, Esc clears, U jumps to the next unit that can act, ] and [ step through its destinations or the targets, + and - zoom.'),
    );
    return;
  }
  const mh = map.byId.get(hex);
  const dl = h('dl', { id: 'hex-info' });
  const row = (k: string, v: string) => dl.append(h('dt', {}, k), h('dd', {}, v));
  if (!ctx.places.has(hex)) row('Hex', hex + (mh?.name ? ` ${mh.name}` : ''));
  if (mh) {
    row('Terrain', mh.terrain.replace(/-/g, ' '));
    if (mh.features.length) row('Features', mh.features.join(', '));
    if (mh.country) row('Country', map.countries[mh.country]?.name ?? mh.country);
  }
  const obs = ctx.view.observation ?? {};
  const box = map.boxes.find((b) => b.id === hex);
  const area = map.areas.find((a) => a.id === hex);
  const ctl = ctx.game.controlOf(obs, hex, ctx.sides);
  // A hex's control comes before the box and area rows, an area's after them.
  if (ctl && !box && !area) row('Control', ctl);
  if (box) row('Box', ctx.game.boxNote(box).long);
  if (area) {
    row('Area', `${area.id}${area.name ? ` ${area.name}` : ''}`);
    row('Terrain', area.terrain + (area.features.length ? ` (${area.features.join(', ').replace(/_/g, ' ')})` : ''));
  }
  if (ctl && (box || area)) row('Control', ctl);
  const sup = supplyText(ctx, hex);
  if (sup) row('Supply', sup);
  const sidesHere = map.hexsides.filter((s) => (s.a === hex || s.b === hex) && s.features.length);
  if (sidesHere.length) row('Hexsides', sidesHere.map((s) => `${s.a === hex ? s.b : s.a}: ${s.features.join('/')}`).join('; '));
  hexPanel.append(dl);
  const st = stackAt(ctx, hex);
  const stackBox = h('div', { class: 'stack-viewer', id: 'stack-viewer' });
  if (st) {
    stackBox.append(h('h4', {}, `${st.side} stack (${st.count})`));
    for (const u of st.units) {
      const mine = st.sideIndex === ctx.view.side;
      const canMove = mine && legal(ctx).moves.some((m) => m.unit === u.label);
      const b = h('button', { class: 'unit-row' + (u.label === ctx.sel.unit ? ' selected' : ''), 'data-unit': u.label, style: `border-left: 6px solid ${SIDE_COLORS[st.sideIndex]}` }, h('strong', { title: u.label }, u.display ?? u.label), ` ${u.name ?? ''} `, h('span', { class: 'factors' }, u.attack !== undefined && u.defense !== undefined ? `${u.attack}-${u.defense}` : ''), u.steps !== undefined ? h('span', { class: 'steps' }, ` ${stepText(u)}`) : null, u.reduced ? h('span', { class: 'reduced' }, ' reduced') : null, u.isolated ? h('span', { class: 'isolated' }, ' isolated') : null, u.supply !== undefined ? h('span', { class: 'supply' + (u.supply === 'oos' ? ' oos' : ''), 'data-supply': u.supply }, ` · ${supplyDescription(u)}`) : null, u.mf !== undefined ? h('span', { class: 'mf' }, ` · MF ${u.mf}`) : null, u.mp !== undefined && u.mp >= 0 ? h('span', { class: 'mp' }, ` ${u.mp} MP`) : null, u.attachedTo ? h('span', { class: 'attached' }, ` · attached to ${u.attachedTo}`) : null, canMove ? h('span', { class: 'can-move' }, ' can move') : null);
      if (mine)
        b.addEventListener('click', () => {
          ctx.sel.unit = u.label;
          ctx.sel.pendingMove = null;
          ctx.render();
        });
      stackBox.append(b);
    }
    if (st.count > st.units.length) stackBox.append(h('p', { class: 'hint' }, `${st.count - st.units.length} more unit(s) you cannot see.`));
    const note = ctx.game.stackNote(obs);
    if (note) stackBox.append(h('p', { class: 'hint steps-note' }, note));
  }
  hexPanel.append(stackBox);
}

// The game's own panels, drawn into their place in the sidebar.
export function renderGamePanels(ctx: PlayContext) {
  if (ctx.game.sidePanels) ctx.game.sidePanels(hooks(ctx), ctx.el.gamePanels);
}

let vpTimer = 0;
export function renderVp(ctx: PlayContext) {
  clearTimeout(vpTimer);
  vpTimer = window.setTimeout(async () => {
    try {
      const pts = await api.timeline(ctx.id, ctx.token);
      ctx.el.vpPanel.replaceChildren(h('h3', {}, 'Victory points'), vpPlot(pts));
      // Losses where the game reports them (BD's eliminations).
      if (pts.some((p) => p.losses)) ctx.el.vpPanel.append(h('h3', {}, 'Losses per turn (steps)'), lossPlot(pts));
    } catch {
      ctx.el.vpPanel.replaceChildren();
    }
  }, 300);
}
