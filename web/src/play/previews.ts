// What the game says before an order is given: the MP cost of each hex the selected unit
// can reach (asked once per unit and position) and a combat's odds, shifts and final column.
import { api } from '../api';
import { describeCounter } from '../counters';
import { combatSummary, parseCombat, parseReach, shiftLines } from '../preview';
import { h } from '../svg';
import { AttackOption } from '../model';
import { ActionInfo, labelOf } from '../games/game';
import { dedupePath, movesOfSelected, stackAt, stackOf } from './actions';
import type { PlayContext } from './context';

let reachKey = '';
let reachData: ReturnType<typeof parseReach> = null;

export function reachOfSelected(ctx: PlayContext) {
  const unit = ctx.sel.unit;
  return reachData && unit && reachData.unit === unit && reachKey === `${ctx.id}:${unit}:${ctx.view.actions_count}` ? reachData : null;
}

// Asks the game for the MP cost of each hex the selected unit can reach (once per unit and
// position); the map and the orders redraw when the answer comes.
export function ensureReach(ctx: PlayContext) {
  const unit = ctx.sel.unit;
  if (!unit || ctx.map.areas.length || !ctx.view.your_turn || !movesOfSelected(ctx).length) return;
  const key = `${ctx.id}:${unit}:${ctx.view.actions_count}`;
  if (key === reachKey) return;
  reachKey = key;
  reachData = null;
  api
    .query(ctx.id, ctx.token, `reach ${unit}`)
    .then((a) => {
      if (reachKey !== key) return;
      reachData = parseReach(a);
      if (reachData) ctx.render();
    })
    .catch(() => undefined);
}

// A label for each destination: its MP cost when the game gives it, else the fewest hexes
// a legal path takes.
export function costLabels(ctx: PlayContext): Map<string, string> {
  const out = new Map<string, string>();
  if (ctx.map.areas.length) return out;
  const rd = reachOfSelected(ctx);
  if (rd) {
    for (const m of movesOfSelected(ctx)) {
      const c = rd.hexes.get(m.dest);
      if (c) out.set(m.dest, `${c.cost} MP`);
    }
    if (out.size) return out;
  }
  const from = stackOf(ctx, ctx.sel.unit)?.hex;
  const best = new Map<string, number>();
  for (const m of movesOfSelected(ctx)) {
    const n = dedupePath(from, m.path).length - 1;
    if (n > 0 && n < (best.get(m.dest) ?? Infinity)) best.set(m.dest, n);
  }
  for (const [d, n] of best) out.set(d, `${n} hex${n === 1 ? '' : 'es'}`);
  return out;
}

// ", 3 MP (7 left)" for a destination when the game gave the selected unit's costs.
export function moveCostText(ctx: PlayContext, dest: string): string {
  const c = reachOfSelected(ctx)?.hexes.get(dest);
  return c ? `, ${c.cost} MP (${c.left} left)` : '';
}

// One attack on a hex map, with the game's preview: factors, odds, every shift with its
// reason and rule, and the final column.
export function attackRow(ctx: PlayContext, o: AttackOption & { info: ActionInfo }): HTMLElement {
  const st = stackAt(ctx, o.target);
  const unseen = st ? st.count - st.units.length : 0;
  const odds = h('span', { class: 'odds' }, '…');
  const detail = h('div', { class: 'combat-detail' });
  const go = h('button', { class: 'primary' }, ctx.game.attackButton(o.info));
  go.addEventListener('click', () => ctx.act(o.text));
  api
    .query(ctx.id, ctx.token, `combat ${o.text}`)
    .then((a) => parseCombat(a))
    .catch(() => null)
    .then(async (p) => {
      if (p) {
        odds.textContent = combatSummary(p);
        const lines = shiftLines(p);
        detail.replaceChildren(
          h('ul', { class: 'shift-list' }, ...(lines.length ? lines.map((l) => h('li', {}, l)) : [h('li', {}, 'no column shifts')])),
          p.attackers.length ? h('p', { class: 'hint' }, `Attack factors: ${p.attackers.map((x) => `${x.unit} ${x.factor}${x.supply && x.supply !== 'overland' && x.supply !== 'always' ? ` (${x.supply})` : ''}`).join(', ')}`) : '',
          unseen > 0 ? h('p', { class: 'hint' }, `The defence counts ${unseen} unit(s) you cannot see as a guess; they are revealed when the attack is made (11.7).`) : '',
        );
        return;
      }
      const [od, sh] = await Promise.all([api.query(ctx.id, ctx.token, `odds ${o.text}`).catch(() => null), api.query(ctx.id, ctx.token, `shifts ${o.text}`).catch(() => null)]);
      odds.textContent = od ? `odds ${od}${sh && sh !== 'none' ? `, shifts ${sh}` : ''}` : 'odds: n/a';
    });
  return h('li', {}, h('code', {}, labelOf(o.text)), odds, go, detail);
}

// The defender of a hex, as the viewer sees it.
export function defenderLine(ctx: PlayContext, target: string): HTMLElement | null {
  const st = stackAt(ctx, target);
  return st ? h('p', {}, `Defender: ${st.units.map((u) => describeCounter(u)).join('; ')}${st.count > st.units.length ? ` + ${st.count - st.units.length} unseen` : ''}`) : null;
}
