// The seat's legal actions as the page uses them: each described (the server's describe()
// fields, or the game's module reading its notation), then sorted by the game's module into
// moves (a destination on the map), attacks (a target) and the other choices; and the
// action list panel.
import { api, LegalAction } from '../api';
import { DIRECTIONS, FLAT_DIRECTIONS, neighbourId } from '../hexgrid';
import type { ActionInfo, GameUI } from '../games/game';
import { labelOf } from '../games/game';
import type { AttackOption, MoveOption } from '../model';
import { h } from '../svg';
import type { PlayContext } from './context';

export interface Legal {
  all: ActionInfo[];
  moves: MoveOption[];
  attacks: (AttackOption & { info: ActionInfo })[];
  other: ActionInfo[];
}

// The server's description of an action when it gives one that places it (units or
// locations), else the game's reading of its notation.
export function describeAction(game: GameUI, places: Set<string>, a: LegalAction): ActionInfo {
  const d = a as Partial<ActionInfo> & LegalAction;
  if (typeof d.verb === 'string' && ((d.units?.length ?? 0) > 0 || (d.to?.length ?? 0) > 0)) {
    const info = { text: a.text, verb: d.verb, units: d.units ?? [], from: d.from ?? [], to: d.to ?? [], summary: d.summary, rule: d.rule };
    return game.adapt ? game.adapt(info) : info;
  }
  const own = game.describe(a, places);
  return d.summary ? { ...own, summary: d.summary, rule: d.rule } : own;
}

// Each action described, and sorted by the game's module into moves, attacks and the rest.
export function sortActions(game: GameUI, places: Set<string>, actions: LegalAction[]): Legal {
  const out: Legal = { all: [], moves: [], attacks: [], other: [] };
  for (const a of actions) {
    const info = describeAction(game, places, a);
    out.all.push(info);
    const role = game.role(info);
    const kind = game.moveKind(info);
    if (role === 'move') out.moves.push({ unit: info.units[0], path: info.to, dest: info.to[info.to.length - 1], text: info.text, ...(kind ? { kind } : {}) });
    else if (role === 'attack') out.attacks.push({ target: info.to[0], text: info.text, verb: info.verb, unit: info.units[0], info });
    else out.other.push(info);
  }
  return out;
}

// The seat's actions: those its view lists, and those of each unit asked for one by one
// when the view names only the units (legal_units).
export function legal(ctx: PlayContext): Legal {
  const c = ctx.legalCache;
  if (c && c.view === ctx.view && c.fetched === ctx.unitActions.size) return c.legal;
  const listed = ctx.view.legal_actions ?? [];
  const seen = new Set(listed.map((a) => a.text));
  const actions = [...listed];
  for (const list of ctx.unitActions.values())
    for (const a of list)
      if (!seen.has(a.text)) {
        seen.add(a.text);
        actions.push(a);
      }
  const l = sortActions(ctx.game, ctx.places, actions);
  ctx.legalCache = { view: ctx.view, fetched: ctx.unitActions.size, legal: l };
  return l;
}

// Whether the view lists only the units that have actions (there are too many to send).
export function byUnit(ctx: PlayContext): boolean {
  return Array.isArray(ctx.view.legal_units);
}

// Asks for the selected unit's actions when the view does not list them, and those of the
// own units next to a chosen attack target; the page redraws when they come.
export function ensureUnitActions(ctx: PlayContext) {
  if (ctx.sel.unit) askUnitActions(ctx, ctx.sel.unit);
  // An attack target's neighbours: the units that may join an attack on it (the attack
  // panel lists them all, BD 11.6).
  const target = ctx.sel.combatTarget;
  if (target && byUnit(ctx) && !ctx.places.size && ctx.game.attackGroup) {
    const dirs = (ctx.map.grid.orientation === 'flat' ? FLAT_DIRECTIONS : DIRECTIONS).map((d) => d.name);
    const near = new Set(dirs.map((d) => neighbourId(ctx.map.grid, target, d, (x) => ctx.map.byId.has(x))));
    for (const st of ctx.stacks) if (st.sideIndex === ctx.view.side && near.has(st.hex)) for (const u of st.units) askUnitActions(ctx, u.label);
  }
}

function askUnitActions(ctx: PlayContext, unit: string) {
  if (!ctx.view.legal_units?.includes(unit) || ctx.unitActions.has(unit) || ctx.unitAsked.has(unit)) return;
  const view = ctx.view;
  ctx.unitAsked.add(unit);
  api
    .unitActions(ctx.id, ctx.token, unit)
    .then((list) => {
      if (ctx.view !== view) return;
      ctx.unitActions.set(unit, list);
      ctx.render();
    })
    .catch((e) => ctx.showToast(`The actions of ${unit}: ${(e as Error).message}`, 'error'));
}

export function stackAt(ctx: PlayContext, hex: string | null) {
  return hex ? ctx.stacks.find((s) => s.hex === hex) : undefined;
}

// The own stack that holds `unit`.
export function stackOf(ctx: PlayContext, unit: string | null) {
  return unit ? ctx.stacks.find((s) => s.sideIndex === ctx.view.side && s.units.some((u) => u.label === unit)) : undefined;
}

// A move's path from the unit's own location (its path may or may not start there).
export function dedupePath(from: string | undefined, path: string[]) {
  return from && path[0] !== from ? [from, ...path] : path;
}

// The selected unit's moves (or, where moves name no unit, every move).
export function movesOfSelected(ctx: PlayContext): MoveOption[] {
  const unit = ctx.sel.unit;
  if (!unit) return [];
  const all = legal(ctx).moves;
  const own = all.filter((m) => m.unit === unit);
  return own.length ? own : all.filter((m) => m.unit === undefined);
}

// A unit with something to do now: a move, or an order of its own.
export function canAct(ctx: PlayContext, unit: string): boolean {
  const l = legal(ctx);
  return l.moves.some((m) => m.unit === unit || m.unit === undefined) || l.other.some((a) => a.units.includes(unit)) || (ctx.view.legal_units?.includes(unit) ?? false);
}

export function placeName(ctx: PlayContext, id: string): string | undefined {
  return ctx.map.byId.get(id)?.name ?? ctx.map.areas.find((a) => a.id === id)?.name ?? ctx.map.boxes.find((b) => b.id === id)?.name;
}

// Every legal action as a button, filtered by what the player types.
export function renderActions(ctx: PlayContext) {
  const all = legal(ctx).all;
  const filter = h('input', { type: 'search', placeholder: 'Filter actions', 'aria-label': 'Filter legal actions', id: 'action-filter' });
  const list = h('ul', { class: 'action-list', id: 'action-list' });
  const fill = () => {
    list.replaceChildren();
    const q = filter.value.toLowerCase();
    const shown = all.filter((a) => a.text.toLowerCase().includes(q)).slice(0, 200);
    for (const a of shown) {
      const b = h('button', { class: 'action', 'data-action': a.text, title: ctx.game.choiceText(a) }, labelOf(a.text));
      b.addEventListener('click', () => ctx.act(a.text));
      list.append(h('li', {}, b));
    }
    if (all.length > shown.length) list.append(h('li', { class: 'hint' }, `${all.length - shown.length} more; filter to find them.`));
    if (byUnit(ctx)) list.append(h('li', { class: 'hint', id: 'by-unit-hint' }, `${ctx.view.legal_units!.length} unit(s) have actions of their own: select one to list them.`));
  };
  filter.addEventListener('input', fill);
  fill();
  ctx.el.actionsPanel.replaceChildren(h('details', { open: '' }, h('summary', {}, `Legal actions (${all.length}${(ctx.view.legal_count ?? 0) > all.length ? ` of ${ctx.view.legal_count}` : ctx.view.legal_truncated ? ` of ${ctx.view.legal_truncated}` : ''})`), filter, list));
}
