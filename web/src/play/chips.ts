// A small block as in a box beside the map: own (or revealed) blocks drawn like on the map,
// hidden enemy blocks face down (side colour only).
import { drawCounter, SIDE_COLORS } from '../counters';
import type { Counter } from '../model';
import { SVG_NS } from '../svg';

export function blockChip(sideIndex: number, u: Counter | null, title: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '-0.05 -0.05 1.15 1.15');
  svg.setAttribute('class', 'block-chip' + (u ? '' : ' face-down'));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', title);
  if (u) {
    drawCounter(svg, u, 0.5, 0.5, 1);
    svg.setAttribute('data-unit', u.label);
  } else {
    const r = document.createElementNS(SVG_NS, 'rect');
    for (const [k, v] of Object.entries({ width: '1', height: '1', rx: '0.08', fill: SIDE_COLORS[sideIndex], stroke: '#111', 'stroke-width': '0.04' })) r.setAttribute(k, v);
    svg.append(r);
    const t = document.createElementNS(SVG_NS, 'title');
    t.textContent = title;
    svg.append(t);
  }
  return svg;
}
