// What the game says before an order is given (the server's typed views): where the
// selected unit can go with what each destination costs and the path it takes (GET /reach),
// and what an attack would lead to (GET /preview): odds, every shift with its reason and
// rule, the final column and the chance of each result. A refusal (a preview that would
// tell the seat something hidden, or a game that gives none) is shown with its reason and rule.
import { api, ApiError } from '../api';
import { describeCounter } from '../counters';
import { ActionInfo, labelOf } from '../games/game';
import { AttackOption, MoveOption } from '../model';
import { combatSummary, outcomeRows, parseCombat, parseReach, ReachInfo, shiftLines } from '../preview';
import { h } from '../svg';
import { dedupePath, movesOfSelected, stackAt, stackOf } from './actions';
import type { PlayContext } from './context';

let reachKey = '';
let reachData: ReachInfo | null = null;

export function reachOfSelected(ctx: PlayContext): ReachInfo | null {
  const unit = ctx.sel.unit;
  return reachData && unit && reachData.unit === unit && reachKey === `${ctx.id}:${unit}:${ctx.view.actions_count}` ? reachData : null;
}

// Asks the game where the selected unit can go (once per unit and position); the map and
// the orders redraw when the answer comes. A refusal leaves the hex counts of the moves.
export function ensureReach(ctx: PlayContext) {
  const unit = ctx.sel.unit;
  if (!unit || ctx.map.areas.length || !ctx.view.your_turn || !movesOfSelected(ctx).length) return;
  const key = `${ctx.id}:${unit}:${ctx.view.actions_count}`;
  if (key === reachKey) return;
  reachKey = key;
  reachData = null;
  api
    .reach(ctx.id, ctx.token, unit)
    .then((r) => {
      if (reachKey !== key) return;
      reachData = parseReach(r);
      if (reachData) ctx.render();
    })
    .catch(() => undefined);
}

// The path a move takes from the unit's location: the action's own when it names one, else
// the one the game's reach gives for its destination.
export function movePath(ctx: PlayContext, m: MoveOption): string[] {
  const from = stackOf(ctx, ctx.sel.unit)?.hex;
  const r = reachOfSelected(ctx)?.hexes.get(m.dest);
  return dedupePath(from, m.path.length <= 1 && r?.path.length ? r.path : m.path);
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
  const best = new Map<string, number>();
  for (const m of movesOfSelected(ctx)) {
    const n = movePath(ctx, m).length - 1;
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

// What the game notes about a destination ("ends in an enemy ZOC (7.4)").
export function moveNote(ctx: PlayContext, dest: string): string | undefined {
  return reachOfSelected(ctx)?.hexes.get(dest)?.note;
}

// The chance of each result: a bar and a percentage per result, most likely first.
export function outcomeTable(rows: ReturnType<typeof outcomeRows>): HTMLElement {
  const table = h('table', { class: 'outcomes', 'aria-label': 'Results and their chances' });
  for (const r of rows) {
    const bar = h('span', { class: 'bar', style: `width: ${r.width.toFixed(1)}%` });
    table.append(
      h('tr', { 'data-result': r.result }, h('th', { scope: 'row' }, r.result), h('td', { class: 'pct' }, r.percent), h('td', { class: 'bar-cell' }, bar), h('td', { class: 'meaning' }, `${r.meaning}${r.rule ? ` §${r.rule}` : ''}`)),
    );
  }
  return table;
}

// Fills one attack's preview: odds and shifts, the outcome distribution, the attackers'
// factors; or the game's refusal with its reason and rule.
export function showPreview(ctx: PlayContext, text: string, target: string, odds: HTMLElement, detail: HTMLElement) {
  const st = stackAt(ctx, target);
  const unseen = st ? st.count - st.units.length : 0;
  api
    .preview(ctx.id, ctx.token, text)
    .then((raw) => {
      const p = parseCombat(raw);
      // A table's odds when the game gives them, else its own sentence (a battle of dice).
      const game = ctx.game;
      odds.textContent = p && game.previewSummary ? game.previewSummary(p, raw) : raw?.summary || (p && (p.raw || p.final) ? combatSummary(p) : 'no odds for this action');
      if (!p) return;
      const lines = shiftLines(p, game.shiftText);
      const rows = outcomeRows(p);
      detail.replaceChildren(
        p.raw || p.final || lines.length ? h('ul', { class: 'shift-list' }, ...(lines.length ? lines.map((l) => h('li', {}, l)) : [h('li', {}, game.shiftText ? 'no modifiers' : 'no column shifts')])) : '',
        rows.length ? outcomeTable(rows) : '',
        p.attackers.length ? h('p', { class: 'hint' }, `Attack factors: ${p.attackers.map((x) => `${x.unit} ${x.factor}${x.supply && x.supply !== 'overland' && x.supply !== 'always' ? ` (${x.supply})` : ''}`).join(', ')}`) : '',
        unseen > 0 && game.unseenNote ? h('p', { class: 'hint' }, game.unseenNote(unseen)) : '',
      );
    })
    .catch((e) => {
      const err = e as ApiError;
      odds.textContent = '';
      odds.classList.add('refused');
      odds.append(h('span', { class: 'preview-refused' }, `No preview: ${err.message}`), err.rule ? h('span', { class: 'rule', title: 'Rule section' }, ` §${err.rule}`) : '');
    });
}

// One attack on a hex map with its preview.
export function attackRow(ctx: PlayContext, o: AttackOption & { info: ActionInfo }): HTMLElement {
  const odds = h('span', { class: 'odds' }, '…');
  const detail = h('div', { class: 'combat-detail' });
  const go = h('button', { class: 'primary', 'data-action': o.text }, ctx.game.attackButton(o.info));
  go.addEventListener('click', () => ctx.act(o.text));
  showPreview(ctx, o.text, o.target, odds, detail);
  return h('li', {}, h('code', {}, labelOf(o.text)), odds, go, detail);
}

// The defender of a hex, as the viewer sees it.
export function defenderLine(ctx: PlayContext, target: string): HTMLElement | null {
  const st = stackAt(ctx, target);
  return st ? h('p', {}, `Defender: ${st.units.map((u) => describeCounter(u)).join('; ')}${st.count > st.units.length ? ` + ${st.count - st.units.length} unseen` : ''}`) : null;
}
