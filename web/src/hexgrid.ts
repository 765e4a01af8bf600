// Hex grid geometry from a map's grid definition: pointy-top hexes with odd rows shifted
// half a hex east or west (BD, AGC: ids RRCC), or flat-top hexes with odd columns shifted
// half a hex south or north (The Dark Valley, ruling DV-M1: ids CCRR); rows and columns
// numbered in the directions the grid says. Screen x grows east, y grows south; one hex
// has circumradius 1.

export type Dir = 'east' | 'west' | 'north' | 'south';

export interface GridDef {
  orientation: 'pointy' | 'flat';
  rows: { first: number; last: number; increase: 'south' | 'north' };
  cols: { first: number; last: number; increase: 'east' | 'west' };
  oddRowsShift: 'east' | 'west';
  // Flat-top grids: the odd columns sit half a hex south (or north).
  oddColsShift?: 'south' | 'north';
  idFormat: 'RRCC' | 'CCRR';
}

export const SQRT3 = Math.sqrt(3);

export interface Point {
  x: number;
  y: number;
}

export function parseHexId(id: string, format: 'RRCC' | 'CCRR' = 'RRCC'): { row: number; col: number } | null {
  if (!/^\d{4}$/.test(id)) return null;
  const a = Number(id.slice(0, 2));
  const b = Number(id.slice(2, 4));
  return format === 'CCRR' ? { row: b, col: a } : { row: a, col: b };
}

export function hexId(row: number, col: number, format: 'RRCC' | 'CCRR' = 'RRCC'): string {
  const r = String(row).padStart(2, '0');
  const c = String(col).padStart(2, '0');
  return format === 'CCRR' ? c + r : r + c;
}

// The id format a map's grid names ("CCRR" for The Dark Valley), RRCC otherwise.
export function idFormatOf(grid: unknown): 'RRCC' | 'CCRR' {
  const g = (typeof grid === 'object' && grid !== null ? grid : {}) as Record<string, any>;
  return (g.id_format ?? g.idFormat) === 'CCRR' ? 'CCRR' : 'RRCC';
}

// Reads the grid of a map: the full definition ({rows, cols, odd_rows_shift}) or the
// short "RRCC" form, for which the ranges come from the hex ids and the directions are
// those of Barbarossa Deluxe (rows south, columns west, odd rows shifted west).
export function normalizeGrid(grid: unknown, ids: string[]): GridDef {
  const idFormat = idFormatOf(grid);
  const rc = ids.map((id) => parseHexId(id, idFormat)).filter((x): x is { row: number; col: number } => x !== null);
  const minRow = Math.min(...rc.map((x) => x.row));
  const maxRow = Math.max(...rc.map((x) => x.row));
  const minCol = Math.min(...rc.map((x) => x.col));
  const maxCol = Math.max(...rc.map((x) => x.col));
  const g = (typeof grid === 'object' && grid !== null ? grid : {}) as Record<string, any>;
  const rows = g.rows ?? {};
  const cols = g.cols ?? {};
  return {
    orientation: g.orientation === 'flat' ? 'flat' : 'pointy',
    rows: {
      first: Number.isFinite(rows.first) ? rows.first : minRow,
      last: Number.isFinite(rows.last) ? rows.last : maxRow,
      increase: rows.increase === 'north' ? 'north' : 'south',
    },
    cols: {
      first: Number.isFinite(cols.first) ? cols.first : minCol,
      last: Number.isFinite(cols.last) ? cols.last : maxCol,
      increase: cols.increase === 'east' ? 'east' : 'west',
    },
    oddRowsShift: (g.odd_rows_shift ?? g.oddRowsShift) === 'east' ? 'east' : 'west',
    oddColsShift: (g.odd_cols_shift ?? g.oddColsShift) === 'north' ? 'north' : 'south',
    idFormat,
  };
}

export function hexCenter(grid: GridDef, row: number, col: number): Point {
  if (grid.orientation === 'flat') {
    // Flat-top: columns 1.5 apart, rows SQRT3 apart, odd columns half a row down (or up).
    const xi = grid.cols.increase === 'east' ? col - grid.cols.first : grid.cols.last - col;
    const yi = grid.rows.increase === 'south' ? row - grid.rows.first : grid.rows.last - row;
    const shift = Math.abs(col) % 2 === 1 ? ((grid.oddColsShift ?? 'south') === 'south' ? SQRT3 / 2 : -SQRT3 / 2) : 0;
    return { x: xi * 1.5, y: yi * SQRT3 + shift };
  }
  const w = SQRT3;
  const xi = grid.cols.increase === 'east' ? col - grid.cols.first : grid.cols.last - col;
  const odd = Math.abs(row) % 2 === 1;
  const shift = odd ? (grid.oddRowsShift === 'east' ? w / 2 : -w / 2) : 0;
  const yi = grid.rows.increase === 'south' ? row - grid.rows.first : grid.rows.last - row;
  return { x: xi * w + shift, y: yi * 1.5 };
}

export function centerOf(grid: GridDef, id: string): Point | null {
  const rc = parseHexId(id, grid.idFormat);
  return rc ? hexCenter(grid, rc.row, rc.col) : null;
}

// Corners of a hex around `c`: a pointy-top one clockwise from the top, a flat-top one
// clockwise from the east corner.
export function hexCorners(c: Point, r = 1, orientation: 'pointy' | 'flat' = 'pointy'): Point[] {
  const out: Point[] = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * ((orientation === 'flat' ? 0 : -90) + 60 * k);
    out.push({ x: c.x + r * Math.cos(a), y: c.y + r * Math.sin(a) });
  }
  return out;
}

// The edge shared by two adjacent hexes (perpendicular to the line between centres).
export function sharedEdge(a: Point, b: Point): [Point, Point] {
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const px = -dy / len;
  const py = dx / len;
  return [
    { x: mx + px * 0.5, y: my + py * 0.5 },
    { x: mx - px * 0.5, y: my - py * 0.5 },
  ];
}

// A flat-top grid's neighbours: north and south instead of east and west.
export const FLAT_DIRECTIONS: { name: string; dx: number; dy: number }[] = [
  { name: 'N', dx: 0, dy: -SQRT3 },
  { name: 'NE', dx: 1.5, dy: -SQRT3 / 2 },
  { name: 'SE', dx: 1.5, dy: SQRT3 / 2 },
  { name: 'S', dx: 0, dy: SQRT3 },
  { name: 'SW', dx: -1.5, dy: SQRT3 / 2 },
  { name: 'NW', dx: -1.5, dy: -SQRT3 / 2 },
];

export const DIRECTIONS: { name: string; dx: number; dy: number }[] = [
  { name: 'E', dx: SQRT3, dy: 0 },
  { name: 'SE', dx: SQRT3 / 2, dy: 1.5 },
  { name: 'SW', dx: -SQRT3 / 2, dy: 1.5 },
  { name: 'W', dx: -SQRT3, dy: 0 },
  { name: 'NW', dx: -SQRT3 / 2, dy: -1.5 },
  { name: 'NE', dx: SQRT3 / 2, dy: -1.5 },
];

// The hex next to `id` in screen direction `dir` (E, SE, SW, W, NW, NE), if on the map.
export function neighbourId(grid: GridDef, id: string, dir: string, exists: (id: string) => boolean): string | null {
  const c = centerOf(grid, id);
  // On a flat-top grid the east and west keys go to the nearer of the two eastern (western)
  // neighbours' row: NE and SW.
  const flatDir = dir === 'E' ? 'NE' : dir === 'W' ? 'SW' : dir;
  const d = grid.orientation === 'flat' ? FLAT_DIRECTIONS.find((x) => x.name === flatDir) : DIRECTIONS.find((x) => x.name === dir);
  if (!c || !d) return null;
  const target = { x: c.x + d.dx, y: c.y + d.dy };
  const rc = parseHexId(id, grid.idFormat)!;
  for (let dr = -1; dr <= 1; dr++)
    for (let dc = -1; dc <= 1; dc++) {
      const cand = hexId(rc.row + dr, rc.col + dc, grid.idFormat);
      const p = centerOf(grid, cand);
      if (p && Math.hypot(p.x - target.x, p.y - target.y) < 0.1 && exists(cand)) return cand;
    }
  return null;
}
