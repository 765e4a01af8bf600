// The Axis & Allies-style Barbarossa in the browser: its territories and sea zones (the map
// gives a centre for each, drawn as the cells of model.ts's zoneCells), its units as groups
// of one nation's one type in one zone (the notation's "nation:type@zone"), the turn's
// steps (1.2: purchase, combat move, combat, blitz, non-combat move, rail, place) and each
// side's build points, and its notation: "buy N TYPE", "casualties TYPE", "move N TYPE FROM
// TO", "battle ZONE", "stand ZONE" / "withdraw ZONE", "retreat FROM TO", "pull N TYPE FROM
// TO", "place ...", "sbr ...", "end".
import { api, LegalAction } from '../api';
import { Counter, CounterInfo, sideIndexOf, Stack } from '../model';
import { h } from '../svg';
import { ActionInfo, cap, GameData, GameUI, labelOf, PlayHooks } from './game';

// 1.1: the Axis nations; Russia is the other side.
const AXIS_NATIONS = ['germany', 'hungary', 'italy', 'romania', 'bulgaria', 'finland', 'spain'];

export interface UnitType {
  id: string;
  name: string;
  attack?: number;
  defence?: number;
  movement?: number;
  cost?: number;
}

const ABBR: Record<string, string> = {
  infantry: 'Inf',
  mech_infantry: 'Mech',
  ss_grenadier: 'SS Gr',
  guard_rifle: 'Gd Rf',
  artillery: 'Art',
  medium_armor: 'Arm',
  ss_panzer: 'SS Pz',
  guard_armor: 'Gd Ar',
  light_armor: 'L Arm',
  heavy_armor: 'H Arm',
  tank_destroyer: 'TD',
  sp_artillery: 'SP Ar',
  fighter: 'Ftr',
  tac_bomber: 'Tac',
  bomber: 'Bmr',
  heavy_bomber: 'H Bmr',
  fortification: 'Fort',
  airborne: 'Para',
  aa_gun: 'AA',
  air_base: 'AirB',
  naval_base: 'NavB',
  transport: 'Trans',
  general: 'Gen',
  supply: 'Sup',
  train: 'Train',
  truck: 'Truck',
};

// Stacks per zone and side: one counter per group (nation, type, zone), labelled with the
// group's notation id and printed with how many units it holds.
export function aaStacks(obs: any, sides: string[], types: Map<string, UnitType>): Stack[] {
  const groups = new Map<string, { nation: string; type: string; zone: string; n: number; damage: number }>();
  for (const u of Array.isArray(obs?.units) ? obs.units : []) {
    if (!Array.isArray(u) || u.length < 3) continue;
    const [nation, type, zone] = [String(u[0]), String(u[1]), String(u[2])];
    const id = `${nation}:${type}@${zone}`;
    const g = groups.get(id) ?? { nation, type, zone, n: 0, damage: 0 };
    g.n++;
    g.damage += Number(u[3]) || 0;
    groups.set(id, g);
  }
  const out: Stack[] = [];
  const byKey = new Map<string, Stack>();
  for (const [id, g] of groups) {
    const si = sideIndexOf(AXIS_NATIONS.includes(g.nation) ? 'axis' : 'russia', sides);
    const key = `${si}:${g.zone}`;
    let st = byKey.get(key);
    if (!st) {
      st = { hex: g.zone, side: sides[si] ?? String(si), sideIndex: si, count: 0, units: [] };
      byKey.set(key, st);
      out.push(st);
    }
    const t = types.get(g.type);
    const c: Counter = {
      label: id,
      display: `${g.n} ${ABBR[g.type] ?? g.type.slice(0, 4)}`,
      side: sides[si] ?? String(si),
      sideIndex: si,
      type: g.type.replace(/_/g, '-'),
      name: `${cap(g.nation)} ${t?.name ?? g.type}${g.damage ? `, ${g.damage} damage` : ''}`,
      attack: t?.attack,
      defense: t?.defence,
      move: t?.movement,
    };
    st.units.push(c);
    st.count++;
  }
  return out;
}

// The notation read into the describe() fields, where the server gives none.
export function aaDescribe(a: LegalAction): ActionInfo {
  const w = a.words;
  const info: ActionInfo = { text: a.text, verb: w[0] ?? '', units: [], from: [], to: [] };
  if ((w[0] === 'battle' || w[0] === 'stand' || w[0] === 'withdraw') && w.length === 2) return { ...info, to: [w[1]] };
  if ((w[0] === 'retreat' || w[0] === 'rail') && w.length === 3) return { ...info, from: [w[1]], to: [w[2]] };
  return info;
}

const typeName = (types: Map<string, UnitType>, t: string) => types.get(t)?.name ?? labelOf(t.replace(/_/g, ' '));
const plural = (n: number, s: string) => `${n} ${s}`;

// A player's words for a choice, with its rule.
export function aaChoiceText(a: ActionInfo, types: Map<string, UnitType>): string {
  const w = a.text.split(' ');
  switch (w[0]) {
    case 'buy': {
      const n = Number(w[1]);
      const t = types.get(w[2]);
      return `Buy ${plural(n, typeName(types, w[2]))}${t?.cost !== undefined ? ` for ${n * t.cost} BP` : ''} (1.2.3)`;
    }
    case 'casualties':
      return `Lose ${typeName(types, w[1])} first in battle (3.36.2.3)`;
    case 'stand':
      return `The defender stands in ${w[1]} (3.33)`;
    case 'withdraw':
      return `The defender rolls to withdraw from ${w[1]} (3.33)`;
    case 'retreat':
      return `The attacker retreats from ${w[1]} to ${w[2]} (3.33)`;
    case 'pull':
      return `Retreat ${plural(Number(w[1]), typeName(types, w[2]))} from ${w[3]} to ${w[4]} (3.33)`;
    case 'end':
      return a.summary ? `${cap(a.summary)} (1.2)` : 'End the step (1.2)';
  }
  return a.summary && a.summary !== a.text ? cap(a.summary) + (a.rule ? ` (${a.rule})` : '') : labelOf(a.text);
}

const STEP_NAMES: Record<string, string> = {
  purchase: 'Purchase',
  'combat-move': 'Combat Move',
  combat: 'Combat',
  blitz: 'Blitz',
  'non-combat-move': 'Non-Combat Move',
  rail: 'Rail Movement',
  place: 'Place Purchases',
  over: 'Game over',
};

// "Turn 1 · Axis: Purchase step · BP Germany 60, Russia 25".
export function aaPhaseHeading(obs: any): string {
  const step = STEP_NAMES[String(obs?.phase)] ?? labelOf(String(obs?.phase ?? ''));
  const bp = obs?.bp ?? {};
  const pools = Object.entries(bp)
    .filter(([k, v]) => Number(v) > 0 || k === 'germany' || k === 'russia')
    .map(([k, v]) => `${labelOf(k.replace(/_/g, ' '))} ${v}`);
  const decision = obs?.decision ? ` · the defender of ${obs.decision} decides (3.33)` : '';
  return `Turn ${obs?.turn ?? '?'} · ${cap(String(obs?.side ?? ''))}: ${step} step (1.2)${pools.length ? ` · BP ${pools.join(', ')}` : ''}${decision}`;
}

// The Purchase step: what the side can buy, each type a row with its cost and buttons for
// the counts the rules allow now (the legal "buy N TYPE" actions).
function purchaseSection(p: PlayHooks, types: Map<string, UnitType>): HTMLElement[] {
  const obs = p.view.observation ?? {};
  if (obs.phase !== 'purchase' || !p.view.your_turn) return [];
  const buys = new Map<string, number[]>();
  for (const a of p.view.legal_actions ?? []) {
    const w = a.words;
    if (w[0] !== 'buy' || w.length !== 3) continue;
    buys.set(w[2], [...(buys.get(w[2]) ?? []), Number(w[1])]);
  }
  if (!buys.size) return [];
  const box = h('div', { class: 'setup-tray', id: 'aa-purchase' }, h('h3', {}, aaPhaseHeading(obs)));
  const table = h('table', { class: 'purchase' });
  for (const [t, counts] of buys) {
    const info = types.get(t);
    const row = h('tr', { 'data-type': t }, h('td', {}, typeName(types, t)), h('td', {}, info?.cost !== undefined ? `${info.cost} BP` : ''), h('td', {}, info?.attack !== undefined ? `${info.attack}/${info.defence}/${info.movement}` : ''));
    const cell = h('td', {});
    const max = Math.max(...counts);
    for (const n of [...new Set([1, max])].filter((n) => counts.includes(n))) {
      const b = h('button', { class: 'choice', 'data-action': `buy ${n} ${t}`, title: `buy ${n} ${t}` }, n === 1 ? 'Buy 1' : `Buy ${n} (max)`);
      b.addEventListener('click', () => p.act(`buy ${n} ${t}`));
      cell.append(b);
    }
    row.append(cell);
    table.append(row);
  }
  box.append(table);
  return [box];
}

// The unit types (names, factors, costs) of data/aa/units.json, for the panels.
const unitTypes = new Map<string, UnitType>();

export const aa: GameUI = {
  id: 'aa',
  async loadData(gameId) {
    const units = await api.gameData(gameId, 'units.json').catch(() => undefined);
    for (const t of units?.unit_types ?? []) unitTypes.set(String(t.id), t);
    return { counters: new Map<string, CounterInfo>() } as GameData;
  },
  stacks: (obs, sides) => aaStacks(obs, sides, unitTypes),
  describe: (a) => aaDescribe(a),
  // A group's move is drawn on the map (its zone to the one clicked); a battle is a target.
  role: (a) => (a.verb === 'move' && a.units.length && a.to.length ? 'move' : a.verb === 'battle' && a.to.length ? 'attack' : 'other'),
  moveKind: () => undefined,
  endVerbs: ['end'],
  endLabel: () => 'End step',
  choiceText: (a) => aaChoiceText(a, unitTypes),
  isChoice: (a) => a.verb !== 'move' && a.verb !== 'battle' && a.verb !== 'buy',
  phaseHeading: (view) => aaPhaseHeading(view.observation),
  // "Axis: Combat Move · BP 60".
  phaseText: (obs) => {
    if (!obs?.phase) return undefined;
    const mine = obs.side === 'axis' ? obs.bp?.germany : obs.bp?.russia;
    return `${cap(String(obs.side ?? ''))}: ${STEP_NAMES[String(obs.phase)] ?? String(obs.phase)}${mine !== undefined ? ` · BP ${mine}` : ''}`;
  },
  shiftText: (n) => (n === 0 ? '' : `${n > 0 ? '+' : ''}${n}`),
  attackText: (a) => `Fight a round of the battle in ${a.to[0]} (3.36)`,
  attackButton: () => 'Battle',
  controlledByFirst: (obs) => (obs?.control && typeof obs.control === 'object' ? Object.entries(obs.control).filter(([, v]: [string, any]) => Array.isArray(v) && v[0] === 'axis').map(([k]) => k) : null),
  controlOf: (obs, zone, sides) => {
    const c = obs?.control?.[zone];
    return Array.isArray(c) ? (c[0] === 'axis' ? sides[0] : sides[1]) : undefined;
  },
  supplyNotes: () => [],
  stackNote: () => 'Each counter is a group of one nation\u2019s units of one type in the zone; its number is how many.',
  boxNote: (box) => ({ short: `${box.name} box`, long: box.name }),
  weather: () => null,
  moveWords: (_kind, unit) => {
    const m = /^([^:]+):([^@]+)@/.exec(unit ?? '');
    return { heading: 'Move', verb: 'Move', prep: 'to', unit: m ? `${cap(m[1])} ${typeName(unitTypes, m[2])}` : unit ?? '' };
  },
  battleLine: (obs) => (Array.isArray(obs?.battles) && obs.battles.length ? `Battles to fight: ${obs.battles.map((b: any) => (Array.isArray(b) ? b[0] : b)).join(', ')} (3.36)` : undefined),
  orderSections: (p) => purchaseSection(p, unitTypes),
};
