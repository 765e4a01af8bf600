// The Orders panel and the confirm bar: the selected unit's destinations, a move waiting
// for confirmation, the unit's other orders and the choices of the moment, and the strikes
// on a chosen target with the game's preview of each.
import { cap } from '../games/game';
import { h } from '../svg';
import { legal, movesOfSelected, placeName } from './actions';
import type { PlayContext } from './context';
import { hooks, stepText } from './panels';
import { attackGroupBox } from './attackgroup';
import { attackRow, defenderLine, moveCostText, moveNote, movePath, reachOfSelected, showPreview } from './previews';

function button(label: string, attrs: Record<string, string>, onClick: () => void) {
  const b = h('button', attrs, label);
  b.addEventListener('click', onClick);
  return b;
}

export function renderOrders(ctx: PlayContext) {
  const { ordersPanel, confirmBar } = ctx.el;
  const { game, view, sel } = ctx;
  const areaMap = ctx.places.size > 0;
  ordersPanel.replaceChildren();
  confirmBar.setAttribute('hidden', '');
  const obs = view.observation ?? {};
  const battle = game.battleLine(obs);
  if (battle) ordersPanel.append(h('h3', {}, 'Battle'), h('p', { id: 'battle' }, battle));
  if (game.orderSections) ordersPanel.append(...game.orderSections(hooks(ctx)));
  if (sel.pendingMove) {
    const m = sel.pendingMove;
    const words = game.moveWords(m.kind, m.unit);
    const path = movePath(ctx, m);
    const hexes = path.length - 1;
    const place = placeName(ctx, m.dest);
    const note = moveNote(ctx, m.dest);
    ordersPanel.append(h('h3', {}, words.heading), h('p', {}, `${m.unit ?? 'Unit'}: ${path.join(' → ')}`), note ? h('p', { class: 'hint', id: 'move-note' }, note) : '');
    confirmBar.replaceChildren(
      h('span', { id: 'move-summary' }, `${words.verb} ${words.unit} ${words.prep} ${m.dest}${place ? ` (${place})` : ''}${ctx.places.has(m.dest) ? '' : `, ${hexes} hex${hexes === 1 ? '' : 'es'}`}${moveCostText(ctx, m.dest)}`),
      button('Confirm (Enter)', { class: 'primary', id: 'confirm-move' }, () => ctx.act(m.text)),
      button('Cancel (Esc)', {}, () => {
        sel.pendingMove = null;
        ctx.render();
      }),
    );
    confirmBar.removeAttribute('hidden');
  } else if (sel.unit) {
    const moves = movesOfSelected(ctx);
    const where = areaMap ? 'areas' : 'hexes';
    const rd = reachOfSelected(ctx);
    const dests = new Set(moves.map((m) => m.dest)).size;
    const text =
      game.selectedText?.(sel.unit, moves) ??
      (moves.length ? `${sel.unit}: ${dests} reachable ${where} (shaded${rd ? ', each with its MP cost' : ''}).${rd ? ` ${rd.mp} MP to spend.` : ''} Click one to preview the ${areaMap ? 'move' : 'path'}.` : `${sel.unit} cannot move now.`);
    ordersPanel.append(h('h3', {}, 'Orders'), h('p', { id: 'selected-unit' }, text));
  }
  if (view.your_turn && !sel.pendingMove) {
    // Orders of the selected unit that are not moves, and the choices of the moment that
    // name no unit (the game's module says which).
    const l = legal(ctx);
    const own = sel.unit ? l.other.filter((a) => a.units[0] === sel.unit) : [];
    const general = l.other.filter((a) => !game.endVerbs.includes(a.text) && game.isChoice(a));
    const list = (items: typeof own) => {
      const ul = h('ul', { class: 'choices' });
      for (const a of items.slice(0, 12)) ul.append(h('li', {}, button(game.choiceText(a), { class: 'choice', 'data-action': a.text, title: a.text }, () => ctx.act(a.text))));
      return ul;
    };
    if (own.length) ordersPanel.append(h('div', { id: 'unit-orders' }, h('h4', {}, `${sel.unit}: other orders`), list(own)));
    if (general.length && general.length <= 12) ordersPanel.append(h('div', { id: 'choices' }, h('h4', {}, game.phaseHeading(view)), list(general)));
  }
  const target = sel.combatTarget;
  if (target) {
    const opts = legal(ctx).attacks.filter((a) => a.target === target);
    const place = placeName(ctx, target);
    const box = h('div', { class: 'combat', id: 'combat' }, h('h3', {}, `${areaMap ? 'Battle in' : 'Attack'} ${target}${place ? ` (${place})` : ''}`));
    const ul = h('ul', { class: 'combat-options' });
    let rows = opts;
    if (areaMap) {
      // Both sides' pieces in the contested area; each strike resolved by dice.
      for (const st of ctx.stacks.filter((x) => x.hex === target))
        box.append(h('p', {}, `${cap(st.side)}: ${st.units.map((u) => `${u.label}${u.steps !== undefined ? ` ${stepText(u)}` : ''}`).join(', ')}${st.count > st.units.length ? `${st.units.length ? ' + ' : ''}${st.count - st.units.length} hidden block(s)` : ''}`));
      for (const o of opts.slice(0, 24)) {
        const odds = h('span', { class: 'odds' }, '…');
        const detail = h('div', { class: 'combat-detail' });
        ul.append(h('li', {}, h('span', {}, game.attackText(o.info)), button(game.attackButton(o.info), { class: 'primary', 'data-action': o.text }, () => ctx.act(o.text)), odds, detail));
        showPreview(ctx, o.text, target, odds, detail);
      }
    } else {
      const d = defenderLine(ctx, target);
      if (d) box.append(d);
      // Where the game lets any set of the units attack (BD 11.6), their checkboxes and the
      // ticked set's preview; the listed attacks it cannot make (a mobile assault) below.
      const g = game.attackGroup?.(target, opts.map((o) => o.info)) ?? null;
      if (g) box.append(attackGroupBox(ctx, g, opts.map((o) => o.info)));
      rows = g ? opts.filter((o) => !g.parts(o.text)) : opts;
      if (g && rows.length) box.append(h('h4', {}, 'Other attacks'));
      for (const o of rows.slice(0, 24)) ul.append(attackRow(ctx, o));
    }
    if (rows.length > 24) ul.append(h('li', { class: 'hint' }, `${rows.length - 24} more in the action list.`));
    box.append(ul);
    ordersPanel.append(box);
  }
  if (!ordersPanel.childElementCount)
    ordersPanel.append(h('h3', {}, 'Orders'), h('p', { class: 'hint' }, view.your_turn ? 'Select one of your stacks to move it, or a marked enemy hex to attack.' : 'Waiting for the other side.'));
}
