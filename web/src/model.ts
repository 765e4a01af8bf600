// What the UI draws, normalised from a game's map data and a seat's observation, so
// that the drawing code does not depend on one game's JSON shapes.
import { GridDef, idFormatOf, normalizeGrid, parseHexId } from './hexgrid';

export interface MapHex {
  id: string;
  row: number;
  col: number;
  terrain: string;
  name?: string;
  features: string[];
  country?: string;
  control?: string;
  vp?: number;
}
export interface MapData {
  grid: GridDef;
  hexes: MapHex[];
  byId: Map<string, MapHex>;
  hexsides: { a: string; b: string; features: string[] }[];
  railways: string[][];
  countries: Record<string, { name: string; control?: string }>;
  areas: MapArea[];
  // Area maps: rivers as projected polylines, and the connections between areas.
  rivers: { name?: string; line: [number, number][] }[];
  connections: { a: string; b: string; types: string[]; rivers?: string[] }[];
  // Area maps' off-map boxes that hold blocks (Moscow '41 2.2: Rastenburg, Kiev, the
  // ten boxes of the Road to Leningrad), laid out around the map's edge.
  boxes: MapBox[];
}
export interface MapBox {
  id: string;
  name: string;
  kind: string;
  victory?: boolean;
  // Projected map units: top-left corner, width, height.
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface MapArea {
  id: string;
  name?: string;
  terrain: string;
  polygon: [number, number][]; // projected to map units
  centre: [number, number];
  features: string[];
  supply?: string[];
}

// Area maps (lon/lat polygons): an equirectangular projection scaled so that one degree
// of latitude is 12 map units (a hex has radius 1), north up.
function projectAreas(raw: any[], rivers: any[] = []): { areas: MapArea[]; rivers: MapData['rivers'] } {
  const lats = raw.flatMap((a) => (a.polygon ?? []).map((p: number[]) => p[1]));
  const lons = raw.flatMap((a) => (a.polygon ?? []).map((p: number[]) => p[0]));
  if (!lats.length) return { areas: [], rivers: [] };
  const lat0 = (Math.min(...lats) + Math.max(...lats)) / 2;
  const lon0 = (Math.min(...lons) + Math.max(...lons)) / 2;
  const k = 12;
  const cos = Math.cos((lat0 * Math.PI) / 180);
  const proj = (p: number[]): [number, number] => [(p[0] - lon0) * cos * k, (lat0 - p[1]) * k];
  const areas = raw
    .filter((a) => Array.isArray(a.polygon) && a.polygon.length >= 3)
    .map((a) => {
      const poly = a.polygon.map(proj);
      const c = Array.isArray(a.centre) ? proj(a.centre) : poly.reduce((s: number[], p: number[]) => [s[0] + p[0] / poly.length, s[1] + p[1] / poly.length], [0, 0]);
      return {
        id: String(a.id),
        name: a.name,
        terrain: String(a.terrain ?? 'clear'),
        polygon: poly,
        centre: c as [number, number],
        features: Array.isArray(a.features) ? a.features.map(String) : [],
        supply: Array.isArray(a.supply) ? a.supply.map(String) : undefined,
      };
    });
  const lines = rivers
    .filter((r) => Array.isArray(r?.line) && r.line.length >= 2)
    .map((r) => ({ name: r.name, line: r.line.map(proj) }));
  return { areas, rivers: lines };
}

// Where the off-map boxes go, as on the printed board (2.2): the Road to Leningrad's
// boxes in a row along the northern border (Pskov first, Leningrad last), Kiev below
// the southern border at its western end, Rastenburg (East Prussia) off the western
// border. Boxes of other kinds line up below the map.
export function layoutBoxes(areas: MapArea[], raw: any[]): MapBox[] {
  if (!areas.length || !raw.length) return [];
  const xs = areas.flatMap((a) => a.polygon.map((p) => p[0]));
  const ys = areas.flatMap((a) => a.polygon.map((p) => p[1]));
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const road = raw.filter((b) => b?.kind === 'road').sort((a, b) => Number(a.road_index ?? 0) - Number(b.road_index ?? 0));
  const gap = 0.8;
  const h = 6;
  const w = road.length ? Math.min(7.5, (maxX - minX - gap * (road.length - 1)) / road.length) : 7.5;
  const out: MapBox[] = [];
  const put = (b: any, x: number, y: number, bw = w) =>
    out.push({ id: String(b.id), name: String(b.name ?? b.id), kind: String(b.kind ?? 'box'), victory: b.victory === true || undefined, x, y, w: bw, h });
  road.forEach((b, i) => put(b, minX + i * (w + gap), minY - h - 1.5));
  let below = 0;
  for (const b of raw) {
    if (!b || b.id === undefined || b.kind === 'road') continue;
    if (b.kind === 'kiev') put(b, minX, maxY + 1.5, 9);
    else if (b.kind === 'rastenburg') put(b, minX - 11, maxY - h, 9);
    else put(b, minX + 11 + below++ * (9 + gap), maxY + 1.5, 9);
  }
  return out;
}

// Zones given by a centre only (the A&A-style Barbarossa's territories: {id, aa: {lon,
// lat, kind}}, no printed outline): each drawn as the part of the plane nearer its centre
// than any other's (a Voronoi cell), cut to a disc around it, in lon/lat so that the
// areas' projection draws them; a zone with no centre is left out.
export function zoneCells(raw: any[], radiusDeg = 2.2): any[] {
  const pts = raw
    .map((a) => ({ a, lon: Number(a?.lon ?? a?.aa?.lon), lat: Number(a?.lat ?? a?.aa?.lat) }))
    .filter((p) => Number.isFinite(p.lon) && Number.isFinite(p.lat));
  // Work in a plane where a degree of longitude is as long as one of latitude here.
  const lat0 = pts.reduce((s, p) => s + p.lat, 0) / Math.max(1, pts.length);
  const lon0 = pts.reduce((s, p) => s + p.lon, 0) / Math.max(1, pts.length);
  const k = Math.cos((lat0 * Math.PI) / 180);
  return pts.map((p) => {
    let poly: [number, number][] = [];
    for (let i = 0; i < 16; i++) {
      const t = (i / 16) * 2 * Math.PI;
      poly.push([p.lon * k + radiusDeg * Math.cos(t), p.lat + radiusDeg * Math.sin(t)]);
    }
    for (const q of pts) {
      if (q === p) continue;
      // Keep the half-plane nearer p than q (its bisector), Sutherland-Hodgman.
      const [px, py, qx, qy] = [p.lon * k, p.lat, q.lon * k, q.lat];
      if (px === qx && py === qy) continue;
      const side = (x: number, y: number) => (x - (px + qx) / 2) * (qx - px) + (y - (py + qy) / 2) * (qy - py);
      const out: [number, number][] = [];
      for (let i = 0; i < poly.length; i++) {
        const a = poly[i];
        const b = poly[(i + 1) % poly.length];
        const sa = side(a[0], a[1]);
        const sb = side(b[0], b[1]);
        if (sa <= 0) out.push(a);
        if ((sa < 0 && sb > 0) || (sa > 0 && sb < 0)) {
          const t = sa / (sa - sb);
          out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
        }
      }
      poly = out;
    }
    const kind = String(p.a?.aa?.kind ?? p.a?.kind ?? p.a?.terrain ?? 'land');
    // Drawn at a quarter of the areas' scale: a zone a few counters wide, not dozens.
    const shrink = ([x, y]: [number, number]): [number, number] => [lon0 + (x - lon0) / 4, lat0 + (y - lat0) / 4];
    return { ...p.a, terrain: kind, centre: shrink([p.lon, p.lat]), polygon: poly.map(([x, y]) => shrink([x / k, y])) };
  });
}

export function buildMap(raw: any, extra?: any): MapData {
  // The rich map file (map.json) when the game has one, with the game's own map_json
  // filling in what it adds (VP hexes, names).
  const base = extra && Array.isArray(extra.hexes) ? extra : raw;
  const hexes: MapHex[] = [];
  const byId = new Map<string, MapHex>();
  const idFormat = idFormatOf(base.grid ?? raw?.grid);
  for (const h of base.hexes ?? []) {
    const rc = parseHexId(String(h.id), idFormat);
    if (!rc) continue;
    const features: string[] = Array.isArray(h.features) ? [...h.features] : [];
    if (h.city && !features.includes('city')) features.push('city');
    const hex: MapHex = {
      id: String(h.id),
      row: rc.row,
      col: rc.col,
      terrain: String(h.terrain ?? 'clear'),
      name: h.name ?? (typeof h.city === 'string' && h.city ? h.city : undefined),
      features,
      country: h.country,
      control: h.control,
      vp: h.vp,
    };
    hexes.push(hex);
    byId.set(hex.id, hex);
  }
  if (base !== raw)
    for (const h of raw?.hexes ?? []) {
      const hex = byId.get(String(h.id));
      if (!hex) continue;
      if (h.vp) hex.vp = h.vp;
      if (typeof h.city === 'string' && h.city && !hex.name) hex.name = h.city;
    }
  const grid = normalizeGrid(base.grid ?? raw?.grid, hexes.map((h) => h.id));
  const hexsides = (base.hexsides ?? []).map((s: any) => ({ a: String(s.hexes[0]), b: String(s.hexes[1]), features: s.features ?? [] }));
  const rawAreas = Array.isArray(base.areas) ? base.areas : [];
  const projected = projectAreas(rawAreas.some((a: any) => !Array.isArray(a?.polygon)) ? zoneCells(rawAreas) : rawAreas, Array.isArray(base.rivers) ? base.rivers : []);
  return {
    grid,
    hexes,
    byId,
    hexsides,
    // A railway is a list of hex ids, or (Army Group Center) {hexes: [...]}.
    railways: (Array.isArray(base.railways) ? base.railways : []).map((r: any) => (Array.isArray(r) ? r : Array.isArray(r?.hexes) ? r.hexes : [])).map((r: any[]) => r.map(String)),
    countries: base.countries ?? {},
    areas: projected.areas,
    rivers: projected.rivers,
    boxes: layoutBoxes(projected.areas, Array.isArray(base.boxes) ? base.boxes : []),
    connections: (Array.isArray(base.connections) ? base.connections : [])
      .filter((c: any) => c && c.a !== undefined && c.b !== undefined)
      .map((c: any) => ({ a: String(c.a), b: String(c.b), types: Array.isArray(c.types) ? c.types.map(String) : [], rivers: c.rivers })),
  };
}

export interface Counter {
  label: string;
  // The words printed on the counter when they are not its label (the A&A-style
  // Barbarossa's unit groups: "3 Inf" for germany:infantry@warsaw).
  display?: string;
  side: string;
  sideIndex: number;
  type?: string;
  size?: string;
  attack?: number;
  defense?: number;
  move?: number;
  mp?: number;
  name?: string;
  // Step state where the observation gives it: a block's current strength (steps) and
  // its maximum, or a reduced/flipped flag.
  steps?: number;
  maxSteps?: number;
  reduced?: boolean;
  // Supply where the observation gives it (Moscow '41 blocks: isolated or not).
  isolated?: boolean;
  // BD's supply state by name (7.2, 7.8: overland, garrison, coastal, aerial, oos,
  // always) and, for a Soviet unit from GT7, whether it has offensive supply (7.10).
  supply?: string;
  offensive?: boolean;
  // Movement allowance this phase of a unit that may move now.
  mf?: number;
  // BD 8.31/8.32: the parent a Tiger battalion or CM group is attached to.
  attachedTo?: string;
  revealed?: boolean;
  acted?: boolean;
}
export interface Stack {
  hex: string;
  side: string;
  sideIndex: number;
  count: number;
  units: Counter[];
  // Hidden enemy blocks known to be isolated (Moscow '41's enemy_hidden.isolated).
  isolatedHidden?: number;
}

export interface CounterInfo {
  label: string;
  side: string;
  type?: string;
  size?: string;
  attack?: number;
  defense?: number;
  name?: string;
  maxSteps?: number;
}

// One counter of an observation, with what the game's data adds (name, type, factors):
// the fields a game's observation may give (steps, supply, MP, attachment), read where
// present. Each game's module (games/<id>.ts) finds its counters in its observation.
export function readCounter(label: string, side: number, u: any, sides: string[], counters: Map<string, CounterInfo>): Counter {
  const info = counters.get(`${sides[side]?.toLowerCase()}:${label}`) ?? counters.get(`*:${label}`);
  const num = (x: any) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
  // BD reports mp -1 for "not tracked": only a non-negative number is movement left.
  const mp = num(u.mp) !== undefined && u.mp >= 0 ? u.mp : undefined;
  const reduced = typeof u.reduced === 'boolean' ? u.reduced : typeof u.flipped === 'boolean' ? u.flipped : u.face === 'back' || u.side_up === 'reduced' ? true : undefined;
  return {
    label,
    side: sides[side] ?? String(side),
    sideIndex: side,
    type: u.type ?? info?.type,
    size: u.size ?? info?.size,
    attack: u.attack ?? info?.attack,
    defense: u.defense ?? info?.defense,
    move: u.move,
    mp,
    name: u.name ?? info?.name,
    steps: num(u.steps) ?? num(u.strength),
    maxSteps: num(u.max_steps) ?? num(u.max_strength) ?? info?.maxSteps,
    reduced,
    isolated: typeof u.isolated === 'boolean' ? u.isolated : typeof u.supplied === 'boolean' ? !u.supplied : undefined,
    supply: typeof u.supply === 'string' ? u.supply : undefined,
    offensive: typeof u.offensive === 'boolean' ? u.offensive : undefined,
    mf: num(u.mf),
    attachedTo: typeof u.attached_to === 'string' ? u.attached_to : undefined,
    revealed: typeof u.revealed === 'boolean' ? u.revealed : undefined,
    acted: typeof u.acted === 'boolean' ? u.acted : undefined,
  };
}

// A side's index from its name or number in an observation.
export function sideIndexOf(s: any, sides: string[]): number {
  return typeof s === 'number' ? s : Math.max(0, sides.findIndex((n) => n.toLowerCase() === String(s).toLowerCase()));
}

// Stacks from an observation with a flat unit list ({units: [{side, hex, ...}]}), the shape
// a game without a module of its own is read in.
export function flatStacks(obs: any, sides: string[], counters: Map<string, CounterInfo>): Stack[] {
  const out: Stack[] = [];
  const byHex = new Map<string, Stack>();
  for (const u of Array.isArray(obs?.units) ? obs.units : []) {
    const si = sideIndexOf(u.side, sides);
    const hex = String(u.hex);
    let st = byHex.get(hex);
    if (!st) {
      st = { hex, side: sides[si] ?? String(u.side), sideIndex: si, count: 0, units: [] };
      byHex.set(hex, st);
      out.push(st);
    }
    st.units.push(readCounter(String(u.name ?? u.label ?? u.unit ?? '?'), si, u, sides, counters));
    st.count++;
  }
  return out;
}

// Counter facts from the game's data: BD's counters.json ({units: [...]}) or a block
// game's roster.json ({blocks: [{id, side, name, kind, type, max}]}).
export function counterIndex(data: any, roster?: any): Map<string, CounterInfo> {
  const m = new Map<string, CounterInfo>();
  const put = (info: CounterInfo) => {
    m.set(`${String(info.side).toLowerCase()}:${info.label}`, info);
    if (!m.has(`*:${info.label}`)) m.set(`*:${info.label}`, info);
  };
  // The Dark Valley and Army Group Center give a counter's factors per face ({full:
  // {attack, defense}, reduced}) and its steps; the front's are the counter's own.
  for (const u of data?.units ?? [])
    put({ label: u.label, side: u.side, type: u.type, size: u.size, attack: u.attack ?? u.full?.attack, defense: u.defense ?? u.full?.defense, name: u.name, maxSteps: typeof u.steps === 'number' ? u.steps : undefined });
  for (const b of roster?.blocks ?? [])
    put({ label: String(b.id), side: b.side, type: b.type ?? b.kind ?? undefined, name: b.name !== b.id ? b.name : undefined, maxSteps: typeof b.max === 'number' ? b.max : undefined });
  return m;
}

// A legal move as the map draws it: the unit, the locations it passes through (the last is
// the destination), and what kind of move it is when not a plain one (games/<id>.ts).
export interface MoveOption {
  unit?: string;
  path: string[];
  dest: string;
  text: string;
  kind?: string;
}
// A legal strike on a location.
export interface AttackOption {
  target: string;
  text: string;
  verb: string;
  unit?: string;
}
