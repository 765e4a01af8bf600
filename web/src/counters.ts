// NATO-style counters: side colour, unit-type symbol, size marker, factors.
import { Counter } from './model';
import { el } from './svg';

// Colour-blind-safe side colours (blue / orange families), readable with white text.
export const SIDE_COLORS = ['#4a6f8f', '#c4622d', '#6b8e23', '#8e5b9e'];
export const SIDE_TEXT = ['#ffffff', '#ffffff', '#ffffff', '#ffffff'];

type Symbol = 'infantry' | 'armor' | 'mech' | 'cavalry' | 'mountain' | 'airborne' | 'fortress' | 'artillery' | 'hq';

export function symbolOf(type?: string, label = ''): Symbol {
  const t = (type ?? '').toLowerCase();
  if (/tank|panzer|tiger|armou?r/.test(t)) return 'armor';
  if (/mech|kampfgruppe|cm-group|motor/.test(t)) return 'mech';
  if (/cav/.test(t)) return 'cavalry';
  if (/mountain/.test(t)) return 'mountain';
  if (/airborne|paratroop|para/.test(t)) return 'airborne';
  if (/fortress|coastal-command|fortified/.test(t)) return 'fortress';
  if (/artillery|counter-fire/.test(t)) return 'artillery';
  if (!t) {
    if (/Pz|TA|TC|MC/.test(label)) return 'armor';
    if (/Cav|CC/.test(label)) return 'cavalry';
  }
  return 'infantry';
}

export function sizeMarker(size?: string, type?: string): string {
  if (size) return size;
  const t = (type ?? '').toLowerCase();
  if (/army/.test(t)) return 'XXXX';
  if (/corps|panzer/.test(t)) return 'XXX';
  return '';
}

// Draws one counter of side `c.sideIndex` centred at (x, y), `s` wide.
export function drawCounter(parent: Element, c: Counter, x: number, y: number, s: number, opts: { selected?: boolean; hiddenCount?: number } = {}) {
  const g = el('g', { class: 'counter' + (opts.selected ? ' selected' : ''), transform: `translate(${x - s / 2},${y - s / 2})` }, parent);
  const fill = SIDE_COLORS[c.sideIndex % SIDE_COLORS.length];
  el('rect', { x: 0.03 * s, y: 0.05 * s, width: s, height: s, rx: 0.08 * s, fill: 'rgba(0,0,0,0.35)' }, g);
  el('rect', { width: s, height: s, rx: 0.08 * s, fill, stroke: opts.selected ? '#ffd400' : '#1b1b1b', 'stroke-width': opts.selected ? 0.09 * s : 0.03 * s }, g);
  // The unit-type box.
  const bw = 0.56 * s;
  const bh = 0.36 * s;
  const bx = (s - bw) / 2;
  const by = 0.24 * s;
  const ink = SIDE_TEXT[c.sideIndex % SIDE_TEXT.length];
  const sw = 0.035 * s;
  el('rect', { x: bx, y: by, width: bw, height: bh, fill: 'none', stroke: ink, 'stroke-width': sw }, g);
  const sym = symbolOf(c.type, c.label);
  const line = (x1: number, y1: number, x2: number, y2: number) =>
    el('line', { x1, y1, x2, y2, stroke: ink, 'stroke-width': sw }, g);
  if (sym === 'infantry' || sym === 'mech' || sym === 'mountain' || sym === 'airborne') {
    line(bx, by, bx + bw, by + bh);
    line(bx, by + bh, bx + bw, by);
  }
  if (sym === 'armor' || sym === 'mech')
    el('ellipse', { cx: s / 2, cy: by + bh / 2, rx: bw * 0.34, ry: bh * 0.3, fill: 'none', stroke: ink, 'stroke-width': sw }, g);
  if (sym === 'cavalry') line(bx, by + bh, bx + bw, by);
  if (sym === 'mountain')
    el('polygon', { points: `${s / 2 - bw * 0.14},${by + bh} ${s / 2},${by + bh * 0.7} ${s / 2 + bw * 0.14},${by + bh}`, fill: ink }, g);
  if (sym === 'airborne')
    el('path', { d: `M ${s / 2 - bw * 0.22} ${by + bh * 0.85} Q ${s / 2 - bw * 0.11} ${by + bh * 0.6} ${s / 2} ${by + bh * 0.85} Q ${s / 2 + bw * 0.11} ${by + bh * 0.6} ${s / 2 + bw * 0.22} ${by + bh * 0.85}`, fill: 'none', stroke: ink, 'stroke-width': sw }, g);
  if (sym === 'fortress') {
    line(bx + bw * 0.2, by + bh * 0.75, bx + bw * 0.8, by + bh * 0.75);
    for (let i = 0; i < 3; i++) el('rect', { x: bx + bw * (0.2 + i * 0.24), y: by + bh * 0.35, width: bw * 0.12, height: bh * 0.4, fill: ink }, g);
  }
  if (sym === 'artillery') el('circle', { cx: s / 2, cy: by + bh / 2, r: bh * 0.14, fill: ink }, g);
  const size = sizeMarker(c.size, c.type);
  if (size) el('text', { x: s / 2, y: by - 0.03 * s, 'text-anchor': 'middle', 'font-size': 0.15 * s, fill: ink, 'font-weight': 700, 'letter-spacing': 0.01 * s }, g).textContent = size;
  const name = el('text', { x: s / 2, y: by + bh + 0.16 * s, 'text-anchor': 'middle', 'font-size': 0.15 * s, fill: ink, 'font-weight': 600 }, g);
  const shown = c.display ?? c.label;
  name.textContent = shown.length > 7 ? shown.slice(0, 7) : shown;
  const factors = c.attack !== undefined && c.defense !== undefined ? `${c.attack}-${c.defense}` : c.mp !== undefined && c.mp >= 0 ? `mp ${c.mp}` : '';
  if (factors) el('text', { x: s / 2, y: s - 0.06 * s, 'text-anchor': 'middle', 'font-size': 0.2 * s, fill: ink, 'font-weight': 700 }, g).textContent = factors;
  // Step state: a block's strength as pips along the bottom (filled = steps left), a
  // reduced counter with a diagonal band and an "R".
  if (!factors && c.steps !== undefined) {
    const max = Math.max(c.maxSteps ?? c.steps, c.steps, 1);
    const pw = Math.min(0.16, 0.8 / max) * s;
    const x0 = s / 2 - (pw * max) / 2;
    const steps = el('g', { class: 'steps', 'data-steps': `${c.steps}/${max}` }, g);
    for (let i = 0; i < max; i++)
      el('rect', { x: x0 + i * pw + 0.01 * s, y: s - 0.19 * s, width: pw - 0.02 * s, height: 0.11 * s, fill: i < c.steps ? ink : 'none', stroke: ink, 'stroke-width': 0.02 * s }, steps);
  }
  if (c.reduced) {
    el('path', { d: `M ${0.62 * s} 0 L ${s} 0 L ${s} ${0.38 * s} Z`, fill: '#ffd400', class: 'reduced-band' }, g);
    el('text', { x: 0.88 * s, y: 0.17 * s, 'text-anchor': 'middle', 'font-size': 0.14 * s, fill: '#111', 'font-weight': 700 }, g).textContent = 'R';
  }
  if (c.isolated) {
    // Out of supply: a white "U" disc (text as well as colour) at the bottom-left corner.
    el('circle', { cx: 0.13 * s, cy: 0.87 * s, r: 0.12 * s, fill: '#fff', stroke: '#111', 'stroke-width': 0.02 * s, class: 'isolated-mark' }, g);
    el('text', { x: 0.13 * s, y: 0.915 * s, 'text-anchor': 'middle', 'font-size': 0.14 * s, fill: '#b3121b', 'font-weight': 700 }, g).textContent = 'U';
  }
  const mark = supplyMark(c);
  if (mark) {
    // BD supply (7.2, 7.8): a letter disc at the bottom-left corner, text as well as colour.
    el('circle', { cx: 0.13 * s, cy: 0.87 * s, r: 0.12 * s, fill: '#fff', stroke: '#111', 'stroke-width': 0.02 * s, class: 'supply-mark', 'data-supply': c.supply ?? '' }, g);
    el('text', { x: 0.13 * s, y: 0.915 * s, 'text-anchor': 'middle', 'font-size': 0.14 * s, fill: mark.letter === 'U' ? '#b3121b' : '#111', 'font-weight': 700 }, g).textContent = mark.letter;
  }
  if (opts.hiddenCount && opts.hiddenCount > 0) {
    el('circle', { cx: s * 0.92, cy: s * 0.08, r: 0.16 * s, fill: '#111', stroke: '#fff', 'stroke-width': 0.02 * s }, g);
    el('text', { x: s * 0.92, y: s * 0.13, 'text-anchor': 'middle', 'font-size': 0.16 * s, fill: '#fff', 'font-weight': 700 }, g).textContent = `+${opts.hiddenCount}`;
  }
  const title = el('title', {}, g);
  title.textContent = describeCounter(c);
  return g;
}

// The supply states worth a mark on the counter (full overland supply needs none).
const SUPPLY_TEXT: Record<string, { letter: string; text: string }> = {
  oos: { letter: 'U', text: 'out of supply (7.16: movement and combat halved)' },
  garrison: { letter: 'G', text: 'garrison supply (7.6, 7.13)' },
  coastal: { letter: 'C', text: 'coastal supply (7.5)' },
  aerial: { letter: 'A', text: 'aerial supply (7.7)' },
};

export function supplyMark(c: Counter): { letter: string; text: string } | null {
  if (c.isolated) return null; // drawn as the block games' isolated mark
  return c.supply ? SUPPLY_TEXT[c.supply] ?? null : null;
}

// Readable supply state of a unit ("out of supply (7.16 ...)"), or '' when not given.
export function supplyDescription(c: Counter): string {
  if (c.supply === undefined) return '';
  const base = SUPPLY_TEXT[c.supply]?.text ?? (c.supply === 'overland' ? 'overland supply' : c.supply === 'always' ? 'always in supply' : `supply ${c.supply}`);
  if (c.offensive === false) return `${base}, no offensive supply (7.10: attack halved)`;
  if (c.offensive === true) return `${base}, offensive supply (7.10)`;
  return base;
}

export function describeCounter(c: Counter): string {
  const parts = [c.side, c.label];
  if (c.name) parts.push(`(${c.name})`);
  if (c.type) parts.push(c.type.replace(/-/g, ' '));
  if (c.attack !== undefined && c.defense !== undefined) parts.push(`${c.attack}-${c.defense}`);
  if (c.steps !== undefined) parts.push(c.maxSteps !== undefined ? `${c.steps} of ${c.maxSteps} steps` : `${c.steps} steps`);
  if (c.reduced) parts.push('reduced');
  if (c.isolated) parts.push('isolated (out of supply)');
  const sup = supplyDescription(c);
  if (sup) parts.push(sup);
  if (c.mf !== undefined) parts.push(`MF ${c.mf}`);
  if (c.mp !== undefined && c.mp >= 0) parts.push(`${c.mp} MP left`);
  return parts.join(' ');
}
