// The attack by a ticked set of units (BD 11.6): the eligible units read from the listed
// attacks, the action built from a ticked set, and the generic panel's starting pick.
import { describe, expect, it } from 'vitest';
import type { LegalAction } from '../src/api';
import { bd, bdAttackGroup, bdAttackParts, bdDescribe } from '../src/games/bd';
import { gameUI } from '../src/games/index';
import { describeAction } from '../src/play/actions';
import { groupsByOrigin, initialPick, presets } from '../src/play/attackgroup';

// The server's legal attacks on 2016 (Grand Campaign, seed 11, GT1 German phase B), as
// describe() sends them: whole-hex forms, one-unit forms, each also with Luftwaffe support.
const H2017 = ['6', '7', '9', '13', '43'];
const H2116 = ['12', '53', '35'];
function served(): LegalAction[] {
  const out: LegalAction[] = [];
  const add = (text: string, from: string[], units: string[], to = '2016') => {
    for (const lw of [false, true]) {
      const t = text + (lw ? ' lw' : '');
      out.push({ text: t, words: t.split(' '), verb: 'attack', units, from, to: [to] } as LegalAction);
    }
  };
  add('attack 2016 from 2017', ['2017'], H2017);
  add('attack 2016 from 2116', ['2116'], H2116);
  add('attack 2016 from 2017 2116', ['2017', '2116'], [...H2017, ...H2116]);
  for (const u of H2017) add(`attack 2016 with ${u}`, ['2017'], [u]);
  for (const u of H2116) add(`attack 2016 with ${u}`, ['2116'], [u]);
  // Another target's attack and a mobile assault on this one: not part of the group.
  add('attack 2314 with 55', ['2315'], ['55'], '2314');
  out.push({ text: 'mobile-assault 2016', words: ['mobile-assault', '2016'], verb: 'mobile-assault', units: ['6'], from: ['2017'], to: ['2016'] } as LegalAction);
  return out;
}
const infos = () => served().map((a) => describeAction(bd, new Set(), a));
const group = () => bdAttackGroup('2016', infos())!;

describe('bdAttackParts', () => {
  it('reads the hexes or units and the closing words', () => {
    expect(bdAttackParts('attack 2016 from 2017 2116'.split(' '))).toEqual({ verb: 'attack', target: '2016', from: ['2017', '2116'], options: [] });
    expect(bdAttackParts('attack 2016 with 6 12 lw'.split(' '))).toEqual({ verb: 'attack', target: '2016', with: ['6', '12'], options: ['lw'] });
    expect(bdAttackParts('attack 2016 with 6 lw drop'.split(' '))).toEqual({ verb: 'attack', target: '2016', with: ['6'], options: ['lw', 'drop'] });
    expect(bdAttackParts('attack 2016 with 6 drop'.split(' '))?.options).toEqual(['drop']);
    expect(bdAttackParts('attack 2016 with lw'.split(' '))).toBeNull();
    expect(bdAttackParts('mobile-assault 2016'.split(' '))).toBeNull();
  });
  it('bdDescribe names the units of a "with" attack', () => {
    const a = bdDescribe({ text: 'attack 2016 with 6 12 lw', words: 'attack 2016 with 6 12 lw'.split(' ') });
    expect(a).toMatchObject({ verb: 'attack', to: ['2016'], units: ['6', '12'], from: [] });
    expect(bdDescribe({ text: 'attack 2016 from 2017 2116', words: 'attack 2016 from 2017 2116'.split(' ') }).from).toEqual(['2017', '2116']);
  });
});

describe('bdAttackGroup: the eligible units', () => {
  it('lists every unit of the one-unit forms with its hex, in the listed order', () => {
    const g = group();
    expect(g.target).toBe('2016');
    expect(g.units).toEqual([...H2017.map((unit) => ({ unit, from: '2017' })), ...H2116.map((unit) => ({ unit, from: '2116' }))]);
    expect(g.options.map((o) => o.id)).toEqual(['lw']);
    expect(g.note).toMatch(/11\.6/);
  });
  it('takes no attack on another hex and no mobile assault', () => {
    expect(group().units.map((u) => u.unit)).not.toContain('55');
    expect(group().parts('mobile-assault 2016')).toBeNull();
    expect(bdAttackGroup('2016', infos().filter((a) => a.verb === 'mobile-assault'))).toBeNull();
    expect(bdAttackGroup('9999', infos())).toBeNull();
  });
  it('works from the notation alone, placing the units through the stacks', () => {
    const bare = served().map((a) => describeAction(bd, new Set(), { text: a.text, words: a.words }));
    const g = bdAttackGroup('2016', bare)!;
    expect(g.units.map((u) => u.unit)).toEqual([...H2017, ...H2116]);
    expect(g.units.every((u) => u.from === '')).toBe(true);
    const where = (u: string) => (H2017.includes(u) ? '2017' : '2116');
    expect(groupsByOrigin(g, where)).toEqual([{ from: '2017', units: H2017 }, { from: '2116', units: H2116 }]);
    expect(g.compose(['6', '12'], [])).toBe('attack 2016 with 6 12');
  });
  it('is offered by BD only', () => {
    expect(gameUI('bd').attackGroup).toBeTypeOf('function');
    expect(gameUI('moscow41').attackGroup).toBeUndefined();
    expect(gameUI('nosuchgame').attackGroup).toBeUndefined();
  });
});

describe('bdAttackGroup: the action of a ticked set', () => {
  it('names a subset unit by unit, in the listed order, from one hex or several', () => {
    const g = group();
    expect(g.compose(['12', '6'], [])).toBe('attack 2016 with 6 12');
    expect(g.compose(['7', '9'], [])).toBe('attack 2016 with 7 9');
    expect(g.compose(['35', '12', '43'], ['lw'])).toBe('attack 2016 with 43 12 35 lw');
  });
  it('sends the listed (canonical) attack when the set is exactly one', () => {
    const g = group();
    expect(g.compose([...H2017].reverse(), [])).toBe('attack 2016 from 2017');
    expect(g.compose(H2116, ['lw'])).toBe('attack 2016 from 2116 lw');
    expect(g.compose([...H2116, ...H2017], [])).toBe('attack 2016 from 2017 2116');
    expect(g.compose(['9'], [])).toBe('attack 2016 with 9');
    expect(g.compose(['9'], ['lw'])).toBe('attack 2016 with 9 lw');
  });
  it('gives the units and choices of a listed attack', () => {
    const g = group();
    expect(g.parts('attack 2016 from 2017 lw')).toEqual({ units: H2017, options: ['lw'] });
    expect(g.parts('attack 2016 with 12')).toEqual({ units: ['12'], options: [] });
    expect(g.parts('attack 2314 with 55')).toBeNull();
    // Round trip: every listed attack on 2016 composes back to itself.
    for (const a of infos().filter((x) => x.verb === 'attack' && x.to[0] === '2016')) {
      const p = g.parts(a.text)!;
      expect(g.compose(p.units, p.options)).toBe(a.text);
    }
  });
  it('a "from" form the server did not describe takes the units of its hexes', () => {
    const list = infos().map((a) => (a.text === 'attack 2016 from 2116' ? { ...a, units: [] } : a));
    expect(bdAttackGroup('2016', list)!.parts('attack 2016 from 2116')).toEqual({ units: H2116, options: [] });
  });
});

describe('the panel\'s starting pick and presets', () => {
  it('starts from the listed attack with the most units and no extra choice', () => {
    expect(initialPick(group(), infos())).toEqual({ units: [...H2017, ...H2116], options: [] });
    const single = infos().filter((a) => a.text === 'attack 2016 with 53' || a.text === 'attack 2016 with 12 lw');
    expect(initialPick(bdAttackGroup('2016', single)!, single)).toEqual({ units: ['53'], options: [] });
  });
  it('offers the whole-hex forms without extra choices as presets', () => {
    expect(presets(group(), infos())).toEqual([
      { text: 'attack 2016 from 2017', label: 'All from 2017 (5)', units: H2017 },
      { text: 'attack 2016 from 2116', label: 'All from 2116 (3)', units: H2116 },
      { text: 'attack 2016 from 2017 2116', label: 'All from 2017 + 2116 (8)', units: [...H2017, ...H2116] },
    ]);
  });
});
