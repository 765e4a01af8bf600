// Army Group Center in the browser: its 8 km hex map (data/agc/map.json: pointy-top RRCC,
// drawn by the same grid code as Barbarossa Deluxe), its divisions (the observation's units
// by id, "de-7id"; label, name, side, steps and factors from counters.json), the eight
// phases of a turn (4.2, with the Reaction Phases of 14.0) and its notation: "move UNIT HEX",
// "declare HEX by UNIT..." (12.0), "order HEX no-retreat" (14.3), "support UNIT HEX" (14.2),
// "attack HEX", "end".
import { api, LegalAction } from '../api';
import { CounterInfo, readCounter, sideIndexOf, Stack } from '../model';
import { ActionInfo, cap, GameData, GameUI, labelOf } from './game';

const isHex = (w: string) => /^\d{4}$/.test(w);

// 4.2: the phases of a game turn, in the order of the observation's phase number.
// The Engineering and Surrender Phases were appended to the engine's enum (4.2 B6, C5, C6).
export const AGC_PHASES = ['Axis Movement', 'Axis Air Interdiction', 'Soviet Reaction', 'Axis Combat', 'Axis Motorized Movement', 'Soviet Motorized Movement', 'Axis Reaction', 'Soviet Combat', 'Soviet Movement', 'Axis Engineering', 'Soviet Engineering', 'Soviet Surrender'];

// counters.json by unit id (the notation's and the observation's name for a unit): its
// printed label, name, side, steps and both faces' factors.
export interface AgcCounter extends CounterInfo {
  id: string;
  full?: { attack: number; defense: number };
  reduced?: { attack: number; defense: number } | null;
  steps?: number;
  ma?: number;
}
export function agcIndex(data: any): Map<string, CounterInfo> {
  const m = new Map<string, CounterInfo>();
  for (const u of data?.units ?? [])
    m.set(`*:${u.id}`, { id: u.id, label: u.label, side: u.side, type: u.type, name: u.name, attack: u.full?.attack, defense: u.full?.defense, maxSteps: u.steps, full: u.full, reduced: u.reduced, steps: u.steps, ma: u.ma } as AgcCounter);
  return m;
}

// The units on the map, by hex and side; a unit's steps are its counter's less those lost,
// its factors the reduced face's once it has lost a step.
export function agcStacks(obs: any, sides: string[], counters: Map<string, CounterInfo>): Stack[] {
  const out: Stack[] = [];
  const byKey = new Map<string, Stack>();
  for (const u of Array.isArray(obs?.units) ? obs.units : []) {
    if (u?.eliminated || !u?.hex) continue;
    const id = String(u.id);
    const info = counters.get(`*:${id}`) as AgcCounter | undefined;
    const si = sideIndexOf(info?.side ?? (id.startsWith('su-') ? 'soviet' : 'axis'), sides);
    const hex = String(u.hex);
    const key = `${si}:${hex}`;
    let st = byKey.get(key);
    if (!st) {
      st = { hex, side: sides[si] ?? String(si), sideIndex: si, count: 0, units: [] };
      byKey.set(key, st);
      out.push(st);
    }
    const lost = Number(u.steps_lost) || 0;
    const face = lost > 0 && info?.reduced ? info.reduced : info?.full;
    const c = readCounter(id, si, { ...u, steps: info?.steps !== undefined ? info.steps - lost : undefined, attack: face?.attack, defense: face?.defense, reduced: lost > 0, isolated: u.oos === true ? true : undefined }, sides, counters);
    st.units.push({ ...c, display: info?.label });
    st.count++;
  }
  return out;
}

export function agcDescribe(a: LegalAction): ActionInfo {
  const w = a.words;
  const info: ActionInfo = { text: a.text, verb: w[0] ?? '', units: [], from: [], to: [] };
  if (w[0] === 'move' && w.length === 3 && isHex(w[2])) return { ...info, units: [w[1]], to: [w[2]] };
  if (w[0] === 'attack' && w.length === 2 && isHex(w[1])) return { ...info, to: [w[1]] };
  return info;
}

export function agcPhaseHeading(obs: any): string {
  const n = Number(obs?.phase);
  return `Turn ${obs?.turn ?? '?'}: ${AGC_PHASES[n] ?? 'phase ' + String(obs?.phase)} Phase (4.2)`;
}

export const agc: GameUI = {
  id: 'agc',
  async loadData(gameId) {
    return { counters: agcIndex(await api.gameData(gameId, 'counters.json').catch(() => undefined)) } as GameData;
  },
  stacks: agcStacks,
  describe: (a) => agcDescribe(a),
  // The server describes AGC's actions with their text only (no units, no hexes).
  adapt: (a) => {
    const own = agcDescribe({ text: a.text, words: a.text.split(' ') } as LegalAction);
    return { ...a, units: a.units.length ? a.units : own.units, to: a.to.length ? a.to : own.to };
  },
  role: (a) => (a.verb === 'move' && a.to.length ? 'move' : a.verb === 'attack' && a.to.length ? 'attack' : 'other'),
  moveKind: () => undefined,
  endVerbs: ['end'],
  endLabel: () => 'End phase',
  choiceText: (a) => (a.text === 'end' ? 'End the phase (4.2)' : labelOf(a.text)),
  isChoice: (a) => !a.units.length && a.verb !== 'attack',
  phaseHeading: (view) => agcPhaseHeading(view.observation),
  phaseText: (obs) => (obs?.phase !== undefined ? AGC_PHASES[Number(obs.phase)] ?? `phase ${obs.phase}` : undefined),
  attackText: (a) => `Attack ${a.to[0]} (15.0)`,
  attackButton: () => 'Attack',
  controlledByFirst: () => null,
  controlOf: (obs, hex, sides) => (obs?.control && hex in obs.control ? sides[Number(obs.control[hex])] ?? cap(String(obs.control[hex])) : undefined),
  supplyNotes: () => [],
  stackNote: () => undefined,
  boxNote: (box) => ({ short: `${box.name} box`, long: box.name }),
  weather: () => null,
  moveWords: (_kind, unit) => ({ heading: 'Move', verb: 'Move', prep: 'to', unit: unit ?? '' }),
  battleLine: () => undefined,
};
