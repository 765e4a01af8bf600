// The adjudication log: every event the seat was shown, filtered by kind and text, each
// with its rule section.
import { h } from '../svg';
import type { PlayContext } from './context';

let logFilter = '';
let logKind = 'all';

export function renderLog(ctx: PlayContext) {
  const events = ctx.events;
  const kinds = ['all', ...new Set(events.map((e) => e.kind))];
  const sel = h('select', { 'aria-label': 'Show events of kind', id: 'log-kind' });
  for (const k of kinds) sel.append(h('option', { value: k }, k));
  sel.value = kinds.includes(logKind) ? logKind : 'all';
  const q = h('input', { type: 'search', placeholder: 'Search the log', 'aria-label': 'Search the log', value: logFilter });
  const ol = h('ol', { class: 'log', id: 'log', 'aria-live': 'polite' });
  const fill = () => {
    logKind = sel.value;
    logFilter = q.value;
    ol.replaceChildren();
    const shown = events.filter((e) => (logKind === 'all' || e.kind === logKind) && e.text.toLowerCase().includes(logFilter.toLowerCase()));
    for (const e of shown.slice(-300))
      ol.append(h('li', { class: `ev ev-${e.kind}` + (e.reveals ? ' reveals' : '') }, h('span', { class: 'kind' }, e.kind), ` ${e.text} `, e.rule ? h('span', { class: 'rule', title: 'Rule section' }, `§${e.rule}`) : null));
    ol.scrollTop = ol.scrollHeight;
  };
  sel.addEventListener('change', fill);
  q.addEventListener('input', fill);
  ctx.el.logPanel.replaceChildren(h('h3', {}, `Log (${events.length})`), h('div', { class: 'log-filters' }, sel, q), ol);
  fill();
}
