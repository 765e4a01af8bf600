// The top bar: game and side, turn, weather, phase, VP, whose move (and the computer's
// progress), the turn track, and the Undo, End, Resign, Replay and Fit buttons.
import { AgentStatus, api } from '../api';
import { cap } from '../games/game';
import { h } from '../svg';
import { legal } from './actions';
import { announce, PlayContext } from './context';
import { diceBadge } from './dice';

// "2.1s of 5s · 340/1000 simulations": the time and, for a search, how far it got.
export function thinkingText(a: AgentStatus): string {
  const secs = (ms: number) => `${Math.round(ms / 100) / 10}s`;
  let t = secs(a.elapsed_ms ?? 0);
  if (a.budget_ms) t += ` of ${secs(a.budget_ms)}`;
  if (a.iterations) t += ` · ${a.iterations}${a.budget ? `/${a.budget}` : ''} simulations`;
  return t;
}

// VP as a number, or per side ({"german": 3, "soviet": 5}).
export function vpText(vp: unknown): string {
  if (vp && typeof vp === 'object') return Object.entries(vp as Record<string, unknown>).map(([k, v]) => `${cap(k)} ${v}`).join(' · ');
  return String(vp);
}

export function modal(text: string, okLabel: string, onOk: () => void) {
  const dlg = h('div', { class: 'modal-back', role: 'dialog', 'aria-modal': 'true', 'aria-label': okLabel });
  const ok = h('button', { class: 'primary', id: 'modal-ok' }, okLabel);
  const cancel = h('button', {}, 'Cancel');
  dlg.append(h('div', { class: 'modal' }, h('p', {}, text), h('div', { class: 'buttons' }, cancel, ok)));
  document.body.append(dlg);
  ok.focus();
  ok.addEventListener('click', () => {
    dlg.remove();
    onOk();
  });
  cancel.addEventListener('click', () => dlg.remove());
}

function phaseChip(text: string | undefined) {
  return text ? h('span', { class: 'phase', id: 'phase' }, text) : null;
}

export function renderTop(ctx: PlayContext) {
  const { view, scenario, game, id, token } = ctx;
  const obs = view.observation ?? {};
  const turn = obs.turn;
  const track = h('ol', { class: 'turn-track', 'aria-label': 'Turn track' });
  if (scenario && scenario.last_turn - scenario.first_turn < 60)
    for (let t = scenario.first_turn; t <= scenario.last_turn; t++) track.append(h('li', { class: t === turn ? 'now' : t < turn ? 'past' : '', title: `Turn ${t}` }, String(t)));
  const whose = view.status !== 'active' ? `Game ${view.status}` : view.your_turn ? 'Your move' : view.agent?.thinking ? `${cap(view.agent.side_name ?? '')} (computer) is thinking… ${thinkingText(view.agent)}` : `${cap(view.current_side ?? '')} to move`;
  const undo = h('button', { id: 'undo', title: 'Take back your last action (not past a die roll)' }, 'Undo');
  if (!view.can_undo) undo.setAttribute('disabled', '');
  undo.addEventListener('click', async () => {
    try {
      const r = await api.undo(id, token);
      ctx.applyView(r.view);
      announce(`Undone: ${r.undone}`);
    } catch (e) {
      ctx.showToast((e as Error).message, 'error');
    }
  });
  // Only a bare verb that ends a phase or segment: never a choice the player did not make.
  const endVerb = legal(ctx).all.find((a) => !a.text.includes(' ') && game.endVerbs.includes(a.text));
  const end = h('button', { id: 'end-phase', class: 'primary', title: endVerb ? game.choiceText(endVerb) : '' }, endVerb ? game.endLabel(endVerb.text) : 'End phase');
  if (!endVerb) end.setAttribute('disabled', '');
  end.addEventListener('click', () => {
    if (!endVerb) return;
    // Units that could still make a plain move.
    const plain = legal(ctx).moves.filter((m) => !m.kind);
    const unmoved = new Set(plain.map((m) => m.unit ?? '(unit)'));
    if (plain.length)
      modal(`${unmoved.size} unit${unmoved.size === 1 ? '' : 's'} could still move (${[...unmoved].slice(0, 8).join(', ')}${unmoved.size > 8 ? ', …' : ''}). End the phase anyway?`, 'End phase', () => ctx.act(endVerb.text));
    else ctx.act(endVerb.text);
  });
  const resign = h('button', { id: 'resign', class: 'danger' }, 'Resign');
  if (view.status !== 'active') resign.setAttribute('disabled', '');
  resign.addEventListener('click', () =>
    modal('Resign this game? Your opponent wins.', 'Resign', async () => {
      try {
        ctx.applyView((await api.resign(id, token)).view);
      } catch (e) {
        ctx.showToast((e as Error).message, 'error');
      }
    }),
  );
  const agentBtn = view.agent?.thinking ? h('button', { id: 'agent-cancel' }, 'Stop computer') : view.agent?.paused ? h('button', { id: 'agent-resume' }, 'Resume computer') : null;
  agentBtn?.addEventListener('click', async () => {
    await api.agent(id, token, view.agent.thinking ? 'cancel' : 'resume').catch((e) => ctx.showToast(e.message, 'error'));
    ctx.applyView(await api.view(id, token));
  });
  const w = game.weather(obs, ctx.data);
  const fit = h('button', { title: 'Show the whole map' }, 'Fit');
  fit.addEventListener('click', () => ctx.mv.fitAll());
  ctx.el.top.replaceChildren(
    h('a', { href: '/', class: 'brand', title: 'Start page' }, 'Steppe'),
    h('div', { class: 'title' }, h('strong', {}, view.game_name), h('span', {}, view.scenario_name)),
    h('span', { class: `side-chip side-${view.side}`, id: 'my-side' }, `You: ${view.side_name}`),
    h(
      'div',
      { class: 'status-block' },
      h('span', { class: 'turn', id: 'turn' }, turn !== undefined ? `Turn ${turn}${obs.months ? ` (${obs.months})` : obs.month ? ` (${obs.month})` : ''}` : ''),
      w ? h('span', { class: w.cls, id: 'weather', title: w.title }, w.text) : null,
      phaseChip(game.phaseText ? game.phaseText(obs) : obs.phase ? String(obs.phase).replace(/-/g, ' ') : undefined),
      obs.vp !== undefined ? h('span', { class: 'vp', id: 'vp' }, `VP ${vpText(obs.vp)}`) : null,
      h('span', { class: 'whose' + (view.your_turn ? ' mine' : ''), id: 'whose' }, whose),
    ),
    track,
    h('div', { class: 'buttons' }, agentBtn, undo, end, resign, h('a', { class: 'button', href: `/replay/${id}?token=${encodeURIComponent(token)}`, target: '_blank' }, 'Replay'), fit),
  );
  if (view.agent?.error) ctx.el.top.append(h('p', { class: 'error' }, view.agent.error));
  const dice = diceBadge(id, view.dice, typeof localStorage === 'undefined' ? undefined : localStorage);
  if (dice) {
    const badge = h('span', { class: `dice-badge dice-${dice.state}`, id: 'dice-badge', title: dice.title }, dice.text);
    ctx.el.top.querySelector('.status-block')?.append(badge);
    if (view.status !== 'active')
      ctx.el.top.querySelector('.buttons')?.append(h('a', { class: 'button', id: 'download-save', href: `/api/games/${id}/save?token=${encodeURIComponent(token)}`, download: `steppe-${id}.json`, title: 'The game with its dice seed, for steppe verify' }, 'Save'));
  }
  if (view.status !== 'active' && view.result) ctx.el.top.append(h('p', { class: 'result', id: 'result' }, `Result: ${JSON.stringify(view.result)}`));
}

