import { describe, expect, it } from 'vitest';
import type { Preview, Reach } from '../src/api';
import { combatSummary, lossesPerTurn, outcomeRows, parseCombat, parseReach, percent, shiftLines, shiftText } from '../src/preview';
import { bdStacks as stacksOf } from '../src/games/bd';
import { supplyDescription, supplyMark } from '../src/counters';

// The server's preview (GET /preview) of 12 vs 3 on rough terrain, concentric, Luftwaffe.
const combat: Preview = {
  kind: 'combat',
  summary: '12 vs 3 = 4:1, 1R -> 5:1',
  attack: 12,
  defense: 3,
  raw: '4:1',
  final: '5:1',
  rule: '11.11',
  shifts: [
    { shift: -1, reason: 'rough terrain', rule: '11.14' },
    { shift: 1, reason: 'concentric attack', rule: '11.24' },
    { shift: 1, reason: 'Luftwaffe supports the attack', rule: '11.23' },
  ],
  total_shift: 1,
  outcomes: [
    { result: 'DR', probability: 1 / 6, meaning: 'defender retreats', rule: '11.26' },
    { result: 'DE', probability: 2 / 3, meaning: 'defender eliminated', rule: '11.26' },
    { result: 'EX', probability: 1 / 6, meaning: 'exchange', rule: '11.26' },
  ],
  detail: { attackers: [{ unit: 'A1', factor: 9, supply: 'overland' }, { unit: 'A2', factor: 3, supply: 'oos' }] },
};

describe('combat preview', () => {
  it('lists every shift with its reason and rule, and the final column', () => {
    const p = parseCombat(combat)!;
    expect(p).not.toBeNull();
    expect(shiftLines(p)).toEqual(['1L rough terrain §11.14', '1R concentric attack §11.24', '1R Luftwaffe supports the attack §11.23']);
    expect(combatSummary(p)).toBe('12 vs 3 = 4:1, shifts 1R → final 5:1 §11.11');
    expect(p.attackers[1]).toEqual({ unit: 'A2', factor: 3, supply: 'oos' });
  });
  it('gives the chance of each result, most likely first, in whole percentages', () => {
    const rows = outcomeRows(parseCombat(combat)!);
    expect(rows.map((r) => [r.result, r.percent, r.meaning, r.rule])).toEqual([
      ['DE', '67%', 'defender eliminated', '11.26'],
      ['DR', '17%', 'defender retreats', '11.26'],
      ['EX', '17%', 'exchange', '11.26'],
    ]);
    expect(rows[0].width).toBeCloseTo(66.67, 1);
    expect(percent(0.004)).toBe('0.4%');
    expect(percent(0)).toBe('0%');
  });
  it('says an automatic result in words, sums the shifts when no total is given, and refuses what is not a preview', () => {
    const p = parseCombat({ kind: 'combat', summary: '', attack: 30, defense: 1, raw: 'auto-DE', shifts: [{ shift: 2, reason: 'x' }, { shift: -1, reason: 'y' }], final: 'auto-DE', outcomes: [] })!;
    expect(combatSummary(p)).toContain('automatic defender eliminated');
    expect(p.totalShift).toBe(1);
    expect(parseCombat(null)).toBeNull();
    expect(parseCombat({ odds: '3:1' } as unknown as Preview)).toBeNull();
    expect(shiftText(-2)).toBe('2L');
    expect(shiftText(0)).toBe('0');
  });
});

describe('reach', () => {
  it('reads the MP cost, MP left and path of each destination', () => {
    const r = parseReach({ unit: '4Pz', from: '2405', allowance: 10, destinations: [{ location: '2404', cost: 1, path: ['2404'] }, { location: '2403', cost: 2, path: ['2404', '2403'], note: 'ends in an enemy ZOC (7.4)' }] })!;
    expect(r.mp).toBe(10);
    expect(r.hexes.get('2403')).toEqual({ cost: 2, left: 8, path: ['2404', '2403'], note: 'ends in an enemy ZOC (7.4)' });
    expect(r.hexes.get('2404')?.note).toBeUndefined();
    expect(r.hexes.size).toBe(2);
    expect(parseReach(null)).toBeNull();
    expect(parseReach({ unit: 'x' } as unknown as Reach)).toBeNull();
  });
});

describe('losses per turn', () => {
  it('turns running totals into what each side lost in each turn', () => {
    const pts = [
      { step: 0, turn: 1, losses: { german: { units: 0, steps: 0 }, soviet: { units: 0, steps: 0 } } },
      { step: 1, turn: 1, losses: { german: { units: 0, steps: 0 }, soviet: { units: 2, steps: 2 } } },
      { step: 2, turn: 2, losses: { german: { units: 1, steps: 1 }, soviet: { units: 2, steps: 2 } } },
      { step: 3, turn: 2, losses: { german: { units: 1, steps: 1 }, soviet: { units: 5, steps: 5 } } },
      { step: 4, turn: 3, losses: { german: { units: 1, steps: 1 }, soviet: { units: 5, steps: 5 } } },
    ];
    const r = lossesPerTurn(pts);
    expect(r.sides).toEqual(['german', 'soviet']);
    expect(r.turns.map((t) => [t.turn, t.steps.german, t.steps.soviet])).toEqual([
      [1, 0, 2],
      [2, 1, 3],
      [3, 0, 0],
    ]);
    expect(lossesPerTurn([{ step: 0, turn: 1 }]).turns).toEqual([]);
  });
});

describe('BD supply on counters', () => {
  it('reads supply, offensive supply and MF from the observation and describes them', () => {
    const obs = { stacks: [{ hex: '2403', side: 'soviet', count: 2, units: [{ unit: '16A', supply: 'overland', offensive: false }] }, { hex: '2405', side: 'german', count: 1, units: [{ unit: '4Pz', supply: 'oos', mf: 5, mp: -1 }] }] };
    const st = stacksOf(obs, ['German', 'Soviet'], new Map());
    const soviet = st.find((s) => s.hex === '2403')!.units[0];
    const german = st.find((s) => s.hex === '2405')!.units[0];
    expect(soviet.supply).toBe('overland');
    expect(supplyDescription(soviet)).toContain('no offensive supply');
    expect(supplyMark(soviet)).toBeNull();
    expect(german.mf).toBe(5);
    expect(supplyMark(german)?.letter).toBe('U');
    expect(supplyDescription(german)).toContain('out of supply');
  });
});

describe('BD attachments (8.31, 8.32)', () => {
  it('reads the parent a Tiger battalion is attached to', () => {
    const obs = { stacks: [{ hex: '2405', side: 'german', count: 1, units: [{ unit: 'XXIVPz' }, { unit: '503TB', attached_to: 'XXIVPz' }] }] };
    const units = stacksOf(obs, ['German', 'Soviet'], new Map())[0].units;
    expect(units[0].attachedTo).toBeUndefined();
    expect(units[1].attachedTo).toBe('XXIVPz');
  });
});
