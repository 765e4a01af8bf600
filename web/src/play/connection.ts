// The seat's link to the server: sending an action (and showing a refusal with its rule),
// taking a newer view, and the live updates over the WebSocket.
import { api, ApiError, LogEvent, SeatSocket, SeatUpdate, SeatView } from '../api';
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
  if (v.actions_count !== ctx.view.actions_count || v.your_turn !== ctx.view.your_turn) {
    ctx.unitActions = new Map();
    ctx.unitAsked = new Set();
  }
  ctx.view = v;
  ctx.stacks = ctx.game.stacks(v.observation, ctx.sides, ctx.data.counters);
  ctx.render();
}

// The events an update adds to those the page has: the whole log on a reset, else those
// after the last one it has (an update may repeat some after a reconnection). An update
// carries the events after seq `from`; `gap` when that is past the page's last event (the
// events in between never arrived).
export function mergeEvents(known: LogEvent[], msg: SeatUpdate): { events: LogEvent[]; fresh: LogEvent[]; gap: boolean } {
  if (msg.reset) return { events: msg.events, fresh: msg.events, gap: false };
  // With none held, every event is new (whether the server counts from 0 or from 1).
  if (!known.length) return { events: msg.events, fresh: msg.events, gap: typeof msg.from === 'number' && msg.from > 0 };
  const last = lastSeq(known);
  const fresh = msg.events.filter((e) => typeof e.seq !== 'number' || e.seq > last);
  const gap = typeof msg.from === 'number' ? msg.from > last : (fresh[0]?.seq ?? last + 1) > last + 1;
  return { events: known.concat(fresh), fresh, gap };
}

// The sequence number to reconnect from: the last event the page has (0: none; the
// server numbers a seat's events from 1).
export function lastSeq(events: LogEvent[]): number {
  return events.length ? events[events.length - 1].seq : 0;
}

// The log so far, then the updates: each brings the seat's new view and its new events;
// dice and combat results are also shown as a toast.
export async function connect(ctx: PlayContext) {
  ctx.events = (await api.log(ctx.id, ctx.token).catch(() => ({ events: [] as LogEvent[] }))).events;
  return () =>
    new SeatSocket(
      ctx.id,
      ctx.token,
      () => lastSeq(ctx.events),
      (msg) => {
        const m = mergeEvents(ctx.events, msg);
        ctx.events = m.events;
        if (!msg.reset) for (const e of m.fresh) if (e.kind === 'roll' || e.kind === 'combat') ctx.showToast(`${e.text}${e.rule ? ` (§${e.rule})` : ''}`);
        // Events missed in between (a dropped connection): asked for from the log.
        if (m.gap)
          api
            .log(ctx.id, ctx.token)
            .then((r) => {
              ctx.events = r.events;
              ctx.render();
            })
            .catch(() => undefined);
        ctx.applyView(msg.view);
        if (m.fresh.length) renderVp(ctx);
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
