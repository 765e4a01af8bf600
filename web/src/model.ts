// What the UI draws, normalised from a game's map data and a seat's observation, so
// that the drawing code does not depend on one game's JSON shapes.
import { GridDef, normalizeGrid, parseHexId } from './hexgrid';

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

export function buildMap(raw: any, extra?: any): MapData {
  // The rich map file (map.json) when the game has one, with the game's own map_json
  // filling in what it adds (VP hexes, names).
  const base = extra && Array.isArray(extra.hexes) ? extra : raw;
  const hexes: MapHex[] = [];
  const byId = new Map<string, MapHex>();
  for (const h of base.hexes ?? []) {
    const rc = parseHexId(String(h.id));
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
  const projected = projectAreas(Array.isArray(base.areas) ? base.areas : [], Array.isArray(base.rivers) ? base.rivers : []);
  return {
    grid,
    hexes,
    byId,
    hexsides,
    railways: base.railways ?? [],
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

// Stacks from an observation: BD's {stacks: [{hex, side, count, units: [{unit}]}]} or a
// flat {units: [{side, hex, ...}]}.
export function stacksOf(obs: any, sides: string[], counters: Map<string, CounterInfo>): Stack[] {
  const sideIndex = (s: any) => (typeof s === 'number' ? s : Math.max(0, sides.findIndex((n) => n.toLowerCase() === String(s).toLowerCase())));
  const enrich = (label: string, side: number, u: any): Counter => {
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
  };
  const out: Stack[] = [];
  if (Array.isArray(obs?.stacks)) {
    for (const s of obs.stacks) {
      const si = sideIndex(s.side);
      const units = (s.units ?? []).map((u: any) => enrich(String(u.unit ?? u.label ?? u.name ?? '?'), si, u));
      out.push({ hex: String(s.hex), side: sides[si] ?? String(s.side), sideIndex: si, count: s.count ?? units.length, units });
    }
  } else if (Array.isArray(obs?.own)) {
    // Block games: own blocks, enemy blocks revealed, and counts of hidden enemy blocks.
    const me = sideIndex(obs.viewer);
    const enemy = sides.length === 2 ? 1 - me : me;
    const byLoc = new Map<string, Stack>();
    const add = (loc: string, si: number, u?: any, hidden = 0, isolatedHidden = 0) => {
      const key = `${si}:${loc}`;
      let st = byLoc.get(key);
      if (!st) {
        st = { hex: loc, side: sides[si] ?? String(si), sideIndex: si, count: 0, units: [] };
        byLoc.set(key, st);
        out.push(st);
      }
      if (u) st.units.push(enrich(String(u.id), si, { ...u, attack: u.strength, defense: undefined }));
      st.count += u ? 1 : hidden;
      if (isolatedHidden) st.isolatedHidden = (st.isolatedHidden ?? 0) + isolatedHidden;
    };
    for (const b of obs.own) if (!/^(pool|oob|destroyed|surrendered|unplaced)/.test(String(b.at))) add(String(b.at), me, b);
    for (const b of obs.enemy_revealed ?? []) add(String(b.at), enemy, b);
    for (const [loc, h] of Object.entries(obs.enemy_hidden ?? {})) add(loc, enemy, undefined, Number((h as any).blocks ?? 0), Number((h as any).isolated ?? 0));
  } else if (Array.isArray(obs?.units)) {
    const byHex = new Map<string, Stack>();
    for (const u of obs.units) {
      const si = sideIndex(u.side);
      const hex = String(u.hex);
      let st = byHex.get(hex);
      if (!st) {
        st = { hex, side: sides[si] ?? String(u.side), sideIndex: si, count: 0, units: [] };
        byHex.set(hex, st);
        out.push(st);
      }
      st.units.push(enrich(String(u.name ?? u.label ?? u.unit ?? '?'), si, u));
      st.count++;
    }
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
  for (const u of data?.units ?? []) put({ label: u.label, side: u.side, type: u.type, size: u.size, attack: u.attack, defense: u.defense, name: u.name });
  for (const b of roster?.blocks ?? [])
    put({ label: String(b.id), side: b.side, type: b.type ?? b.kind ?? undefined, name: b.name !== b.id ? b.name : undefined, maxSteps: typeof b.max === 'number' ? b.max : undefined });
  return m;
}

// Legal actions read for the map: moves (unit, path), attacks (target hex), the rest.
export interface MoveOption {
  unit?: string;
  path: string[];
  dest: string;
  text: string;
  // Area maps: what the move is when it is not a plain "move" (Moscow '41: "blitz B AREA"
  // 10.16, "activate HQ AREA" an HQ that moves and is activated 10.1, "rail B AREA" a Rail
  // Move OR 14.4, "recall B AREA" a block leaving the Road or the Leningrad box OR 14.2).
  verb?: string;
}
export interface AttackOption {
  target: string;
  text: string;
  verb: string;
  // The unit that strikes, where the action names one (Moscow '41's artillery and air).
  unit?: string;
}
// `areas`: the ids of an area map's areas and boxes. There (Moscow '41's notation) a block
// B goes to AREA by "move B AREA", "blitz B AREA", "activate HQ AREA", "rail B AREA" or
// "recall B AREA"; "battle AREA",
// "artillery HQ AREA" and "air LWHQ AREA HE111 STUKA" strike an area. A Pass is the bare
// "pass", after which one "move", one "dl" or "end" follows (12.0).
export function classify(actions: { text: string; words: string[] }[], areas?: Set<string>) {
  const moves: MoveOption[] = [];
  const attacks: AttackOption[] = [];
  const other: { text: string; words: string[] }[] = [];
  const isHex = (w: string) => /^\d{4}$/.test(w);
  for (const a of actions) {
    const w = a.words;
    if (areas && areas.size) {
      // Moscow '41's Scenario Setup: "setup B AREA" and "setup dl AREA" place a piece from
      // the tray (the unit is the block, or "dl" for a Defensive Line).
      if (['move', 'blitz', 'activate', 'rail', 'recall', 'setup'].includes(w[0]) && w.length === 3 && areas.has(w[2])) {
        moves.push({ unit: w[1], path: [w[2]], dest: w[2], text: a.text, ...(w[0] === 'move' ? {} : { verb: w[0] }) });
        continue;
      }
      if (w[0] === 'battle' && w.length === 2 && areas.has(w[1])) {
        attacks.push({ target: w[1], text: a.text, verb: 'battle' });
        continue;
      }
      if (((w[0] === 'artillery' && w.length === 3) || (w[0] === 'air' && w.length === 5)) && areas.has(w[2])) {
        attacks.push({ target: w[2], text: a.text, verb: w[0], unit: w[1] });
        continue;
      }
      other.push(a);
      continue;
    }
    if (w[0] === 'move' && w.length >= 2) {
      const unit = isHex(w[1]) ? undefined : w[1];
      const path = w.slice(unit ? 2 : 1).filter(isHex);
      if (path.length) {
        moves.push({ unit, path, dest: path[path.length - 1], text: a.text });
        continue;
      }
    }
    if ((w[0] === 'attack' || w[0] === 'mobile-assault' || w[0] === 'assault') && w.length >= 2 && isHex(w[1])) {
      attacks.push({ target: w[1], text: a.text, verb: w[0] });
      continue;
    }
    other.push(a);
  }
  return { moves, attacks, other };
}

// What a player reads on a button for an action that is neither a move nor an attack:
// Moscow '41's impulse choices and segment ends with their rule sections; other games'
// verbs as written.
const CHOICE_TEXT: Record<string, string> = {
  pass: 'Pass (12.0): then move one block or build one Defensive Line',
  ti: 'Tactical Impulse (10.0): activate HQs, move, fight',
  si: 'Strategic Impulse, option A (11.0): spend the Initiative Disc, move up to LV blocks',
  'si reinforce': 'Strategic Impulse, option B (11.0): spend the Initiative Disc on reinforcements (5.0)',
  commands: 'Done activating: to the Command Segment (10.7)',
  combat: 'Done commanding: to the Combat Phase (10.11)',
  exploit: 'Exploitation Move (10.18): spend the Initiative Disc, move fast blocks',
  'logistics pause': 'Logistics: pause (7.0)',
  'logistics activate': 'Logistics: activate (7.0)',
  'setup auto': 'Place the rest automatically (Scenario Setup)',
};
export function choiceText(text: string): string {
  if (CHOICE_TEXT[text]) return CHOICE_TEXT[text];
  const w = text.split(' ');
  if (w[0] === 'dl' && w.length === 2) return `Build a Defensive Line with ${w[1]} (4.1)`;
  if (w[0] === 'activate' && w.length === 2) return `Activate ${w[1]} where it stands (10.1)`;
  // Moscow '41's decisions inside a procedure: which equally strong block takes a hit, the
  // steps a Leader Activation buys, where a drawn reinforcement enters.
  if (w[0] === 'hit' && w.length === 2) return `${w[1]} takes the hit (10.14.1)`;
  if (w[0] === 'step' && w.length === 2) return `Replace a step of ${w[1]} (7.2.2)`;
  if (w[0] === 'place' && w.length === 3) return `Place the reinforcement ${w[1]} in ${w[2]} (5.0)`;
  // How the German converts AA hits (10.12.3); Stukas following a Blitz (10.16).
  if (w[0] === 'aa' && w.length >= 3) {
    const parts: string[] = [];
    let mode = '';
    for (const x of w.slice(1)) {
      if (x === 'destroy' || x === 'abort') {
        mode = x === 'destroy' ? 'destroyed' : 'aborted';
        parts.push(`${mode}:`);
      } else parts[parts.length - 1] += ` ${x}`;
    }
    return `AA results ${parts.join('; ')} (10.12.3)`;
  }
  if (w[0] === 'stuka' && w.length === 3) return `${w[2]} Stuka follow the Blitz into ${w[1]} (10.16)`;
  const t = text.replace(/-/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// Moscow '41's set-up tray: the observation's `setup` list (one entry per waiting piece)
// with the Defensive Lines, which are alike, counted as one entry per rule.
export interface SetupPiece {
  piece: string; // block id, or "dl"
  strength?: number;
  rule: string;
  areas: string[];
  count: number;
}
export function setupTray(obs: any): SetupPiece[] {
  const out: SetupPiece[] = [];
  for (const p of Array.isArray(obs?.setup) ? obs.setup : []) {
    const piece = String(p?.piece ?? '');
    if (!piece) continue;
    const areas = Array.isArray(p.areas) ? p.areas.map(String) : [];
    const same = piece === 'dl' ? out.find((x) => x.piece === 'dl' && x.rule === String(p.rule)) : undefined;
    if (same) {
      same.count++;
      for (const a of areas) if (!same.areas.includes(a)) same.areas.push(a);
      continue;
    }
    out.push({ piece, strength: typeof p.strength === 'number' ? p.strength : undefined, rule: String(p.rule ?? ''), areas, count: 1 });
  }
  return out;
}

// The verbs that end a phase or segment without choosing anything (the End button).
export const END_VERBS = ['end-phase', 'end', 'done', 'commands', 'combat'];

// The off-map boxes that are not on the board's edge (Moscow '41): a side's reinforcement
// pool, the OoB cards' letter boxes (N, K), and the destroyed / surrendered boxes. Own
// blocks by name; the enemy's pool and letter boxes as counts only (1.5); eliminated
// blocks are public.
export interface OffMapBox {
  id: string;
  title: string;
  side: number;
  blocks: Counter[];
  // Enemy blocks in it that the viewer may not see: drawn face down.
  hidden: number;
}
export function offMapBoxes(obs: any, sides: string[], counters: Map<string, CounterInfo>): OffMapBox[] {
  if (!Array.isArray(obs?.own)) return [];
  const sideIndex = (s: any) => Math.max(0, sides.findIndex((n) => n.toLowerCase() === String(s).toLowerCase()));
  const me = sideIndex(obs.viewer);
  const enemy = sides.length === 2 ? 1 - me : me;
  const name = (i: number) => sides[i] ?? String(i);
  const titles: Record<string, string> = {
    pool: 'reinforcement pool (5.0)',
    drawn: 'drawn reinforcements, to place (5.0)',
    'oob-n': 'OoB: N box (5.1, November)',
    'oob-k': 'OoB: K box (13.2, after Kiev)',
    destroyed: 'destroyed (10.14.3)',
    surrendered: 'surrendered (10.14.3)',
    oob: 'OoB letter boxes, N and K (5.1, 13.2)',
    eliminated: 'eliminated (destroyed or surrendered, 10.14.3)',
  };
  const out = new Map<string, OffMapBox>();
  const box = (loc: string, side: number) => {
    const key = `${side}:${loc}`;
    let b = out.get(key);
    if (!b) {
      b = { id: `${name(side).toLowerCase()}-${loc}`, title: `${name(side)} ${titles[loc] ?? loc}`, side, blocks: [], hidden: 0 };
      out.set(key, b);
    }
    return b;
  };
  // Own blocks off the map, read like the ones on it (name, type, steps of maximum).
  const ownAt = obs.own.filter((b: any) => titles[String(b.at)]);
  const units = stacksOf({ stacks: [{ hex: '-', side: me, units: ownAt.map((b: any) => ({ ...b, unit: b.id })) }] }, sides, counters)[0]?.units ?? [];
  units.forEach((u, i) => box(String(ownAt[i].at), me).blocks.push(u));
  // The enemy's eliminated blocks are public (they lie on the OoB cards) and named; its
  // pool and letter boxes are counts only.
  for (const id of obs.enemy_eliminated ?? []) {
    const info = counters.get(`${name(enemy).toLowerCase()}:${id}`) ?? counters.get(`*:${id}`);
    box('eliminated', enemy).blocks.push({ label: String(id), side: name(enemy), sideIndex: enemy, type: info?.type, name: info?.name, maxSteps: info?.maxSteps });
  }
  if (Number(obs.enemy_pool) > 0) box('pool', enemy).hidden = Number(obs.enemy_pool);
  if (Number(obs.enemy_waiting) > 0) box('oob', enemy).hidden = Number(obs.enemy_waiting);
  if (Number(obs.enemy_drawn) > 0) box('drawn', enemy).hidden = Number(obs.enemy_drawn);
  const order = ['pool', 'drawn', 'oob-n', 'oob-k', 'oob', 'destroyed', 'surrendered', 'eliminated'];
  const rank = (k: string) => (k.startsWith(`${me}:`) ? 0 : 100) + order.indexOf(k.slice(k.indexOf(':') + 1));
  return [...out.entries()].sort((a, b) => rank(a[0]) - rank(b[0])).map(([, b]) => b);
}
