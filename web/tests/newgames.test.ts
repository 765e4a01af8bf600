// The modules of The Dark Valley, the A&A-style Barbarossa and Army Group Center against
// what the engine sends: tests/fixtures/views.json holds a seat's view of each game as
// `steppe serve` gave it (dv campaign, aa barbarossa, agc bialystok-minsk, seed 5; long
// unit lists cut), actions of later stages met in random play (`samples`, with the server's
// describe() fields), and the aa map the server sends (its zones have a centre only).
import { describe, expect, it } from 'vitest';
import type { LegalAction } from '../src/api';
import { aa, aaChoiceText, aaPhaseHeading, aaStacks, UnitType } from '../src/games/aa';
import { agc, agcIndex, agcStacks } from '../src/games/agc';
import { chitName, dv, dvAdapt, dvChoiceText, dvPhaseHeading, dvPhaseText, dvStacks, placeable } from '../src/games/dv';
import { gameUI } from '../src/games/index';
import { centerOf, neighbourId } from '../src/hexgrid';
import { buildMap, counterIndex } from '../src/model';
import { describeAction, sortActions } from '../src/play/actions';

// node:fs by a computed name: the UI's tsconfig has no Node types (the tests run in Node).
const fsName = 'node:fs';
const { readFileSync } = (await import(/* @vite-ignore */ fsName)) as { readFileSync(p: URL, enc: string): string };
const fixtures = JSON.parse(readFileSync(new URL('./fixtures/views.json', import.meta.url), 'utf8'));
const data = (game: string, file: string) => JSON.parse(readFileSync(new URL(`../../data/${game}/${file}`, import.meta.url), 'utf8'));
const act = (text: string, extra: Record<string, unknown> = {}): LegalAction => ({ text, words: text.split(' '), ...extra }) as LegalAction;

describe('the registry', () => {
  it('gives dv, aa and agc their own modules, not the generic one', () => {
    expect(gameUI('dv')).toBe(dv);
    expect(gameUI('aa')).toBe(aa);
    expect(gameUI('agc')).toBe(agc);
    expect(gameUI('nosuch').id).toBe('nosuch');
  });
});

describe('The Dark Valley', () => {
  const v = fixtures.dv;
  const countersJson = data('dv', 'counters.json');
  const counters = counterIndex(countersJson);
  const faces = new Map<string, any>(countersJson.units.map((u: any) => [u.label, { full: u.full, reduced: u.reduced }]));

  it('draws the CCRR flat-top map: 4603 (Oranienbaum) and 4702 (Leningrad) are neighbours (ruling DV-M1)', () => {
    const map = buildMap(data('dv', 'map.json'));
    expect(map.grid.orientation).toBe('flat');
    expect(map.grid.idFormat).toBe('CCRR');
    expect(map.hexes.length).toBe(4293);
    const hex = map.byId.get('4702')!;
    expect([hex.col, hex.row]).toEqual([47, 2]);
    const a = centerOf(map.grid, '4603')!;
    const b = centerOf(map.grid, '4702')!;
    expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeCloseTo(Math.sqrt(3), 6);
    // The south key goes one row down the same column.
    expect(neighbourId(map.grid, '4702', 'S', (x) => map.byId.has(x))).toBe('4703');
    // Terrain the map's palette knows (woods, swamp), and its railways as hex lists.
    expect(new Set(map.hexes.map((x) => x.terrain))).toContain('woods');
    expect(map.railways[0][0]).toBe('4702');
  });

  it('stacks the units on the map by side (from counters.json) with the factors of the face they show', () => {
    const stacks = dvStacks(v.observation, v.sides, counters, faces);
    const gi = stacks.find((s) => s.units.some((u) => u.label === 'GI'))!;
    expect(gi.hex).toBe('2914');
    expect(gi.sideIndex).toBe(0);
    const unit = gi.units.find((u) => u.label === 'GI')!;
    expect([unit.attack, unit.defense, unit.steps, unit.maxSteps, unit.name]).toEqual([4, 6, 2, 2, 'I Corps']);
    const army = stacks.flatMap((s) => s.units).find((u) => u.label === '8A');
    expect(army?.sideIndex).toBe(1);
    // Units in a box (not "map") are not drawn on it.
    const boxed = v.observation.units.filter((u: any) => u.box !== 'map').map((u: any) => u.unit);
    expect(boxed.length).toBeGreaterThan(0);
    for (const b of boxed) expect(stacks.some((s) => s.units.some((u) => u.label === b))).toBe(false);
    // A unit down to one step shows its reduced face.
    const reduced = dvStacks({ units: [{ unit: 'GI', box: 'map', hex: '2914', steps: 1 }] }, v.sides, counters, faces)[0].units[0];
    expect([reduced.attack, reduced.defense, reduced.reduced]).toEqual([2, 3, true]);
  });

  it('sorts the combat segment: attacks on targets, "end" the End button', () => {
    const l = sortActions(dv, new Set(), v.legal_actions);
    expect(l.attacks.length).toBeGreaterThan(5);
    expect(l.attacks[0]).toMatchObject({ target: '3014', text: 'attack 3014' });
    const end = l.all.find((a) => a.text === 'end')!;
    expect(dv.endVerbs).toContain(end.text);
    expect(dv.endLabel('end')).toBe('End segment');
  });

  it("names units as the notation does, not by the server's ids, so that they match the counters", () => {
    const byVerb = Object.fromEntries(fixtures.samples.dv.map((a: any) => [a.verb, a]));
    const add = describeAction(dv, new Set(), act(byVerb.add.text, byVerb.add));
    expect(add.units).toEqual(['GXXXVIII']);
    expect(add.to).toEqual(['3217']);
    const retreat = dvAdapt({ ...byVerb.retreat });
    expect(retreat.units).toEqual(['RD22']);
    expect(retreat.to).toEqual(['3434']);
    // A move is drawn on the map: the unit and its destination.
    const l = sortActions(dv, new Set(), [act('move GI 3014', { verb: 'move', units: ['de-i'], from: ['2914'], to: ['3014'] })]);
    expect(l.moves).toEqual([{ unit: 'GI', path: ['3014'], dest: '3014', text: 'move GI 3014' }]);
  });

  it('places a reinforcement on the map: the tray lists the units, the map the hexes (7.2)', () => {
    const acts = [act('place 4Pz 2914', { verb: 'place', units: ['de-4pz'], to: ['2914'], summary: '4th Panzer Group enters at 2914', rule: '7.2' }), act('place 4Pz 2915', { verb: 'place', units: ['de-4pz'], to: ['2915'] }), act('place GI 3014')];
    const l = sortActions(dv, new Set(), acts);
    expect(l.moves).toEqual([
      { unit: '4Pz', path: ['2914'], dest: '2914', text: 'place 4Pz 2914', kind: 'place' },
      { unit: '4Pz', path: ['2915'], dest: '2915', text: 'place 4Pz 2915', kind: 'place' },
      { unit: 'GI', path: ['3014'], dest: '3014', text: 'place GI 3014', kind: 'place' },
    ]);
    expect([...placeable(acts)]).toEqual([['4Pz', 2], ['GI', 1]]);
    expect(dv.moveWords('place', '4Pz')).toEqual({ heading: 'Reinforcement', verb: 'Place', prep: 'at', unit: '4Pz' });
  });

  it('shows the decisions of a combat as readable choices with their rules', () => {
    const samples = fixtures.samples.dv;
    const info = (verb: string) => describeAction(dv, new Set(), act(samples.find((a: any) => a.verb === verb).text, samples.find((a: any) => a.verb === verb)));
    const lose = info('lose');
    expect(dv.isChoice(lose)).toBe(true);
    expect(dv.choiceText(lose)).toBe('LII Corps takes the step loss (flipped) (12.3c)');
    expect(dv.choiceText(info('retreat'))).toBe('Rifle Division 22 retreats to 3434 (12.5)');
    expect(dv.role(info('retreat'))).toBe('other');
    expect(dv.choiceText(info('advance'))).toBe('Hungarian Schnelles (Mobile) Corps advances (12.6)');
    expect(dv.choiceText(info('resolve'))).toBe('Resolve the attack (12.3)');
    // The held chit's decisions (10.2, 10.5.10): "manstein HEX" and "hold".
    const manstein = describeAction(dv, new Set(), act('manstein 3015'));
    expect(manstein.to).toEqual(['3015']);
    expect(dv.role(manstein)).toBe('other');
    expect(dvChoiceText(manstein)).toBe('Play Manstein/Model on the units in 3015 (10.5.10)');
    expect(dvChoiceText(describeAction(dv, new Set(), act('hold')))).toBe('Hold the chit back (10.2)');
    expect(dvChoiceText(describeAction(dv, new Set(), act('chit axis panzer-army-2')))).toBe('Play the Axis Panzer Army 2 chit (10.2)');
    expect(dvChoiceText(describeAction(dv, new Set(), act('mode combat')))).toBe('Use the round for combat (10.5.5)');
  });

  it('says which chit is drawn and whose round it is', () => {
    expect(dvPhaseText(v.observation)).toBe('Combat chit · Axis round · combat');
    expect(dvPhaseHeading(v.observation)).toBe('Combat chit, Axis round: combat (12.0)');
    expect(dvPhaseHeading({ ...v.observation, stage: 'loss' })).toBe('Step losses: choose the unit (12.3c)');
    expect(v.observation.cup.map(chitName)).toContain('Axis Panzer Army 1');
    expect(chitName('logistics')).toBe('Logistics');
    expect(dv.weather(v.observation, { counters })?.text).toBe('Fair · Jun 22-30 1941');
  });
});

describe('The A&A-style Barbarossa', () => {
  const v = fixtures.aa;
  const types = new Map<string, UnitType>(data('aa', 'units.json').unit_types.map((t: UnitType) => [t.id, t]));

  it('draws each zone the server sends (a centre only) as a cell around its centre', () => {
    const map = buildMap(fixtures.aa_map);
    expect(map.areas.length).toBe(fixtures.aa_map.areas.length);
    const inside = (poly: [number, number][], x: number, y: number) => {
      let c = false;
      for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
        const [xi, yi] = poly[i];
        const [xj, yj] = poly[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
      }
      return c;
    };
    for (const a of map.areas) {
      expect(a.polygon.length).toBeGreaterThanOrEqual(3);
      // Each zone's centre lies in its own cell and in no other.
      const holders = map.areas.filter((b) => inside(b.polygon, a.centre[0], a.centre[1])).map((b) => b.id);
      expect(holders).toEqual([a.id]);
    }
    expect(map.areas.find((a) => a.id === 'warsaw')?.name).toBe('Warsaw');
    expect(map.areas.find((a) => a.id === 'stalingrad')?.terrain).toBe(fixtures.aa_map.areas.find((a: any) => a.id === 'stalingrad').aa.kind);
  });

  it('stacks units as groups of one nation\u2019s one type in a zone, named as the notation names them', () => {
    const stacks = aaStacks(v.observation, v.sides, types);
    const zone1 = stacks.find((s) => s.hex === 'german-reinforcement-zone-1')!;
    expect(zone1.sideIndex).toBe(0);
    const art = zone1.units.find((u) => u.label === 'germany:artillery@german-reinforcement-zone-1')!;
    const n = v.observation.units.filter((u: any[]) => u[0] === 'germany' && u[1] === 'artillery' && u[2] === 'german-reinforcement-zone-1').length;
    expect(n).toBeGreaterThan(1);
    expect(art.display).toBe(`${n} Art`);
    expect(art.name).toBe('Germany Artillery');
    expect(stacks.find((s) => s.hex === 'moscow-west')?.sideIndex).toBe(1);
    // Every unit is in one group.
    expect(stacks.reduce((s, st) => s + st.units.reduce((k, u) => k + Number(u.display!.split(' ')[0]), 0), 0)).toBe(v.observation.units.length);
  });

  it('puts a group\u2019s move on the map and a battle on its zone; the decisions are choices', () => {
    const s = fixtures.samples.aa;
    const l = sortActions(aa, new Set(fixtures.aa_map.areas.map((a: any) => a.id)), s.map((a: any) => act(a.text, a)));
    expect(l.moves).toEqual([{ unit: 'germany:infantry@german-reinforcement-zone-1', path: ['warsaw'], dest: 'warsaw', text: 'move 1 infantry german-reinforcement-zone-1 warsaw' }]);
    expect(l.attacks.map((a) => a.target)).toEqual(['lithuania']);
    const text = (verb: string) => aaChoiceText(l.all.find((a) => a.verb === verb)!, types);
    expect(text('buy')).toBe('Buy 1 Infantry for 3 BP (1.2.3)');
    expect(text('casualties')).toBe('Lose Infantry first in battle (3.36.2.3)');
    expect(text('stand')).toBe('The defender stands in helsinki (3.33)');
    expect(text('withdraw')).toBe('The defender rolls to withdraw from helsinki (3.33)');
    expect(text('retreat')).toBe('The attacker retreats from helsinki to viipuri (3.33)');
    expect(text('pull')).toBe('Retreat 1 Infantry from lublin to warsaw (3.33)');
    expect(text('end')).toBe('End the purchase step (1.2)');
    for (const verb of ['stand', 'withdraw', 'retreat', 'pull']) expect(aa.isChoice(l.all.find((a) => a.verb === verb)!)).toBe(true);
    expect(aa.isChoice(l.all.find((a) => a.verb === 'buy')!)).toBe(false);
  });

  it('says the step of the turn and the build points', () => {
    expect(aaPhaseHeading(v.observation)).toBe('Turn 1 · Axis: Purchase step (1.2) · BP Germany 60, Russia 25');
    expect(aa.phaseText!(v.observation)).toBe('Axis: Purchase · BP 60');
    expect(aaPhaseHeading({ ...v.observation, phase: 'combat', decision: 'helsinki' })).toMatch(/Combat step .* the defender of helsinki decides \(3\.33\)$/);
  });
});

describe('Army Group Center', () => {
  const v = fixtures.agc;
  const counters = agcIndex(data('agc', 'counters.json'));

  it('draws its map from data/agc/map.json (the server sends only the grid)', () => {
    const map = buildMap({ grid: data('agc', 'map.json').grid }, data('agc', 'map.json'));
    expect(map.hexes.length).toBe(7600);
    expect(map.grid.orientation).toBe('pointy');
    // Railways come as {hexes: [...]}: read as hex lists.
    expect(map.railways.length).toBeGreaterThan(0);
    expect(typeof map.railways[0][0]).toBe('string');
    expect(map.railways[0][0]).toBe('6699');
  });

  it('stacks its divisions by id, printed with their label, with steps and factors', () => {
    const stacks = agcStacks(v.observation, v.sides, counters);
    const st = stacks.find((s) => s.hex === '3799')!;
    expect(st.sideIndex).toBe(0);
    const u = st.units.find((x) => x.label === 'de-7id')!;
    expect([u.display, u.attack, u.defense, u.steps, u.maxSteps]).toEqual(['7 ID', 6, 8, 4, 4]);
    const soviet = stacks.find((s) => s.units.some((x) => x.label.startsWith('su-')));
    expect(soviet?.sideIndex).toBe(1);
    // A division that lost a step shows its reduced face.
    const hit = agcStacks({ units: [{ id: 'de-7id', hex: '3799', steps_lost: 1, eliminated: false }] }, v.sides, counters)[0].units[0];
    expect([hit.attack, hit.defense, hit.steps]).toEqual([3, 4, 3]);
  });

  it('reads "move UNIT HEX" (the server describes it by its text only) as a move on the map', () => {
    const l = sortActions(agc, new Set(), v.legal_actions);
    expect(l.moves[0]).toEqual({ unit: 'de-7id', path: ['3798'], dest: '3798', text: 'move de-7id 3798' });
    expect(l.other.map((a) => a.text)).toEqual(['end']);
    expect(agc.phaseText!(v.observation)).toBe('Axis Movement');
    expect(agc.phaseHeading({ observation: v.observation } as any)).toBe('Turn 1: Axis Movement Phase (4.2)');
  });
});
