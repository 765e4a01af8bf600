// A small VP-by-step line chart with turn boundaries.
import { el } from './svg';

export function vpPlot(raw: { step: number; turn?: number; vp?: unknown }[]): SVGSVGElement {
  // Per-side VP ({"german": 3, "soviet": 5}) is plotted as the first side's total.
  const points = raw.map((p) => ({
    ...p,
    vp: typeof p.vp === 'number' ? p.vp : p.vp && typeof p.vp === 'object' ? Number(Object.values(p.vp as object)[0]) : undefined,
  }));
  const W = 320, H = 140, L = 34, B = 22, T = 8, R = 8;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'vp-plot');
  svg.setAttribute('role', 'img');
  const withVp = points.filter((p) => typeof p.vp === 'number');
  if (withVp.length === 0) {
    svg.setAttribute('aria-label', 'No victory points in this game');
    el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'axis' }, svg).textContent = 'No VP track in this game';
    return svg;
  }
  const maxStep = Math.max(1, ...withVp.map((p) => p.step));
  const vps = withVp.map((p) => p.vp!);
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
  el('polyline', { points: withVp.map((p) => `${x(p.step)},${y(p.vp!)}`).join(' '), class: 'vp-line' }, svg);
  const last = withVp[withVp.length - 1];
  svg.setAttribute('aria-label', `Victory points by move: now ${last.vp}, lowest ${Math.min(...vps)}, highest ${Math.max(...vps)}`);
  return svg;
}
