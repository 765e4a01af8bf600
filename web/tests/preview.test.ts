import { describe, expect, it } from 'vitest';
import { combatSummary, lossesPerTurn, parseCombat, parseReach, shiftLines, shiftText } from '../src/preview';
import { bdStacks as stacksOf } from '../src/games/bd';
import { supplyDescription, supplyMark } from '../src/counters';

// The answer BD's `combat` query gives for 12 vs 3 on rough terrain, concentric, Luftwaffe.
const combat = JSON.stringify({
  attack: 12,
  defense: 3,
  defenders: 1,
  raw: '4:1',
  raw_rule: '11.8',
  shifts: [
    { shift: -1, reason: 'rough terrain', rule: '11.14' },
    { shift: 1, reason: 'concentric attack', rule: '11.24' },
    { shift: 1, reason: 'Luftwaffe supports the attack', rule: '11.23' },
  ],
  total_shift: 1,
  final: '5:1',
  final_rule: '11.11',
  attackers: [{ unit: 'A1', factor: 9, supply: 'overland' }, { unit: 'A2', factor: 3, supply: 'oos' }],
});

describe('combat preview', () => {
  it('lists every shift with its reason and rule, and the final column', () => {
    const p = parseCombat(combat)!;
    expect(p).not.toBeNull();
    expect(shiftLines(p)).toEqual(['1L rough terrain §11.14', '1R concentric attack §11.24', '1R Luftwaffe supports the attack §11.23']);
    expect(combatSummary(p)).toBe('12 vs 3 = 4:1 §11.8, shifts 1R → final 5:1 §11.11');
    expect(p.attackers[1]).toEqual({ unit: 'A2', factor: 3, supply: 'oos' });
  });
  it('says an automatic result in words, and refuses what is not a preview', () => {
    const p = parseCombat(JSON.stringify({ attack: 30, defense: 1, raw: 'auto-DE', shifts: [], total_shift: 0, final: 'auto-DE' }))!;
    expect(combatSummary(p)).toContain('automatic defender eliminated');
    expect(parseCombat('3:1')).toBeNull();
    expect(parseCombat('{"odds": "3:1"}')).toBeNull();
    expect(shiftText(-2)).toBe('2L');
    expect(shiftText(0)).toBe('0');
  });
});

describe('reach', () => {
  it('reads the MP cost and MP left of each hex', () => {
    const r = parseReach('{"unit":"4Pz","hex":"2405","mp":10,"hexes":{"2404":{"cost":1,"left":9},"2403":{"cost":2,"left":8}}}')!;
    expect(r.mp).toBe(10);
    expect(r.hexes.get('2403')).toEqual({ cost: 2, left: 8 });
    expect(r.hexes.size).toBe(2);
    expect(parseReach('unknown unit')).toBeNull();
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
