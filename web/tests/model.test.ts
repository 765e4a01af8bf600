import { describe, expect, it } from 'vitest';
import { classify, counterIndex, stacksOf } from '../src/model';

const act = (text: string) => ({ text, words: text.split(' ') });

describe('classify', () => {
  it('reads hex moves with and without a unit, and attacks', () => {
    const r = classify([act('move 3Pz 2216 2116 2017'), act('attack 1616 from 1617'), act('end-phase')]);
    expect(r.moves).toEqual([{ unit: '3Pz', path: ['2216', '2116', '2017'], dest: '2017', text: 'move 3Pz 2216 2116 2017' }]);
    expect(r.attacks.map((a) => a.target)).toEqual(['1616']);
    expect(r.other.map((a) => a.text)).toEqual(['end-phase']);
  });
  it("reads Moscow '41 area moves (1-3 digit and lettered areas) only on an area map", () => {
    const areas = new Set(['23', '115', '4A']);
    const acts = [act('pass move XIII 115'), act('move II 23'), act('pass move HQ2Pg 4A'), act('pass dl 24PzK'), act('pass'), act('move X R2')];
    const r = classify(acts, areas);
    expect(r.moves.map((m) => [m.unit, m.dest, !!m.pass])).toEqual([
      ['XIII', '115', true],
      ['II', '23', false],
      ['HQ2Pg', '4A', true],
    ]);
    expect(r.other.map((a) => a.text)).toEqual(['pass dl 24PzK', 'pass', 'move X R2']);
    // Without the area ids, "move II 23" is not mistaken for a hex move.
    expect(classify(acts).moves).toEqual([]);
  });
});

describe('stacksOf', () => {
  it('hides an unknown (negative) MP and keeps block steps, maxima and isolation', () => {
    const bd = stacksOf({ stacks: [{ hex: '2216', side: 'german', count: 1, units: [{ unit: '3Pz', mp: -1 }] }] }, ['german', 'soviet'], new Map());
    expect(bd[0].units[0].mp).toBeUndefined();
    const roster = counterIndex(undefined, { blocks: [{ id: 'XIII', side: 'german', name: 'XIII Corps', type: 'infantry', max: 4 }] });
    const m = stacksOf(
      { viewer: 'german', own: [{ id: 'XIII', at: '115', strength: 3, isolated: true }], enemy_hidden: { '23': { blocks: 2, isolated: 1 } } },
      ['german', 'soviet'],
      roster,
    );
    const own = m.find((s) => s.hex === '115')!;
    expect(own.units[0]).toMatchObject({ label: 'XIII', steps: 3, maxSteps: 4, isolated: true, name: 'XIII Corps' });
    expect(m.find((s) => s.hex === '23')).toMatchObject({ count: 2, isolatedHidden: 1, sideIndex: 1 });
  });
});
