import { describe, expect, it } from 'vitest';
import { centerOf, neighbourId, normalizeGrid, sharedEdge, SQRT3 } from '../src/hexgrid';

// The BD grid (digest 2.2): rows rise southward, columns rise westward, odd rows sit half
// a hex west of even rows. Checks from 11.27: west of 2403 is 2404; northwest is 2303.
const bd = normalizeGrid(
  { rows: { first: 10, last: 32, increase: 'south' }, cols: { first: 0, last: 24, increase: 'west' }, odd_rows_shift: 'west' },
  [],
);
const all = () => true;

describe('BD hex grid', () => {
  it('puts 2404 west of 2403 and 2303 northwest of it (11.27)', () => {
    expect(neighbourId(bd, '2403', 'W', all)).toBe('2404');
    expect(neighbourId(bd, '2403', 'NW', all)).toBe('2303');
  });
  it('makes odd 2709 adjacent to 2609 (NE) and 2708 (E)', () => {
    expect(neighbourId(bd, '2709', 'NE', all)).toBe('2609');
    expect(neighbourId(bd, '2709', 'E', all)).toBe('2708');
  });
  it('reads the short RRCC form with the BD directions', () => {
    const g = normalizeGrid('RRCC', ['1000', '3224']);
    expect(g.cols.increase).toBe('west');
    expect(g.oddRowsShift).toBe('west');
    expect(centerOf(g, '1024')!.x).toBe(0);
  });
  it('places adjacent centres one hex width apart and their edge half way', () => {
    const a = centerOf(bd, '2403')!;
    const b = centerOf(bd, '2303')!;
    expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeCloseTo(SQRT3);
    const [p, q] = sharedEdge(a, b);
    expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeCloseTo(1);
  });
  it('refuses to step off the map', () => {
    expect(neighbourId(bd, '2403', 'W', (id) => id !== '2404')).toBeNull();
  });
});
