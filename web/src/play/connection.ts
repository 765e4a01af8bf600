// The seat's link to the server: sending an action (and showing a refusal with its rule),
// taking a newer view, and the live updates over the WebSocket.
import { api, ApiError, LogEvent, SeatSocket, SeatView } from '../api';
import { announce, PlayContext } from './context';
import { renderVp } from './panels';

export async function act(ctx: PlayContext, text: string) {
  try {
    const r = await api.act(ctx.id, ctx.token, text);
    ctx.sel.pendingMove = null;
    ctx.sel.combatTarget = null;
    // The WebSocket may already have brought a newer view (a computer opponent that
    // answered before this response arrived): never go back to an older one.
    if ((r.view.actions_count ?? 0) >= (ctx.view.actions_count ?? 0)) ctx.applyView(r.view);
    else ctx.render();
    announce(`Done: ${r.action}`);
  } catch (e) {
    const err = e as ApiError;
    ctx.showToast(`Refused: ${err.message}${err.rule ? ` [${err.rule}]` : ''}`, 'error');
    announce(`Refused: ${err.message}`);
  }
}

export function applyView(ctx: PlayContext, v: SeatView) {
  ctx.view = v;
  ctx.stacks = ctx.game.stacks(v.observation, ctx.sides, ctx.data.counters);
  ctx.render();
}

// The log so far, then the updates: each brings the seat's new view and its new events (a
// reset resends the whole log); dice and combat results are also shown as a toast.
export async function connect(ctx: PlayContext) {
  ctx.events = (await api.log(ctx.id, ctx.token).catch(() => ({ events: [] as LogEvent[] }))).events;
  return () =>
    new SeatSocket(
      ctx.id,
      ctx.token,
      (msg) => {
        if (msg.reset) ctx.events = msg.events;
        else ctx.events = ctx.events.concat(msg.events);
        for (const e of msg.events) if ((e.kind === 'roll' || e.kind === 'combat') && !msg.reset) ctx.showToast(`${e.text}${e.rule ? ` (§${e.rule})` : ''}`);
        ctx.applyView(msg.view);
        if (msg.events.length) renderVp(ctx);
      },
      (up) => ctx.el.root.classList.toggle('offline', !up),
      (agent) => {
        // Progress ticks while the computer thinks: only the top bar changes.
        if (!ctx.view.agent?.thinking || !agent.thinking) return;
        ctx.view = { ...ctx.view, agent };
        ctx.renderTop();
      },
    );
}
