// Map interaction: a click selects a stack, previews a move to a destination or picks an
// attack target; hovering draws the path a move would take; the keyboard moves a hex (or
// area) cursor whose contents are read out, and steps through units and destinations.
import { neighbourId } from '../hexgrid';
import { canAct, legal, movesOfSelected, stackAt } from './actions';
import { announce, PlayContext } from './context';
import { hexText } from './panels';
import { costLabels, movePath } from './previews';

// What the map overlays for the selection: the destinations (with their cost), the
// targets, the selected location and a battle under way.
export function overlayBase(ctx: PlayContext) {
  const reach = new Set(movesOfSelected(ctx).map((m) => m.dest));
  const targets = new Set(legal(ctx).attacks.map((a) => a.target));
  return { reach, cost: costLabels(ctx), targets, selectedHex: ctx.sel.hex ?? undefined, battle: ctx.view.observation?.battle?.target };
}

export function hover(ctx: PlayContext, hex: string | null) {
  const sel = ctx.sel;
  if (sel.pendingMove || !sel.unit || !hex) {
    if (!sel.hex) ctx.renderHexPanel(hex);
    return;
  }
  const m = legal(ctx).moves.find((x) => (x.unit === sel.unit || x.unit === undefined) && x.dest === hex);
  ctx.mv.setOverlay({ ...overlayBase(ctx), path: m ? movePath(ctx, m) : undefined });
}

export function clickHex(ctx: PlayContext, hex: string) {
  const sel = ctx.sel;
  sel.cursor = hex;
  ctx.mv.setCursor(hex);
  // Destination of a selected unit: preview, then confirm.
  if (sel.unit) {
    const m = movesOfSelected(ctx).filter((x) => x.dest === hex);
    if (m.length) {
      sel.pendingMove = m[0];
      ctx.render();
      return;
    }
  }
  // An attack target (on an area map where own blocks that can act stand in it too, the
  // first click selects them and a second click on the same area picks the target).
  const ownHere = ctx.stacks.some((x) => x.hex === hex && x.sideIndex === ctx.view.side && x.units.some((u) => canAct(ctx, u.label)));
  if (legal(ctx).attacks.some((a) => a.target === hex) && (!ownHere || sel.hex === hex)) {
    sel.combatTarget = hex;
    sel.hex = hex;
    sel.pendingMove = null;
    ctx.render();
    announce(`Combat against ${hex}. ${hexText(ctx, hex)}`);
    return;
  }
  sel.hex = hex;
  sel.pendingMove = null;
  sel.combatTarget = null;
  const st = stackAt(ctx, hex);
  if (st && st.sideIndex === ctx.view.side) {
    const movers = st.units.filter((u) => canAct(ctx, u.label));
    sel.unit = (movers[0] ?? st.units[0])?.label ?? null;
  } else sel.unit = null;
  ctx.render();
  announce(hexText(ctx, hex));
}

// Area maps: the connected area lying closest to a compass direction (W, NE, ...).
function areaNeighbour(ctx: PlayContext, from: string, dir: string): string | null {
  const angle: Record<string, number> = { E: 0, NE: -60, NW: -120, W: 180, SW: 120, SE: 60 };
  const mv = ctx.mv;
  const a = mv.centre(from);
  if (!a) return null;
  const want = ((angle[dir] ?? 0) * Math.PI) / 180;
  let best: string | null = null;
  let bestScore = -Infinity;
  // Connected areas, and for the off-map boxes (which few connections reach) whatever
  // area or box lies near.
  const near = (id: string) => {
    const c = mv.centre(id);
    return !!c && Math.hypot(c.x - a.x, c.y - a.y) < 12;
  };
  const boxIds = new Set(ctx.map.boxes.map((x) => x.id));
  const candidates = [
    ...ctx.map.connections.map((c) => (c.a === from ? c.b : c.b === from ? c.a : null)),
    ...(boxIds.has(from) ? [...ctx.places] : [...boxIds]).filter((x) => x !== from && near(x)),
  ];
  for (const other of candidates) {
    const b = other ? mv.centre(other) : null;
    if (!other || !b) continue;
    const score = Math.cos(Math.atan2(b.y - a.y, b.x - a.x) - want);
    if (score > bestScore && score > 0.3) {
      bestScore = score;
      best = other;
    }
  }
  return best;
}

// Keyboard: a hex cursor whose contents are read out.
export function attachKeyboard(ctx: PlayContext) {
  const { mapBox } = ctx.el;
  const sel = ctx.sel;
  mapBox.addEventListener('keydown', (e) => {
    const dirs: Record<string, string> = { ArrowLeft: 'W', ArrowRight: 'E', ArrowUp: e.shiftKey ? 'NE' : 'NW', ArrowDown: e.shiftKey ? 'SW' : 'SE', q: 'NW', e: 'NE', a: 'W', d: 'E', z: 'SW', c: 'SE' };
    const mv = ctx.mv;
    if (e.key in dirs) {
      e.preventDefault();
      const start = sel.cursor ?? sel.hex ?? ctx.stacks.find((s) => s.sideIndex === ctx.view.side && mv.centre(s.hex))?.hex ?? ctx.map.hexes[0]?.id ?? ctx.map.areas[0]?.id;
      if (!start) return;
      const next = sel.cursor ? (ctx.places.size ? areaNeighbour(ctx, start, dirs[e.key]) : neighbourId(ctx.map.grid, start, dirs[e.key], (x) => ctx.map.byId.has(x))) : start;
      if (!next) {
        announce('Edge of the map.');
        return;
      }
      sel.cursor = next;
      mv.setCursor(next, true);
      if (!sel.hex) ctx.renderHexPanel(next);
      if (sel.unit) hover(ctx, next);
      announce(hexText(ctx, next));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (sel.pendingMove) ctx.act(sel.pendingMove.text);
      else if (sel.cursor) clickHex(ctx, sel.cursor);
    } else if (e.key === 'Escape') {
      sel.pendingMove = null;
      sel.combatTarget = null;
      sel.unit = null;
      sel.hex = null;
      ctx.render();
      announce('Selection cleared.');
    } else if (e.key === 'u' || e.key === 'U') {
      // The next own stack with a unit that can act: select it.
      e.preventDefault();
      const here = [...new Set(ctx.stacks.filter((s) => s.sideIndex === ctx.view.side && s.units.some((u) => canAct(ctx, u.label))).map((s) => s.hex))];
      if (!here.length) {
        announce('No unit of yours can act now.');
        return;
      }
      const next = here[(here.indexOf(sel.cursor ?? '') + (e.key === 'U' ? here.length - 1 : 1)) % here.length];
      sel.unit = null;
      sel.hex = null;
      clickHex(ctx, next);
      mv.setCursor(next, true);
    } else if (e.key === ']' || e.key === '[') {
      // Step through the selected unit's destinations, else through the attack targets.
      e.preventDefault();
      const dests = sel.unit ? [...new Set(movesOfSelected(ctx).map((m) => m.dest))] : [];
      const list = dests.length ? dests : [...new Set(legal(ctx).attacks.map((a) => a.target))];
      if (!list.length) {
        announce(sel.unit ? `${sel.unit} cannot move now.` : 'Nothing to attack.');
        return;
      }
      const i = list.indexOf(sel.cursor ?? '');
      const next = list[i < 0 ? (e.key === ']' ? 0 : list.length - 1) : (i + (e.key === ']' ? 1 : list.length - 1)) % list.length];
      sel.cursor = next;
      mv.setCursor(next, true);
      if (dests.length) hover(ctx, next);
      else if (!sel.hex) ctx.renderHexPanel(next);
      announce(`${dests.length ? `Destination ${list.indexOf(next) + 1} of ${list.length}` : `Target ${list.indexOf(next) + 1} of ${list.length}`}: ${hexText(ctx, next)} Enter ${dests.length ? 'previews the move' : 'chooses it'}.`);
    } else if (e.key === '+' || e.key === '=') mv.zoom(0.8);
    else if (e.key === '-') mv.zoom(1.25);
  });
  document.addEventListener('keydown', (e) => {
    if (e.target === mapBox || (e.target as HTMLElement).tagName === 'INPUT') return;
    if (e.key === 'Enter' && sel.pendingMove) ctx.act(sel.pendingMove.text);
    if (e.key === 'Escape' && sel.pendingMove) {
      sel.pendingMove = null;
      ctx.render();
    }
  });
}
