// Hex grid geometry from a map's grid definition: pointy-top hexes, rows and columns
// numbered in the directions the grid says, odd rows shifted half a hex east or west.
// Screen x grows east, y grows south; one hex has circumradius 1.

export type Dir = 'east' | 'west' | 'north' | 'south';

export interface GridDef {
  orientation: 'pointy';
  rows: { first: number; last: number; increase: 'south' | 'north' };
  cols: { first: number; last: number; increase: 'east' | 'west' };
  oddRowsShift: 'east' | 'west';
  idFormat: 'RRCC';
}

export const SQRT3 = Math.sqrt(3);

export interface Point {
  x: number;
  y: number;
}

export function parseHexId(id: string): { row: number; col: number } | null {
  if (!/^\d{4}$/.test(id)) return null;
  return { row: Number(id.slice(0, 2)), col: Number(id.slice(2, 4)) };
}

export function hexId(row: number, col: number): string {
  return String(row).padStart(2, '0') + String(col).padStart(2, '0');
}

// Reads the grid of a map: the full definition ({rows, cols, odd_rows_shift}) or the
// short "RRCC" form, for which the ranges come from the hex ids and the directions are
// those of Barbarossa Deluxe (rows south, columns west, odd rows shifted west).
export function normalizeGrid(grid: unknown, ids: string[]): GridDef {
  const rc = ids.map(parseHexId).filter((x): x is { row: number; col: number } => x !== null);
  const minRow = Math.min(...rc.map((x) => x.row));
  const maxRow = Math.max(...rc.map((x) => x.row));
  const minCol = Math.min(...rc.map((x) => x.col));
  const maxCol = Math.max(...rc.map((x) => x.col));
  const g = (typeof grid === 'object' && grid !== null ? grid : {}) as Record<string, any>;
  const rows = g.rows ?? {};
  const cols = g.cols ?? {};
  return {
    orientation: 'pointy',
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
    idFormat: 'RRCC',
  };
}

export function hexCenter(grid: GridDef, row: number, col: number): Point {
  const w = SQRT3;
  const xi = grid.cols.increase === 'east' ? col - grid.cols.first : grid.cols.last - col;
  const odd = Math.abs(row) % 2 === 1;
  const shift = odd ? (grid.oddRowsShift === 'east' ? w / 2 : -w / 2) : 0;
  const yi = grid.rows.increase === 'south' ? row - grid.rows.first : grid.rows.last - row;
  return { x: xi * w + shift, y: yi * 1.5 };
}

export function centerOf(grid: GridDef, id: string): Point | null {
  const rc = parseHexId(id);
  return rc ? hexCenter(grid, rc.row, rc.col) : null;
}

// Corners of a pointy-top hex around `c`, clockwise from the top.
export function hexCorners(c: Point, r = 1): Point[] {
  const out: Point[] = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (-90 + 60 * k);
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
  const d = DIRECTIONS.find((x) => x.name === dir);
  if (!c || !d) return null;
  const target = { x: c.x + d.dx, y: c.y + d.dy };
  const rc = parseHexId(id)!;
  for (let dr = -1; dr <= 1; dr++)
    for (let dc = -1; dc <= 1; dc++) {
      const cand = hexId(rc.row + dr, rc.col + dc);
      const p = centerOf(grid, cand);
      if (p && Math.hypot(p.x - target.x, p.y - target.y) < 0.1 && exists(cand)) return cand;
    }
  return null;
}
