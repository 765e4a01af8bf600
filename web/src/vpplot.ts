// A small VP-by-step line chart with turn boundaries.
import { lossesPerTurn, TimelinePoint } from './preview';
import { el } from './svg';

const SERIES_COLORS = ['#6fa8dc', '#e8894f', '#9acd32', '#c39bd3'];

export function vpPlot(raw: { step: number; turn?: number; vp?: unknown }[]): SVGSVGElement {
  // A number is one line; per-side VP ({"german": 3, "soviet": 5}) is one line per side.
  const names: string[] = [];
  for (const p of raw)
    if (p.vp && typeof p.vp === 'object') for (const k of Object.keys(p.vp as object)) if (!names.includes(k)) names.push(k);
  const series = names.length ? names : ['vp'];
  const valueOf = (p: { vp?: unknown }, k: string): number | undefined => {
    if (typeof p.vp === 'number') return k === series[0] ? p.vp : undefined;
    if (p.vp && typeof p.vp === 'object') {
      const v = Number((p.vp as Record<string, unknown>)[k]);
      return Number.isFinite(v) ? v : undefined;
    }
    return undefined;
  };
  const points = raw.map((p) => ({ ...p, vp: valueOf(p, series[0]), all: series.map((k) => valueOf(p, k)) }));
  const W = 320, H = 140, L = 34, B = 22, T = 8, R = 8;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'vp-plot');
  svg.setAttribute('role', 'img');
  const withVp = points.filter((p) => p.all.some((v) => typeof v === 'number'));
  if (withVp.length === 0) {
    svg.setAttribute('aria-label', 'No victory points in this game');
    el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'axis' }, svg).textContent = 'No VP track in this game';
    return svg;
  }
  const maxStep = Math.max(1, ...withVp.map((p) => p.step));
  const vps = withVp.flatMap((p) => p.all.filter((v): v is number => typeof v === 'number'));
  let lo = Math.min(0, ...vps), hi = Math.max(1, ...vps);
  if (hi === lo) hi = lo + 1;
  const x = (s: number) => L + ((W - L - R) * s) / maxStep;
  const y = (v: number) => T + ((H - T - B) * (hi - v)) / (hi - lo);
  el('line', { x1: L, y1: y(0), x2: W - R, y2: y(0), class: 'zero' }, svg);
  let lastTurn: number | undefined;
  for (const p of points) {
    if (p.turn !== undefined && p.turn !== lastTurn) {
      el('line', { x1: x(p.step), y1: T, x2: x(p.step), y2: H - B, class: 'turn-line' }, svg);
      el('text', { x: x(p.step) + 2, y: H - 6, class: 'axis' }, svg).textContent = `T${p.turn}`;
      lastTurn = p.turn;
    }
  }
  el('text', { x: 4, y: y(hi) + 8, class: 'axis' }, svg).textContent = String(hi);
  el('text', { x: 4, y: y(lo), class: 'axis' }, svg).textContent = String(lo);
  const last = withVp[withVp.length - 1];
  const labels: string[] = [];
  series.forEach((k, i) => {
    const pts = withVp.filter((p) => typeof p.all[i] === 'number');
    if (!pts.length) return;
    const colour = SERIES_COLORS[i % SERIES_COLORS.length];
    el('polyline', { points: pts.map((p) => `${x(p.step)},${y(p.all[i]!)}`).join(' '), class: `vp-line vp-line-${i}`, 'data-series': k, style: `stroke: ${colour}`, 'stroke-dasharray': i ? '5 3' : '' }, svg);
    if (series.length > 1) {
      // Legend: a dash pattern as well as a colour, so it reads without colour.
      const lx = L + 6 + i * 90;
      el('line', { x1: lx, y1: T + 4, x2: lx + 16, y2: T + 4, style: `stroke: ${colour}; stroke-width: 2`, 'stroke-dasharray': i ? '5 3' : '' }, svg);
      el('text', { x: lx + 20, y: T + 8, class: 'axis legend' }, svg).textContent = `${k.charAt(0).toUpperCase()}${k.slice(1)} ${last.all[i] ?? ''}`;
    }
    labels.push(`${k === 'vp' ? '' : `${k} `}now ${last.all[i] ?? 'n/a'}`);
  });
  svg.setAttribute('aria-label', `Victory points by move: ${labels.join(', ')}; lowest ${Math.min(...vps)}, highest ${Math.max(...vps)}`);
  return svg;
}

// Losses per turn: one bar per side and turn (steps eliminated in that turn), from the
// timeline's running totals. Sides differ by fill pattern as well as colour.
export function lossPlot(raw: TimelinePoint[]): SVGSVGElement {
  const { sides, turns } = lossesPerTurn(raw);
  const W = 320, H = 140, L = 34, B = 22, T = 18, R = 8;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'loss-plot');
  svg.setAttribute('role', 'img');
  if (!sides.length || !turns.length) {
    svg.setAttribute('aria-label', 'No losses yet');
    el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'axis' }, svg).textContent = 'No losses yet';
    return svg;
  }
  const hi = Math.max(1, ...turns.flatMap((t) => sides.map((s) => t.steps[s])));
  const slot = (W - L - R) / turns.length;
  const bw = Math.max(2, Math.min(14, (slot - 2) / sides.length));
  const y = (v: number) => T + ((H - T - B) * (hi - v)) / hi;
  el('line', { x1: L, y1: y(0), x2: W - R, y2: y(0), class: 'zero' }, svg);
  el('text', { x: 4, y: y(hi) + 8, class: 'axis' }, svg).textContent = String(hi);
  el('text', { x: 4, y: y(0), class: 'axis' }, svg).textContent = '0';
  const every = Math.ceil(turns.length / 10);
  turns.forEach((t, i) => {
    const x0 = L + i * slot + (slot - bw * sides.length) / 2;
    sides.forEach((s, k) => {
      const v = t.steps[s];
      if (v <= 0) return;
      const bar = el('rect', { x: x0 + k * bw, y: y(v), width: bw - 1, height: y(0) - y(v), class: `loss-bar loss-bar-${k}`, 'data-side': s, 'data-turn': t.turn, 'data-steps': v, style: `fill: ${SERIES_COLORS[k % SERIES_COLORS.length]}; fill-opacity: ${k ? 0.55 : 1}; stroke: #111; stroke-width: 0.5` }, svg);
      el('title', {}, bar).textContent = `Turn ${t.turn}: ${s} lost ${t.units[s]} unit(s), ${v} step(s)`;
    });
    if (i % every === 0) el('text', { x: L + i * slot + 1, y: H - 6, class: 'axis' }, svg).textContent = `T${t.turn}`;
  });
  const totals = sides.map((s) => `${s} ${turns.reduce((n, t) => n + t.steps[s], 0)}`);
  sides.forEach((s, k) => {
    const lx = L + 6 + k * 110;
    el('rect', { x: lx, y: 4, width: 10, height: 8, style: `fill: ${SERIES_COLORS[k % SERIES_COLORS.length]}; fill-opacity: ${k ? 0.55 : 1}; stroke: #111; stroke-width: 0.5` }, svg);
    el('text', { x: lx + 14, y: 12, class: 'axis legend' }, svg).textContent = `${s.charAt(0).toUpperCase()}${s.slice(1)} ${turns.reduce((n, t) => n + t.steps[s], 0)} steps`;
  });
  svg.setAttribute('aria-label', `Steps lost per turn; totals: ${totals.join(', ')}; ` + turns.map((t) => `turn ${t.turn}: ${sides.map((s) => `${s} ${t.steps[s]}`).join(', ')}`).join('; '));
  return svg;
}
