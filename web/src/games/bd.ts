// Barbarossa Deluxe in the browser: its observation's stacks (11.7: the enemy's top unit
// only), its hex notation ("move UNIT HEX...", "attack HEX ...", "mobile-assault HEX"),
// control and supply markers, the Turn Record Track's reinforcements, the calendar's
// single and double turns.
import { api, LegalAction } from '../api';
import { CounterInfo, counterIndex, readCounter, sideIndexOf, Stack } from '../model';
import { h } from '../svg';
import { combatSummary } from '../preview';
import { ActionInfo, AttackGroup, cap, GameData, GameUI, labelOf, PlayHooks } from './game';

// BD's observation: {stacks: [{hex, side, count, units: [{unit, ...}]}]} (the count says how
// many units are in a stack the viewer sees only the top of).
export function bdStacks(obs: any, sides: string[], counters: Map<string, CounterInfo>): Stack[] {
  const out: Stack[] = [];
  for (const s of Array.isArray(obs?.stacks) ? obs.stacks : []) {
    const si = sideIndexOf(s.side, sides);
    const units = (s.units ?? []).map((u: any) => readCounter(String(u.unit ?? u.label ?? u.name ?? '?'), si, u, sides, counters));
    out.push({ hex: String(s.hex), side: sides[si] ?? String(s.side), sideIndex: si, count: s.count ?? units.length, units });
  }
  return out;
}

const isHex = (w: string) => /^\d{4}$/.test(w);

// BD's notation: "move [UNIT] HEX HEX ..." (the path, its last hex the destination),
// "attack HEX from HEX ...", "mobile-assault HEX", "assault HEX"; everything else a choice.
export function bdDescribe(a: LegalAction): ActionInfo {
  const w = a.words;
  const info: ActionInfo = { text: a.text, verb: w[0] ?? '', units: [], from: [], to: [] };
  if (w[0] === 'move' && w.length >= 2) {
    const unit = isHex(w[1]) ? undefined : w[1];
    const path = w.slice(unit ? 2 : 1).filter(isHex);
    if (path.length) return { ...info, units: unit ? [unit] : [], to: path };
  }
  if ((w[0] === 'attack' || w[0] === 'mobile-assault' || w[0] === 'assault') && w.length >= 2 && isHex(w[1])) {
    const parts = bdAttackParts(w);
    return { ...info, to: [w[1]], from: parts?.from ?? w.slice(2).filter(isHex), units: parts?.with ?? [] };
  }
  // Other orders name their unit second ("enter 4Pz 2614", "rvgk-in 23A").
  return { ...info, units: w.length >= 2 ? [w[1]] : [] };
}

// The words that may close an attack, in the order the notation takes them: Luftwaffe
// support (11.23) and a combat air drop (4.17).
const ATTACK_OPTIONS = [
  { id: 'lw', label: 'Luftwaffe support', rule: '11.23' },
  { id: 'drop', label: 'Combat air drop', rule: '4.17' },
];

// "attack HEX from HEX... [lw] [drop]" or "attack HEX with UNIT... [lw] [drop]" (also a
// mobile assault's "with"): the target, the hexes or the units, and the closing words.
export function bdAttackParts(words: string[]): { verb: string; target: string; from?: string[]; with?: string[]; options: string[] } | null {
  if (words.length < 4 || !isHex(words[1]) || (words[2] !== 'from' && words[2] !== 'with')) return null;
  let end = words.length;
  const options: string[] = [];
  if (end > 4 && words[end - 1] === 'drop') options.unshift(words[--end]);
  if (words[end - 1] === 'lw') options.unshift(words[--end]);
  const rest = words.slice(3, end);
  if (!rest.length) return null;
  return { verb: words[0], target: words[1], ...(words[2] === 'from' ? { from: rest } : { with: rest }), options };
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && new Set(a).size === a.length && a.every((x) => b.includes(x));

// 11.6: a prepared assault on `target` by any set of the units able to attack it. The
// listed attacks are the whole-hex forms and the one-unit forms (ruling BD-2); the
// one-unit forms name every unit that may join, and the server's description gives each
// one's hex. A ticked set that a listed attack makes exactly is sent as that attack (its
// canonical notation), any other as "attack T with U1 U2 ...".
export function bdAttackGroup(target: string, attacks: ActionInfo[]): AttackGroup | null {
  const listed = attacks
    .filter((a) => a.verb === 'attack' && a.to[0] === target)
    .map((a) => ({ a, p: bdAttackParts(a.text.split(/\s+/)) }))
    .filter((x): x is { a: ActionInfo; p: NonNullable<ReturnType<typeof bdAttackParts>> } => !!x.p);
  const units: { unit: string; from: string }[] = [];
  const add = (unit: string, from: string) => {
    const u = units.find((x) => x.unit === unit);
    if (!u) units.push({ unit, from });
    else if (!u.from) u.from = from;
  };
  for (const { a, p } of listed) if (p.with?.length === 1) add(p.with[0], a.from.length === 1 ? a.from[0] : '');
  // The whole-hex forms' units (the server names them): a hex's unit is in its one-hex form.
  for (const { a, p } of listed) if (p.from) for (const u of a.units) add(u, p.from.length === 1 ? p.from[0] : '');
  if (!units.length) return null;
  const seen = new Set(listed.flatMap((x) => x.p.options));
  const options = ATTACK_OPTIONS.filter((o) => seen.has(o.id));
  const partsOf = (p: NonNullable<ReturnType<typeof bdAttackParts>>, a?: ActionInfo) => {
    const us = p.with ?? (a?.units.length ? a.units : units.filter((u) => p.from!.includes(u.from)).map((u) => u.unit));
    return { units: us, options: p.options };
  };
  return {
    target,
    units,
    options,
    note: 'Tick the units that attack: any of those able to attack the hex, from one hex or several; the others may attack elsewhere or not at all (11.6).',
    parts(text) {
      const p = bdAttackParts(text.split(/\s+/));
      if (!p || p.verb !== 'attack' || p.target !== target) return null;
      return partsOf(p, listed.find((x) => x.a.text === text)?.a);
    },
    compose(ticked, opts) {
      const order = units.map((u) => u.unit).filter((u) => ticked.includes(u));
      const closing = ATTACK_OPTIONS.filter((o) => opts.includes(o.id)).map((o) => o.id);
      const same = listed.find(({ a, p }) => sameSet(p.options, closing) && sameSet(partsOf(p, a).units, order));
      return same ? same.a.text : ['attack', target, 'with', ...order, ...closing].join(' ');
    },
  };
}

// Units arriving on later turns: the observation's boxes.<side>.trrt ({unit, turn}), the
// viewer's side only (the server sends no other side's queue it may not see).
function reinforcements(p: PlayHooks, host: HTMLElement) {
  const obs = p.view.observation ?? {};
  const mine = obs.boxes?.[obs.viewer ?? p.view.side_name?.toLowerCase()] ?? obs.boxes?.[p.view.side_name];
  const queue: { unit: string; turn: number }[] = Array.isArray(mine?.trrt) ? mine.trrt.filter((r: any) => r && r.unit !== undefined) : [];
  if (!queue.length) {
    host.replaceChildren();
    return;
  }
  const byTurn = new Map<number, string[]>();
  for (const r of queue) byTurn.set(Number(r.turn), [...(byTurn.get(Number(r.turn)) ?? []), String(r.unit)]);
  const turns = [...byTurn.keys()].sort((a, b) => a - b);
  const calendar = p.data.calendar;
  const months = (t: number) => (Array.isArray(calendar?.turns) ? calendar.turns.find((c: any) => c.turn === t)?.months : undefined);
  const dl = h('dl', { class: 'reinf-list' });
  for (const t of turns) {
    const units = byTurn.get(t)!;
    const chips = units.map((u) => {
      const info = p.data.counters.get(`${String(obs.viewer ?? '').toLowerCase()}:${u}`) ?? p.data.counters.get(`*:${u}`);
      const title = [info?.name, info?.type?.replace(/-/g, ' '), info?.attack !== undefined ? `${info.attack}-${info.defense}` : ''].filter(Boolean).join(', ');
      return h('span', { class: 'reinf-unit', title: title || u, 'data-unit': u }, u);
    });
    dl.append(h('dt', { class: t === Number(obs.turn) + 1 ? 'next' : '' }, `Turn ${t}${months(t) ? ` (${months(t)})` : ''}`), h('dd', {}, ...chips));
  }
  // The same section from one view to the next, its contents replaced.
  const section = host.querySelector<HTMLElement>('#reinforcements') ?? h('section', { class: 'panel reinf-panel', 'aria-label': 'Reinforcements', id: 'reinforcements' });
  section.replaceChildren(h('details', { open: '' }, h('summary', {}, `Reinforcements (${queue.length} unit${queue.length === 1 ? '' : 's'})`), dl));
  if (section.parentElement !== host) host.replaceChildren(section);
}

export const bd: GameUI = {
  id: 'bd',
  async loadData(gameId) {
    const [counters, calendar] = await Promise.all([api.gameData(gameId, 'counters.json').catch(() => undefined), api.gameData(gameId, 'calendar.json').catch(() => undefined)]);
    return { counters: counterIndex(counters), calendar } as GameData;
  },
  stacks: bdStacks,
  describe: (a) => bdDescribe(a),
  role: (a) => (a.verb === 'move' && a.to.length ? 'move' : (a.verb === 'attack' || a.verb === 'mobile-assault' || a.verb === 'assault') && a.to.length ? 'attack' : 'other'),
  moveKind: () => undefined,
  endVerbs: ['end-phase', 'end', 'done'],
  endLabel: labelOf,
  choiceText: (a) => labelOf(a.text),
  isChoice: (a) => a.text.split(' ').length === 1,
  phaseHeading: () => 'Choices',
  // 11.11: the odds column, each shift in columns, the final column.
  previewSummary: (p) => combatSummary(p),
  unseenNote: (n) => `The defence counts ${n} unit(s) you cannot see as a guess; they are revealed when the attack is made (11.7).`,
  attackText: (a) => labelOf(a.text),
  attackButton: () => 'Attack',
  attackGroup: bdAttackGroup,
  controlledByFirst: (obs) => (Array.isArray(obs?.german_controls) ? obs.german_controls : null),
  controlOf: (obs, hex, sides) => (Array.isArray(obs?.german_controls) ? (obs.german_controls.includes(hex) ? sides[0] : sides[1] ?? 'other') : undefined),
  // 7.10: the offensive supply markers the observation lists.
  supplyNotes(obs, hex) {
    const off = obs?.markers?.offensive_supply;
    return Array.isArray(off) && off.some((x: any) => String(x?.hex ?? x) === hex) ? ['offensive supply marker'] : [];
  },
  // Every unit has one step (Old Hands Note to 2.12), so no counter shows a reduced side.
  stackNote: (obs) => (obs?.steps_per_unit === 1 ? 'Steps: each unit has one step; it is in play or eliminated, never reduced (2.12).' : undefined),
  boxNote: (box) => ({ short: `${box.name} box`, long: box.name }),
  // BD has no weather rules: the chip gives the calendar's kind of turn (single or double month).
  weather(obs, data) {
    const cal = Array.isArray(data.calendar?.turns) ? data.calendar.turns.find((t: any) => t.turn === obs?.turn) : undefined;
    return cal?.type ? { text: `${cap(String(cal.type))} turn · no weather rules`, title: 'This game has no weather rules; double turns cover two months', cls: 'weather' } : null;
  },
  moveWords: (_kind, unit) => ({ heading: 'Move', verb: 'Move', prep: 'to', unit: unit ?? '' }),
  battleLine(obs) {
    const b = obs?.battle;
    return b ? `${b.attacker} ${b.mobile ? 'mobile assault' : 'attack'} on ${b.target}` + (b.odds ? `: odds ${b.odds}, result ${b.result}` : '') : undefined;
  },
  sidePanels: reinforcements,
};
