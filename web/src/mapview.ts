// The map as SVG: terrain, hexside features (rivers, borders), railways, cities, hex ids
// when zoomed in, counters, and overlays for reachable hexes, paths, targets and the
// keyboard cursor. Pans and zooms with wheel, drag and pinch.
import { drawCounter, SIDE_COLORS } from './counters';
import { centerOf, hexCorners, Point, sharedEdge } from './hexgrid';
import { MapData, MapHex, Stack } from './model';
import { el, SVG_NS } from './svg';

// Colour-blind-safe terrain palette (distinct in lightness, patterns where hue alone
// would carry the meaning).
export const TERRAIN_COLORS: Record<string, string> = {
  clear: '#efe9d2',
  rough: '#b99c6b',
  hills: '#cdb68a',
  mountain: '#8f8172',
  forest: '#7ea36a',
  woods: '#7ea36a',
  swamp: '#a8c9b8',
  marsh: '#a8c9b8',
  'desert-steppe': '#ead08f',
  'all-sea': '#9fc8e8',
  'all-lake': '#b5daf3',
  sea: '#9fc8e8',
  lake: '#b5daf3',
};

export interface MapEvents {
  onHexClick?: (id: string, ev: MouseEvent) => void;
  onHexHover?: (id: string | null) => void;
}

export class MapView {
  readonly svg: SVGSVGElement;
  private world: SVGGElement;
  private overlay: SVGGElement;
  private counterLayer: SVGGElement;
  private cursorLayer: SVGGElement;
  private view = { x: 0, y: 0, w: 10, h: 10 };
  private bounds = { x: 0, y: 0, w: 10, h: 10 };
  private centres = new Map<string, Point>();
  private pointers = new Map<number, { x: number; y: number }>();
  private dragMoved = false;
  private pinchDist = 0;
  // The view shows the whole map and has not been panned or zoomed since: a resize
  // (the first layout included) fits it again.
  private fitted = false;

  constructor(
    container: HTMLElement,
    readonly map: MapData,
    private events: MapEvents = {},
  ) {
    this.svg = document.createElementNS(SVG_NS, 'svg');
    this.svg.setAttribute('class', 'map');
    this.svg.setAttribute('role', 'img');
    this.svg.setAttribute('aria-label', 'Game map');
    container.appendChild(this.svg);
    const defs = el('defs', {}, this.svg);
    const marsh = el('pattern', { id: 'pat-marsh', width: 0.4, height: 0.25, patternUnits: 'userSpaceOnUse' }, defs);
    el('rect', { width: 0.4, height: 0.25, fill: TERRAIN_COLORS.marsh }, marsh);
    el('path', { d: 'M0.05 0.15 h0.12 M0.22 0.08 h0.12', stroke: '#3f7a66', 'stroke-width': 0.025 }, marsh);
    const steppe = el('pattern', { id: 'pat-steppe', width: 0.3, height: 0.3, patternUnits: 'userSpaceOnUse' }, defs);
    el('rect', { width: 0.3, height: 0.3, fill: TERRAIN_COLORS['desert-steppe'] }, steppe);
    el('circle', { cx: 0.15, cy: 0.15, r: 0.025, fill: '#a8893f' }, steppe);
    const rough = el('pattern', { id: 'pat-rough', width: 0.5, height: 0.4, patternUnits: 'userSpaceOnUse' }, defs);
    el('rect', { width: 0.5, height: 0.4, fill: TERRAIN_COLORS.rough }, rough);
    el('path', { d: 'M0.05 0.3 l0.1 -0.15 l0.1 0.15', stroke: '#6e5632', 'stroke-width': 0.03, fill: 'none' }, rough);
    const forest = el('pattern', { id: 'pat-forest', width: 0.4, height: 0.4, patternUnits: 'userSpaceOnUse' }, defs);
    el('rect', { width: 0.4, height: 0.4, fill: TERRAIN_COLORS.forest }, forest);
    el('circle', { cx: 0.2, cy: 0.2, r: 0.08, fill: '#4f7a3e' }, forest);

    this.world = el('g', { class: 'world' }, this.svg);
    this.draw();
    this.overlay = el('g', { class: 'overlay' }, this.world);
    this.counterLayer = el('g', { class: 'counters' }, this.world);
    this.cursorLayer = el('g', { class: 'cursor' }, this.world);
    this.fitAll();
    this.attachInput();
  }

  centre(id: string): Point | null {
    return this.centres.get(id) ?? centerOf(this.map.grid, id);
  }

  private terrainFill(t: string): string {
    if (t === 'marsh') return 'url(#pat-marsh)';
    if (t === 'desert-steppe') return 'url(#pat-steppe)';
    if (t === 'rough') return 'url(#pat-rough)';
    if (t === 'forest' || t === 'woods') return 'url(#pat-forest)';
    if (t === 'swamp') return 'url(#pat-marsh)';
    return TERRAIN_COLORS[t] ?? '#dddddd';
  }

  private draw() {
    const terrain = el('g', { class: 'terrain' }, this.world);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const hex of this.map.hexes) {
      const c = centerOf(this.map.grid, hex.id);
      if (!c) continue;
      this.centres.set(hex.id, c);
      minX = Math.min(minX, c.x - 1);
      maxX = Math.max(maxX, c.x + 1);
      minY = Math.min(minY, c.y - 1);
      maxY = Math.max(maxY, c.y + 1);
      const pts = hexCorners(c, 1, this.map.grid.orientation).map((p) => `${p.x.toFixed(3)},${p.y.toFixed(3)}`).join(' ');
      const water = /sea|lake/.test(hex.terrain);
      el('polygon', { points: pts, fill: this.terrainFill(hex.terrain), class: water ? 'hex water' : 'hex', 'data-hex': hex.id }, terrain);
    }
    this.bounds = { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
    // Neutral / enemy-country tint from the map's starting control.
    const tint = el('g', { class: 'tint' }, this.world);
    for (const hex of this.map.hexes) {
      if (hex.control !== 'neutral') continue;
      const c = this.centres.get(hex.id)!;
      el('polygon', { points: hexCorners(c, 1, this.map.grid.orientation).map((p) => `${p.x},${p.y}`).join(' '), fill: '#7a7a7a', opacity: 0.28, 'pointer-events': 'none' }, tint);
    }
    // Hexside features.
    const sides = el('g', { class: 'hexsides' }, this.world);
    for (const s of this.map.hexsides) {
      const a = this.centres.get(s.a);
      const b = this.centres.get(s.b);
      if (!a || !b) continue;
      const [p, q] = sharedEdge(a, b);
      const f = s.features;
      const attrs = { x1: p.x, y1: p.y, x2: q.x, y2: q.y, 'stroke-linecap': 'round' };
      if (f.includes('border')) el('line', { ...attrs, stroke: '#5b2c83', 'stroke-width': 0.13, 'stroke-dasharray': '0.22 0.12', class: 'border' }, sides);
      if (f.includes('major-river')) el('line', { ...attrs, stroke: '#1f5fa8', 'stroke-width': 0.24, class: 'river major' }, sides);
      else if (f.includes('river')) el('line', { ...attrs, stroke: '#2b7bd0', 'stroke-width': 0.13, class: 'river' }, sides);
      if (f.includes('strait')) el('line', { ...attrs, stroke: '#1f5fa8', 'stroke-width': 0.2, 'stroke-dasharray': '0.05 0.1', class: 'strait' }, sides);
    }
    // Railways through hex centres.
    const rails = el('g', { class: 'rails' }, this.world);
    for (const line of this.map.railways) {
      const pts = line.map((id) => this.centres.get(String(id))).filter((p): p is Point => !!p);
      if (pts.length < 2) continue;
      const d = pts.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(3)} ${p.y.toFixed(3)}`).join(' ');
      el('path', { d, fill: 'none', stroke: '#2d2d2d', 'stroke-width': 0.11, 'stroke-linejoin': 'round' }, rails);
      el('path', { d, fill: 'none', stroke: '#f4f1e6', 'stroke-width': 0.05, 'stroke-dasharray': '0.15 0.15', 'stroke-linejoin': 'round' }, rails);
    }
    // Cities and names.
    const places = el('g', { class: 'places' }, this.world);
    for (const hex of this.map.hexes) {
      const c = this.centres.get(hex.id)!;
      const city = hex.features.includes('city') || !!hex.name;
      if (city) {
        if (hex.features.includes('capital')) this.star(places, c.x, c.y - 0.1, 0.3, '#b3121b');
        else el('rect', { x: c.x - 0.16, y: c.y - 0.26, width: 0.32, height: 0.32, fill: '#fff', stroke: '#111', 'stroke-width': 0.06 }, places);
        if (hex.vp) this.star(places, c.x + 0.42, c.y - 0.48, 0.16, '#d1a000');
      }
      if (hex.features.includes('oil')) el('circle', { cx: c.x - 0.42, cy: c.y - 0.45, r: 0.11, fill: '#111' }, places);
      if (hex.name) {
        const t = el('text', { x: c.x, y: c.y + 0.45, 'text-anchor': 'middle', class: 'place-name' }, places);
        t.textContent = hex.name;
      }
    }
    const ids = el('g', { class: 'hex-ids' }, this.world);
    for (const hex of this.map.hexes) {
      const c = this.centres.get(hex.id)!;
      el('text', { x: c.x, y: c.y - 0.62, 'text-anchor': 'middle', class: 'hex-id' }, ids).textContent = hex.id;
    }
    // Areas (area-movement games): polygons with names.
    const areaFill: Record<string, string> = { green: '#c8dcae', clear: '#efe9d2', land: '#e6dfc4', lake: '#b5daf3', forest: TERRAIN_COLORS.forest, city: '#e2d6c0', marsh: TERRAIN_COLORS.marsh };
    for (const area of this.map.areas) {
      this.centres.set(area.id, { x: area.centre[0], y: area.centre[1] });
      for (const [x, y] of area.polygon) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
      el('polygon', { points: area.polygon.map((p) => p.join(',')).join(' '), fill: areaFill[area.terrain] ?? TERRAIN_COLORS[area.terrain] ?? '#efe9d2', stroke: '#6b6454', 'stroke-width': 0.06, class: 'area', 'data-hex': area.id }, terrain);
      const t = el('text', { x: area.centre[0], y: area.centre[1] + 0.9, 'text-anchor': 'middle', class: 'place-name' }, places);
      t.textContent = area.name ?? area.id;
      el('text', { x: area.centre[0], y: area.centre[1] - 0.75, 'text-anchor': 'middle', class: 'hex-id area-id' }, ids).textContent = area.id;
    }
    // Area maps: each river's course as a thin line, and the borders it forms (the river
    // crossings of the rules: the connections typed "river", which the map's river model
    // derives) as a broad blue line along the two areas' common border.
    const areaRivers = el('g', { class: 'area-rivers' }, this.world);
    this.world.insertBefore(areaRivers, rails);
    for (const r of this.map.rivers) {
      const d = r.line.map((p, i) => `${i ? 'L' : 'M'}${p[0].toFixed(3)} ${p[1].toFixed(3)}`).join(' ');
      const path = el('path', { d, fill: 'none', stroke: '#2b7bd0', 'stroke-width': 0.14, 'stroke-linejoin': 'round', 'stroke-linecap': 'round', class: 'river', 'pointer-events': 'none' }, areaRivers);
      if (r.name) el('title', {}, path).textContent = r.name;
    }
    const polygons = new Map(this.map.areas.map((a) => [a.id, a.polygon]));
    const key = (p: [number, number]) => `${p[0].toFixed(4)},${p[1].toFixed(4)}`;
    for (const c of this.map.connections) {
      if (!c.types.includes('river')) continue;
      const pa = polygons.get(c.a);
      const pb = polygons.get(c.b);
      if (!pa || !pb) continue;
      const inB = new Set(pb.map(key));
      for (let i = 0; i < pa.length; i++) {
        const p = pa[i];
        const q = pa[(i + 1) % pa.length];
        if (!inB.has(key(p)) || !inB.has(key(q))) continue;
        const line = el('line', { x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke: '#1f5fa8', 'stroke-width': 0.45, 'stroke-linecap': 'round', class: 'river-border', 'data-areas': `${c.a}-${c.b}` }, areaRivers);
        el('title', {}, line).textContent = `${(c.rivers ?? ['river']).join(', ')}: ${c.a}-${c.b} (10.12.5.1)`;
      }
    }
    for (const c of this.map.connections) {
      if (!c.types.includes('road_to_leningrad')) continue;
      const a = this.centres.get(c.a);
      const b = this.centres.get(c.b);
      if (a && b) el('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: '#6b3d1f', 'stroke-width': 0.12, 'stroke-dasharray': '0.3 0.15', class: 'road', 'pointer-events': 'none' }, rails);
    }
    // Off-map boxes (Moscow '41 2.2): Rastenburg, Kiev and the Road to Leningrad, drawn
    // as labelled boxes that hold blocks like an area does.
    const boxes = el('g', { class: 'boxes' }, this.world);
    this.world.insertBefore(boxes, rails);
    for (const b of this.map.boxes) {
      this.centres.set(b.id, { x: b.x + b.w / 2, y: b.y + b.h / 2 + 0.4 });
      minX = Math.min(minX, b.x);
      maxX = Math.max(maxX, b.x + b.w);
      minY = Math.min(minY, b.y);
      maxY = Math.max(maxY, b.y + b.h);
      const r = el('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: 0.4, class: `box box-${b.kind}`, 'data-hex': b.id, fill: b.kind === 'road' ? '#e7dcc3' : '#ddd6c6', stroke: '#4b4436', 'stroke-width': 0.1 }, boxes);
      el('title', {}, r).textContent = `${b.name} box${b.kind === 'road' ? ' (Road to Leningrad)' : ''}`;
      el('text', { x: b.x + b.w / 2, y: b.y + 0.95, 'text-anchor': 'middle', class: 'box-name', 'pointer-events': 'none' }, boxes).textContent = b.name;
      if (b.victory) this.star(boxes, b.x + 0.7, b.y + 0.8, 0.55, '#d1a000');
      el('text', { x: b.x + b.w - 0.3, y: b.y + b.h - 0.3, 'text-anchor': 'end', class: 'hex-id area-id', 'pointer-events': 'none' }, ids).textContent = b.id;
    }
    if (this.map.boxes.some((b) => b.kind === 'road'))
      el('text', { x: this.map.boxes.find((b) => b.kind === 'road')!.x, y: this.map.boxes.find((b) => b.kind === 'road')!.y - 0.5, class: 'box-caption', 'pointer-events': 'none' }, boxes).textContent = 'Road to Leningrad (10.9): Pskov → Leningrad';
    if (Number.isFinite(minX)) this.bounds = { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
  }

  private star(parent: Element, x: number, y: number, r: number, fill: string) {
    const pts: string[] = [];
    for (let i = 0; i < 10; i++) {
      const a = (Math.PI / 5) * i - Math.PI / 2;
      const rr = i % 2 ? r * 0.45 : r;
      pts.push(`${x + rr * Math.cos(a)},${y + rr * Math.sin(a)}`);
    }
    el('polygon', { points: pts.join(' '), fill, stroke: '#222', 'stroke-width': 0.03 }, parent);
  }

  setStacks(stacks: Stack[], selectedUnit?: string) {
    this.counterLayer.replaceChildren();
    // Two sides in one place (a contested Moscow '41 area): their stacks side by side, in
    // side order, so that neither hides the other.
    const here = new Map<string, Stack[]>();
    for (const st of stacks) here.set(st.hex, [...(here.get(st.hex) ?? []), st]);
    for (const st of stacks) {
      const c0 = this.centre(st.hex);
      if (!c0) continue;
      const all = here.get(st.hex)!.slice().sort((a, b) => a.sideIndex - b.sideIndex);
      const dx = all.length > 1 ? (all.indexOf(st) - (all.length - 1) / 2) * (this.map.areas.length ? 2.6 : 0.6) : 0;
      const c = { x: c0.x + dx, y: c0.y };
      const units = st.units.length ? st.units : [{ label: '?', side: st.side, sideIndex: st.sideIndex }];
      // The selected unit on top; the rest in the observation's order.
      const shown = [...units.filter((u) => u.label === selectedUnit), ...units.filter((u) => u.label !== selectedUnit)];
      // Draw bottom-up, offset like a physical stack; the top unit is last. Units beyond
      // the third lie under it (counted on the top counter's badge) but are still drawn, so
      // every unit on the map has its element.
      for (let i = shown.length - 1; i >= 0; i--) {
        const u = shown[i];
        // Areas are several hexes wide: draw blocks bigger there so their steps read.
        const size = this.map.areas.length ? 2.2 : 1.05;
        const off = Math.min(i, 2) * 0.1 * size;
        const g = drawCounter(this.counterLayer, u, c.x + off, c.y + off - 0.05 * size, size, {
          selected: selectedUnit === u.label,
          hiddenCount: i === 0 ? st.count - shown.length + (shown.length > 3 ? shown.length - 3 : 0) : 0,
        });
        if (i >= 3) g.setAttribute('aria-hidden', 'true');
        g.setAttribute('data-hex', st.hex);
        g.setAttribute('data-unit', u.label);
      }
    }
  }

  setControl(hexes: string[], side: number) {
    const old = this.world.querySelector('g.control');
    old?.remove();
    const g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('class', 'control');
    this.world.insertBefore(g, this.overlay);
    for (const id of hexes) {
      const pts = this.outline(id, 0.9);
      if (!pts) continue;
      el('polygon', { points: pts, fill: 'none', stroke: SIDE_COLORS[side], 'stroke-width': 0.08, opacity: 0.55, 'pointer-events': 'none' }, g);
    }
  }

  // reach: hexes a selected unit can end in; targets: hexes that can be attacked; path:
  // a previewed move.
  // The outline of a hex or an area, shrunk by `k` about its centre.
  private outline(id: string, k: number): string | null {
    const box = this.map.boxes.find((b) => b.id === id);
    if (box) {
      const m = k < 1 ? 0.15 : 0;
      return [[box.x + m, box.y + m], [box.x + box.w - m, box.y + m], [box.x + box.w - m, box.y + box.h - m], [box.x + m, box.y + box.h - m]].map((p) => p.join(',')).join(' ');
    }
    const area = this.map.areas.find((a) => a.id === id);
    if (area) {
      const [cx, cy] = area.centre;
      const s = k < 1 ? 0.96 : 1;
      return area.polygon.map(([x, y]) => `${cx + (x - cx) * s},${cy + (y - cy) * s}`).join(' ');
    }
    const c = this.centre(id);
    return c ? hexCorners(c, k, this.map.grid.orientation).map((p) => `${p.x},${p.y}`).join(' ') : null;
  }

  // reach: where a selected unit can end; cost: a label for each of them (hexes or MP).
  setOverlay(o: { reach?: Iterable<string>; cost?: Map<string, string>; targets?: Iterable<string>; path?: string[]; selectedHex?: string; battle?: string }) {
    this.overlay.replaceChildren();
    for (const id of o.reach ?? []) {
      const pts = this.outline(id, 0.92);
      if (pts) el('polygon', { points: pts, class: 'reach', 'data-hex': id }, this.overlay);
      const label = o.cost?.get(id);
      const c = this.centre(id);
      if (label && c) {
        const t = el('text', { x: c.x, y: c.y + 0.8, 'text-anchor': 'middle', class: 'reach-cost', 'data-hex': id }, this.overlay);
        t.textContent = label;
      }
    }
    for (const id of o.targets ?? []) {
      const c = this.centre(id);
      if (!c) continue;
      el('circle', { cx: c.x, cy: c.y, r: 0.78, class: 'target', 'data-hex': id }, this.overlay);
      el('path', { d: `M${c.x - 0.95} ${c.y} h0.35 M${c.x + 0.6} ${c.y} h0.35 M${c.x} ${c.y - 0.95} v0.35 M${c.x} ${c.y + 0.6} v0.35`, class: 'target-cross' }, this.overlay);
    }
    if (o.selectedHex) {
      const pts = this.outline(o.selectedHex, 0.97);
      if (pts) el('polygon', { points: pts, class: 'selected-hex' }, this.overlay);
    }
    if (o.battle) {
      const c = this.centre(o.battle);
      if (c) el('polygon', { points: hexCorners(c, 0.97, this.map.grid.orientation).map((p) => `${p.x},${p.y}`).join(' '), class: 'battle-hex' }, this.overlay);
    }
    if (o.path && o.path.length > 1) {
      const pts = o.path.map((id) => this.centre(id)).filter((p): p is Point => !!p);
      el('path', { d: pts.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join(' '), class: 'path' }, this.overlay);
      const end = pts[pts.length - 1];
      el('circle', { cx: end.x, cy: end.y, r: 0.22, class: 'path-end' }, this.overlay);
    }
  }

  // `follow`: scroll the map when the cursor nears the edge (keyboard navigation).
  setCursor(id: string | null, follow = false) {
    this.cursorLayer.replaceChildren();
    if (!id) return;
    const c = this.centre(id);
    if (!c) return;
    el('polygon', { points: this.outline(id, 1) ?? '', class: 'kbd-cursor', 'data-hex': id }, this.cursorLayer);
    const margin = 2;
    if (follow && (c.x < this.view.x + margin || c.x > this.view.x + this.view.w - margin || c.y < this.view.y + margin || c.y > this.view.y + this.view.h - margin))
      this.centreOn(id);
  }

  centreOn(id: string) {
    const c = this.centre(id);
    if (!c) return;
    this.fitted = false;
    this.view.x = c.x - this.view.w / 2;
    this.view.y = c.y - this.view.h / 2;
    this.apply();
  }

  // The whole map on screen: its width, or its height where it is taller than the view
  // (Moscow '41's board with the Road to Leningrad above it).
  fitAll() {
    this.fitted = true;
    this.view = { ...this.bounds };
    const rect = this.svg.getBoundingClientRect();
    if (rect.width > 0 && rect.height > 0) {
      const aspect = rect.height / rect.width;
      if (this.bounds.h > this.bounds.w * aspect) {
        this.view.w = this.bounds.h / aspect;
        this.view.x = this.bounds.x + this.bounds.w / 2 - this.view.w / 2;
      }
    }
    this.apply();
  }

  zoom(factor: number, at?: Point) {
    this.fitted = false;
    const p = at ?? { x: this.view.x + this.view.w / 2, y: this.view.y + this.view.h / 2 };
    const w = Math.min(Math.max(this.view.w * factor, 4), this.bounds.w * 2 + 10);
    const k = w / this.view.w;
    this.view.x = p.x - (p.x - this.view.x) * k;
    this.view.y = p.y - (p.y - this.view.y) * k;
    this.view.w = w;
    this.view.h *= k;
    this.apply();
  }

  private apply() {
    const rect = this.svg.getBoundingClientRect();
    const aspect = rect.width > 0 && rect.height > 0 ? rect.height / rect.width : this.view.h / this.view.w;
    this.view.h = this.view.w * aspect;
    // Keep the map on screen: never pan further than a hex beyond its edge.
    const clamp = (v: number, lo: number, hi: number) => (lo > hi ? (lo + hi) / 2 : Math.min(Math.max(v, lo), hi));
    this.view.x = clamp(this.view.x, this.bounds.x - 1, this.bounds.x + this.bounds.w + 1 - this.view.w);
    this.view.y = clamp(this.view.y, this.bounds.y - 1, this.bounds.y + this.bounds.h + 1 - this.view.h);
    this.svg.setAttribute('viewBox', `${this.view.x} ${this.view.y} ${this.view.w} ${this.view.h}`);
    // Hex ids and small names only when a hex is big enough on screen to read them.
    const pxPerHex = rect.width > 0 ? rect.width / this.view.w : 0;
    this.svg.classList.toggle('zoomed-in', pxPerHex > 38);
    this.svg.classList.toggle('zoomed-out', pxPerHex < 14);
  }

  refit() {
    this.apply();
  }

  private toWorld(clientX: number, clientY: number): Point {
    const rect = this.svg.getBoundingClientRect();
    return {
      x: this.view.x + ((clientX - rect.left) / rect.width) * this.view.w,
      y: this.view.y + ((clientY - rect.top) / rect.height) * this.view.h,
    };
  }

  hexAt(clientX: number, clientY: number): string | null {
    const p = this.toWorld(clientX, clientY);
    for (const a of this.map.areas) if (inside(a.polygon, p.x, p.y)) return a.id;
    for (const b of this.map.boxes) if (p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h) return b.id;
    let best: string | null = null;
    let bd = 1.0;
    for (const [id, c] of this.centres) {
      const d = Math.hypot(c.x - p.x, c.y - p.y);
      if (d < bd) {
        bd = d;
        best = id;
      }
    }
    return best;
  }

  private attachInput() {
    this.svg.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoom(Math.exp(e.deltaY * 0.0015), this.toWorld(e.clientX, e.clientY));
      },
      { passive: false },
    );
    this.svg.addEventListener('pointerdown', (e) => {
      this.svg.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      this.dragMoved = false;
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        this.pinchDist = Math.hypot(a.x - b.x, a.y - b.y);
      }
    });
    this.svg.addEventListener('pointermove', (e) => {
      const prev = this.pointers.get(e.pointerId);
      if (!prev) {
        this.events.onHexHover?.(this.hexAt(e.clientX, e.clientY));
        return;
      }
      const rect = this.svg.getBoundingClientRect();
      if (this.pointers.size === 1) {
        const dx = e.clientX - prev.x;
        const dy = e.clientY - prev.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) this.dragMoved = true;
        if (this.dragMoved) {
          this.fitted = false;
          this.view.x -= (dx / rect.width) * this.view.w;
          this.view.y -= (dy / rect.height) * this.view.h;
          this.apply();
          this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
        }
      } else if (this.pointers.size === 2) {
        this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
        const [a, b] = [...this.pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (this.pinchDist > 0 && d > 0) this.zoom(this.pinchDist / d, this.toWorld((a.x + b.x) / 2, (a.y + b.y) / 2));
        this.pinchDist = d;
        this.dragMoved = true;
      }
    });
    const end = (e: PointerEvent) => {
      const had = this.pointers.delete(e.pointerId);
      if (had && !this.dragMoved && this.pointers.size === 0 && e.type === 'pointerup') {
        const id = this.hexAt(e.clientX, e.clientY);
        if (id) this.events.onHexClick?.(id, e);
      }
    };
    this.svg.addEventListener('pointerup', end);
    this.svg.addEventListener('pointercancel', end);
    this.svg.addEventListener('pointerleave', () => this.events.onHexHover?.(null));
    new ResizeObserver(() => (this.fitted ? this.fitAll() : this.apply())).observe(this.svg);
  }
}

export function describeHex(hex: MapHex | undefined, id: string): string {
  if (!hex) return `Hex ${id}`;
  const parts = [`Hex ${id}`];
  if (hex.name) parts.push(hex.name);
  parts.push(hex.terrain.replace(/-/g, ' '));
  const f = hex.features.filter((x) => x !== 'city' || !hex.name);
  if (f.length) parts.push(f.join(', '));
  return parts.join(', ');
}

function inside(poly: [number, number][], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}
