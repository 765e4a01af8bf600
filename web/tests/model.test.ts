import { describe, expect, it } from 'vitest';
import type { LegalAction as LegalActionLike } from '../src/api';
import { counterIndex, layoutBoxes } from '../src/model';
import { bd, bdStacks } from '../src/games/bd';
import { blockStacks, choiceText, moscow41, offMapBoxes, setupTray } from '../src/games/moscow41';
import { sortActions } from '../src/play/actions';
import { lastSeq, mergeEvents } from '../src/play/connection';

// The actions sorted as the play page sorts them: by the Moscow '41 module on an area map
// (its area ids given), by BD's on a hex map.
const classify = (acts: LegalActionLike[], areas?: Set<string>) => (areas ? sortActions(moscow41, areas, acts) : sortActions(bd, new Set(), acts));
const classifyAsMoscow = (acts: LegalActionLike[]) => sortActions(moscow41, new Set(), acts);
const END_VERBS = moscow41.endVerbs;

const act = (text: string) => ({ text, words: text.split(' ') });

describe('classify', () => {
  it('reads hex moves with and without a unit, and attacks', () => {
    const r = classify([act('move 3Pz 2216 2116 2017'), act('attack 1616 from 1617'), act('end-phase')]);
    expect(r.moves).toEqual([{ unit: '3Pz', path: ['2216', '2116', '2017'], dest: '2017', text: 'move 3Pz 2216 2116 2017' }]);
    expect(r.attacks.map((a) => a.target)).toEqual(['1616']);
    expect(r.other.map((a) => a.text)).toEqual(['end-phase']);
  });
  it("reads Moscow '41's area notation only on an area map: move, blitz, activate-and-move; battle, artillery and air as strikes on an area", () => {
    const areas = new Set(['23', '115', '4A', 'R2']);
    const acts = [
      act('move XIII 115'),
      act('blitz II 23'),
      act('activate HQ2Pg 4A'),
      act('activate HQ2Pg'),
      act('dl 24PzK'),
      act('pass'),
      act('ti'),
      act('si reinforce'),
      act('battle 23'),
      act('artillery HQ2Pg 115'),
      act('air LW2 23 1 0'),
      act('move X R2'),
      act('move X 999'),
      act('end'),
      act('hit XIII'),
      act('step HQ2'),
      act('place Lehr 4A'),
      act('rail A16 115'),
      act('recall TT 4A'),
    ];
    const r = classify(acts, areas);
    expect(r.moves.map((m) => [m.unit, m.dest, m.kind])).toEqual([
      ['XIII', '115', undefined],
      ['II', '23', 'blitz'],
      ['HQ2Pg', '4A', 'activate'],
      ['X', 'R2', undefined],
      ['A16', '115', 'rail'],
      ['TT', '4A', 'recall'],
    ]);
    expect(r.attacks.map((a) => [a.verb, a.target, a.unit])).toEqual([
      ['battle', '23', undefined],
      ['artillery', '115', 'HQ2Pg'],
      ['air', '23', 'LW2'],
    ]);
    expect(r.other.map((a) => a.text)).toEqual(['activate HQ2Pg', 'dl 24PzK', 'pass', 'ti', 'si reinforce', 'move X 999', 'end', 'hit XIII', 'step HQ2', 'place Lehr 4A']);
    // Without the area ids, "move II 23" is not mistaken for a hex move, nor "battle 23" for an
    // attack, by either game's module.
    expect(classify(acts).moves).toEqual([]);
    expect(classify(acts).attacks).toEqual([]);
    expect(classifyAsMoscow(acts).moves).toEqual([]);
    expect(classifyAsMoscow(acts).attacks).toEqual([]);
  });
  it('names the impulse choices with their rules, and keeps the bare pass off the End button', () => {
    expect(choiceText('pass')).toMatch(/^Pass \(12\.0\)/);
    expect(choiceText('ti')).toMatch(/Tactical Impulse \(10\.0\)/);
    expect(choiceText('si reinforce')).toMatch(/option B \(11\.0\)/);
    expect(choiceText('dl XIII')).toBe('Build a Defensive Line with XIII (4.1)');
    expect(choiceText('end-phase')).toBe('End phase');
    expect(choiceText('hit A16')).toBe('A16 takes the hit (10.14.1)');
    expect(choiceText('step HQ9')).toBe('Replace a step of HQ9 (7.2.2)');
    expect(choiceText('place Lehr 4A')).toBe('Place the reinforcement Lehr in 4A (5.0)');
    expect(choiceText('aa destroy He111-1 abort He111-2 Stuka-1')).toBe('AA results destroyed: He111-1; aborted: He111-2 Stuka-1 (10.12.3)');
    expect(choiceText('aa abort He111-3')).toBe('AA results aborted: He111-3 (10.12.3)');
    expect(choiceText('stuka 99 2')).toBe('2 Stuka follow the Blitz into 99 (10.16)');
    expect(END_VERBS).not.toContain('pass');
    expect(END_VERBS).toEqual(expect.arrayContaining(['end-phase', 'end', 'commands', 'combat']));
  });
});

describe("Moscow '41 Scenario Setup", () => {
  const act = (text: string) => ({ text, words: text.split(' ') });
  it('reads setup B AREA and setup dl AREA as placements of a tray piece, setup auto as a choice', () => {
    const areas = new Set(['45', '46', '63']);
    const r = classify([act('setup A29 46'), act('setup dl 63'), act('setup auto')], areas);
    expect(r.moves).toEqual([
      { unit: 'A29', path: ['46'], dest: '46', text: 'setup A29 46', kind: 'setup' },
      { unit: 'dl', path: ['63'], dest: '63', text: 'setup dl 63', kind: 'setup' },
    ]);
    expect(r.other.map((a) => a.text)).toEqual(['setup auto']);
    expect(choiceText('setup auto')).toMatch(/automatically/);
  });
  it('lists each waiting block and counts the alike Defensive Lines once per rule', () => {
    const tray = setupTray({
      setup: [
        { piece: 'A29', strength: 1, rule: 'one each next to HQ-K', areas: ['46', '33'] },
        { piece: 'dl', rule: 'any Soviet Area', areas: ['63'] },
        { piece: 'dl', rule: 'any Soviet Area', areas: ['63', '64'] },
      ],
    });
    expect(tray).toEqual([
      { piece: 'A29', strength: 1, rule: 'one each next to HQ-K', areas: ['46', '33'], count: 1 },
      { piece: 'dl', strength: undefined, rule: 'any Soviet Area', areas: ['63', '64'], count: 2 },
    ]);
    expect(setupTray({})).toEqual([]);
    expect(setupTray({ setup: 'nonsense' })).toEqual([]);
  });
});

describe("Moscow '41 boxes", () => {
  const sides = ['german', 'soviet'];
  const roster = counterIndex(undefined, {
    blocks: [
      { id: 'XIII', side: 'german', name: 'XIII Corps', type: 'infantry', max: 4 },
      { id: '7PzD', side: 'german', type: 'tank', max: 3 },
      { id: '16A', side: 'soviet', type: 'infantry', max: 4 },
    ],
  });
  it('lays the Road to Leningrad along the northern edge in order, Kiev below the map, Rastenburg to its west', () => {
    const areas = [{ id: '1', terrain: 'green', polygon: [[0, 0], [70, 0], [70, 90], [0, 90]] as [number, number][], centre: [35, 45] as [number, number], features: [] }];
    const raw = [
      { id: 'rastenburg', name: 'Rastenburg', kind: 'rastenburg' },
      { id: 'kiev', name: 'Kiev', kind: 'kiev', victory: true },
      ...Array.from({ length: 10 }, (_, i) => ({ id: `R${10 - i}`, name: `Road ${10 - i}`, kind: 'road', road_index: 10 - i })),
    ];
    const boxes = layoutBoxes(areas, raw);
    const road = boxes.filter((b) => b.kind === 'road');
    expect(road.map((b) => b.id)).toEqual(['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'R9', 'R10']);
    for (let i = 1; i < road.length; i++) expect(road[i].x).toBeGreaterThanOrEqual(road[i - 1].x + road[i - 1].w);
    expect(road.every((b) => b.y + b.h < 0 && b.x >= 0 && b.x + b.w <= 70.01)).toBe(true);
    const kiev = boxes.find((b) => b.id === 'kiev')!;
    expect(kiev.y).toBeGreaterThan(90);
    expect(kiev.victory).toBe(true);
    expect(boxes.find((b) => b.id === 'rastenburg')!.x + 9).toBeLessThan(0);
    // A hex map has no boxes.
    expect(layoutBoxes([], raw)).toEqual([]);
  });
  it("puts own blocks by name in the pool and letter boxes, the enemy's as face-down counts, eliminated blocks by name", () => {
    const obs = {
      viewer: 'german',
      own: [
        { id: 'XIII', at: 'pool', strength: 4 },
        { id: '7PzD', at: 'destroyed', strength: 0 },
        { id: 'XX', at: '23', strength: 2 },
      ],
      enemy_pool: 5,
      enemy_waiting: 3,
      enemy_eliminated: ['16A'],
    };
    const boxes = offMapBoxes(obs, sides, roster);
    expect(boxes.map((b) => [b.id, b.blocks.map((u) => u.label), b.hidden])).toEqual([
      ['german-pool', ['XIII'], 0],
      ['german-destroyed', ['7PzD'], 0],
      ['soviet-pool', [], 5],
      ['soviet-oob', [], 3],
      ['soviet-eliminated', ['16A'], 0],
    ]);
    expect(boxes[0].blocks[0]).toMatchObject({ steps: 4, maxSteps: 4, name: 'XIII Corps', sideIndex: 0 });
    expect(boxes[4].blocks[0]).toMatchObject({ sideIndex: 1, maxSteps: 4 });
    // On the map, the pool is not a place: the block in area 23 is a stack, the pool's is not.
    expect(blockStacks(obs, sides, roster).map((s) => s.hex)).toEqual(['23']);
    // A hex game's observation has no boxes.
    expect(offMapBoxes({ stacks: [] }, sides, roster)).toEqual([]);
  });
});

describe('reading stacks', () => {
  it('hides an unknown (negative) MP and keeps block steps, maxima and isolation', () => {
    const bdStack = bdStacks({ stacks: [{ hex: '2216', side: 'german', count: 1, units: [{ unit: '3Pz', mp: -1 }] }] }, ['german', 'soviet'], new Map());
    expect(bdStack[0].units[0].mp).toBeUndefined();
    const roster = counterIndex(undefined, { blocks: [{ id: 'XIII', side: 'german', name: 'XIII Corps', type: 'infantry', max: 4 }] });
    const m = blockStacks(
      { viewer: 'german', own: [{ id: 'XIII', at: '115', strength: 3, isolated: true }], enemy_hidden: { '23': { blocks: 2, isolated: 1 } } },
      ['german', 'soviet'],
      roster,
    );
    const own = m.find((s) => s.hex === '115')!;
    expect(own.units[0]).toMatchObject({ label: 'XIII', steps: 3, maxSteps: 4, isolated: true, name: 'XIII Corps' });
    expect(m.find((s) => s.hex === '23')).toMatchObject({ count: 2, isolatedHidden: 1, sideIndex: 1 });
  });
});

describe("the server's action descriptions", () => {
  it('place a move and an attack by their fields, not by their notation, and fall back to the notation without them', () => {
    // A BD move that names only unit and destination (the path derived by the game), and an
    // attack described by the server: read from the describe() fields.
    const described = [
      { text: 'move 4Pz 2614', words: ['move', '4Pz', '2614'], verb: 'move', units: ['4Pz'], from: ['2616'], to: ['2614'], summary: '4Pz moves to 2614', rule: '8.1' },
      { text: 'attack 1616 from 1617', words: ['attack', '1616', 'from', '1617'], verb: 'attack', units: ['3Pz'], from: ['1617'], to: ['1616'], summary: '3Pz attacks 1616', rule: '11.1' },
      { text: 'end-phase', words: ['end-phase'], verb: 'end-phase', units: [], from: [], to: [], summary: 'end-phase' },
    ];
    const r = sortActions(bd, new Set(), described);
    expect(r.moves).toEqual([{ unit: '4Pz', path: ['2614'], dest: '2614', text: 'move 4Pz 2614' }]);
    expect(r.attacks.map((a) => [a.target, a.unit])).toEqual([['1616', '3Pz']]);
    expect(r.other.map((a) => a.text)).toEqual(['end-phase']);
    // A field the notation does not carry decides: a unit the text does not name.
    const odd = sortActions(bd, new Set(), [{ text: 'move 2614', words: ['move', '2614'], verb: 'move', units: ['7Pz'], from: [], to: ['2613', '2614'] }]);
    expect(odd.moves[0]).toMatchObject({ unit: '7Pz', dest: '2614', path: ['2613', '2614'] });
    // The kernel's default description (verb only): the game's module reads the notation.
    const plain = sortActions(bd, new Set(), [{ text: 'move 3Pz 2216 2116', words: ['move', '3Pz', '2216', '2116'], verb: 'move', units: [], from: [], to: [], summary: 'move 3Pz 2216 2116' }]);
    expect(plain.moves).toEqual([{ unit: '3Pz', path: ['2216', '2116'], dest: '2116', text: 'move 3Pz 2216 2116' }]);
  });
});

describe('live updates', () => {
  const ev = (seq: number) => ({ seq, kind: 'combat', text: `e${seq}`, rule: '', reveals: false, action_index: 0 });
  const view = {} as any;
  it('append the events after the last one held, skip repeats after a reconnection, and tell a gap', () => {
    // A seat's events are numbered from 1; an update carries those after seq `from`.
    const known = [ev(1), ev(2), ev(3)];
    expect(lastSeq(known)).toBe(3);
    expect(lastSeq([])).toBe(0);
    const a = mergeEvents(known, { view, from: 3, events: [ev(4), ev(5)] });
    expect(a.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(a.fresh.map((e) => e.seq)).toEqual([4, 5]);
    expect(a.gap).toBe(false);
    // An update from before the page's last event: event 3 again, skipped.
    const b = mergeEvents(known, { view, from: 2, events: [ev(3), ev(4)] });
    expect(b.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(b.fresh.map((e) => e.seq)).toEqual([4]);
    expect(b.gap).toBe(false);
    // Event 4 never arrived.
    expect(mergeEvents(known, { view, from: 4, events: [ev(5)] }).gap).toBe(true);
    // Without `from` (an older server), told by the first new event's seq.
    expect(mergeEvents(known, { view, events: [ev(5)] }).gap).toBe(true);
    expect(mergeEvents(known, { view, events: [ev(4)] }).gap).toBe(false);
    // The first events of a game, held none: all kept, from a server counting from 0 too.
    expect(mergeEvents([], { view, events: [ev(0), ev(1)] }).fresh.map((e) => e.seq)).toEqual([0, 1]);
    expect(mergeEvents([], { view, from: 0, events: [ev(1)] })).toMatchObject({ gap: false, fresh: [ev(1)] });
    expect(mergeEvents([], { view, from: 2, events: [ev(3)] }).gap).toBe(true);
    // A reset replaces the log (after an undo).
    expect(mergeEvents(known, { view, reset: true, events: [ev(1)] }).events.map((e) => e.seq)).toEqual([1]);
  });
});

describe("Moscow '41 as its server describes it", () => {
  it('reads a described Defensive Line placement as the tray piece "dl", and a described move by its path', () => {
    const areas = new Set(['45', '46', '63']);
    const r = sortActions(moscow41, areas, [
      { text: 'setup dl 63', words: ['setup', 'dl', '63'], verb: 'setup-dl', units: [], from: [], to: ['63'], summary: 'a Defensive Line is set up in 63', rule: 'Scenario Setup' },
      { text: 'move XIII 46', words: ['move', 'XIII', '46'], verb: 'move', units: ['XIII'], from: ['45'], to: ['63', '46'], summary: 'XIII moves to 46', rule: '10.8' },
      { text: 'setup auto', words: ['setup', 'auto'], verb: 'setup-auto', units: [], from: [], to: [], summary: 'setup auto', rule: 'Scenario Setup' },
    ]);
    expect(r.moves).toEqual([
      { unit: 'dl', path: ['63'], dest: '63', text: 'setup dl 63', kind: 'setup' },
      { unit: 'XIII', path: ['63', '46'], dest: '46', text: 'move XIII 46' },
    ]);
    expect(r.other.map((a) => a.text)).toEqual(['setup auto']);
  });
  it('writes a preview modifier in dice, and a note that changes no die without a number', () => {
    expect(moscow41.shiftText!(-1)).toBe('-1 die');
    expect(moscow41.shiftText!(3)).toBe('+3 dice');
    expect(moscow41.shiftText!(0)).toBe('');
  });
});
