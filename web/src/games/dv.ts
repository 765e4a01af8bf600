// The Dark Valley in the browser: its flat-top CCRR hex map (ruling DV-M1), its units
// (the observation's units with their box, hex and steps; side, name and factors from
// counters.json), its notation ("move UNIT HEX", "attack HEX", "add UNIT", "retreat UNIT
// HEX", "lose UNIT", "manstein HEX", "hold", "chit NAME", "mode move|combat", ...), and the
// chit-draw rounds: the chit drawn, whose round it is, the cup and the Chit Pull Track.
import { api, LegalAction } from '../api';
import { CounterInfo, counterIndex, readCounter, sideIndexOf, Stack } from '../model';
import { h } from '../svg';
import { ActionInfo, cap, GameData, GameUI, labelOf, PlayHooks } from './game';

const isHex = (w: string) => /^\d{4}$/.test(w);

// Stacks of the units on the map (box "map"); a unit's side from counters.json (the
// observation does not repeat it), its factors those of the face it shows: full with both
// steps, reduced with one (2.2).
export function dvStacks(obs: any, sides: string[], counters: Map<string, CounterInfo>, faces?: Map<string, any>): Stack[] {
  const out: Stack[] = [];
  const byKey = new Map<string, Stack>();
  for (const u of Array.isArray(obs?.units) ? obs.units : []) {
    if (u?.box !== 'map' || u.hex === undefined) continue;
    const label = String(u.unit);
    const info = counters.get(`*:${label}`);
    const si = sideIndexOf(info?.side ?? u.side ?? 0, sides);
    const hex = String(u.hex);
    const key = `${si}:${hex}`;
    let st = byKey.get(key);
    if (!st) {
      st = { hex, side: sides[si] ?? String(si), sideIndex: si, count: 0, units: [] };
      byKey.set(key, st);
      out.push(st);
    }
    const max = info?.maxSteps;
    const reduced = typeof u.steps === 'number' && max !== undefined && u.steps < max;
    const face = faces?.get(label)?.[reduced ? 'reduced' : 'full'];
    st.units.push(
      readCounter(label, si, { ...u, reduced: max !== undefined && max > 1 ? reduced : undefined, attack: face?.attack, defense: face?.defense, isolated: u.supply ? true : undefined }, sides, counters),
    );
    st.count++;
  }
  return out;
}

// Verbs whose second word is a unit's label.
const UNIT_VERBS = ['move', 'pick', 'add', 'advance', 'lose', 'retreat', 'place', 'replace', 'rebuild'];

// The notation read into the describe() fields (the server's describe names units by
// their id, "de-xxxviii"; the notation, the observation and the map by label, "GXXXVIII").
export function dvDescribe(a: LegalAction): ActionInfo {
  const w = a.words;
  const info: ActionInfo = { text: a.text, verb: w[0] ?? '', units: [], from: [], to: [] };
  if (UNIT_VERBS.includes(w[0]) && w.length >= 2) {
    const to = w.length >= 3 && isHex(w[2]) ? [w[2]] : [];
    return { ...info, units: [w[1]], to };
  }
  if ((w[0] === 'attack' || w[0] === 'manstein') && w.length === 2 && isHex(w[1])) return { ...info, to: [w[1]] };
  return info;
}

// The server's description with the units named as the notation names them.
export function dvAdapt(a: ActionInfo): ActionInfo {
  const own = dvDescribe({ text: a.text, words: a.text.split(' ') } as LegalAction);
  return { ...a, units: own.units.length ? own.units : a.units, to: a.verb === 'add' || a.verb === 'advance' ? a.to : own.to.length ? own.to : a.to };
}

const CHIT_TEXT: Record<string, string> = {
  move: 'Move',
  combat: 'Combat',
  'move-combat': 'Move-Combat',
  counterattack: 'Counterattack',
  logistics: 'Logistics',
};
export function chitName(c: string): string {
  const m = /^(axis |soviet )?(.*)$/.exec(c)!;
  const side = m[1] ? `${cap(m[1].trim())} ` : '';
  const pz = /^panzer-army-(\d)$/.exec(m[2]);
  return side + (pz ? `Panzer Army ${pz[1]}` : CHIT_TEXT[m[2]] ?? labelOf(m[2]));
}

// A player's words for the decisions of a round, with their rules.
export function dvChoiceText(a: ActionInfo): string {
  const w = a.text.split(' ');
  const name = a.summary && a.summary !== a.text ? a.summary : undefined;
  switch (w[0]) {
    case 'lose':
      return `${name ? cap(name) : `${w[1]} takes the step loss`} (12.3c)`;
    case 'retreat':
      return `${name ? cap(name) : `${w[1]} retreats to ${w[2]}`} (12.5)`;
    case 'manstein':
      return `Play Manstein/Model on the units in ${w[1]} (10.5.10)`;
    case 'hold':
      return 'Hold the chit back (10.2)';
    case 'add':
      return `${name ? cap(name) : `${w[1]} joins the attack`} (12.2)`;
    case 'advance':
      return `${name ? cap(name) : `${w[1]} advances`} (12.6)`;
    case 'resolve':
      return 'Resolve the attack (12.3)';
    case 'cancel':
      return 'Call the attack off (12.2)';
    case 'stop':
      return 'Stop advancing (12.6)';
    case 'chit':
      return `Play the ${chitName(w.slice(1).join(' '))} chit (10.2)`;
    case 'mode':
      return w[1] === 'move' ? 'Use the round to move (10.5.5)' : 'Use the round for combat (10.5.5)';
    case 'place':
      return `${name ? cap(name) : `Place ${w[1]} at ${w[2]}`} (7.2)`;
    case 'replace':
      return `Replace a step of ${w[1]} (7.4)`;
    case 'rebuild':
      return `Rebuild ${w[1]} at ${w[2]}${w[3] ? `, ${w[3]}` : ''} (7.6)`;
    case 'pick':
      return `${name ? cap(name) : `Pick ${w[1]} to move`} (11.1)`;
    case 'done':
      return 'Done with replacements (7.1)';
    case 'end':
      return 'End the segment (10.5)';
  }
  return name ?? labelOf(a.text);
}

// The heading over the choices: the stage, the chit drawn and whose round it is.
export function dvPhaseHeading(obs: any): string {
  const stage = String(obs?.stage ?? '');
  const side = cap(String(obs?.active ?? ''));
  const chit = obs?.chit ? `${chitName(String(obs.chit))} chit, ` : '';
  const names: Record<string, string> = {
    place: `${side} reinforcements (7.2, 7.3)`,
    replace: `${side} replacements (7.4)`,
    initiative: `${side} initiative (10.2)`,
    mode: `${chit}${side} round: move or combat? (10.5.5)`,
    move: `${chit}${side} round: movement (11.0)`,
    combat: `${chit}${side} round: combat (12.0)`,
    advance: `${side} advance after combat (12.6)`,
    loss: `Step losses: choose the unit (12.3c)`,
    retreat: `Retreat: choose each unit's hex (12.5)`,
    held: `${side}: play Manstein/Model or hold the chit (10.2)`,
    over: 'The game is over',
  };
  return names[stage] ?? 'Choices';
}

// The top bar's chip: "Combat chit · Axis round · combat" (10.2, 10.5).
export function dvPhaseText(obs: any): string | undefined {
  if (!obs?.stage) return undefined;
  const side = cap(String(obs.active ?? ''));
  const chit = obs.chit ? `${chitName(String(obs.chit))} chit · ${side} round` : `${side}`;
  return `${chit} · ${String(obs.stage)}`;
}

// The chits: the one drawn, the Chit Pull Track, the cup's contents (never its order).
function chitPanel(p: PlayHooks, host: HTMLElement) {
  const obs = p.view.observation ?? {};
  if (!Array.isArray(obs.cup)) {
    host.replaceChildren();
    return;
  }
  const list = (id: string, items: string[]) => {
    const ul = h('ul', { class: 'chips', id });
    for (const c of items) ul.append(h('li', { class: 'chit', 'data-chit': c }, chitName(c)));
    return ul;
  };
  const section = host.querySelector<HTMLElement>('#dv-chits') ?? h('section', { class: 'panel', 'aria-label': 'Chits', id: 'dv-chits' });
  section.replaceChildren(
    h('h3', {}, `Turn ${obs.turn} (${obs.date ?? ''}): ${obs.chit ? `${chitName(String(obs.chit))} chit, ${cap(String(obs.active))} round` : `${cap(String(obs.active ?? ''))} to act`}`),
    h('p', { id: 'dv-facts' }, [`Initiative: ${cap(String(obs.initiative ?? ''))}`, `VP ${obs.vp ?? 0}`, `Soviet Replacement Factor ${obs.rf ?? 0}`].join(' · ')),
    h('h4', {}, `Chit Pull Track (${obs.pulled?.length ?? 0})`),
    list('dv-pulled', (obs.pulled ?? []).map(String)),
    h('h4', {}, `In the cup (${obs.cup.length})`),
    list('dv-cup', obs.cup.map(String)),
  );
  if (section.parentElement !== host) host.replaceChildren(section);
}

// The reinforcements to place this turn (7.2, 7.3): the units the legal "place UNIT HEX"
// actions name, each a button; the page then shades the hexes it may enter.
export function placeable(actions: { words: string[] }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of actions) if (a.words[0] === 'place' && a.words.length === 3) out.set(a.words[1], (out.get(a.words[1]) ?? 0) + 1);
  return out;
}
function placeTray(p: PlayHooks): HTMLElement[] {
  if (!p.view.your_turn) return [];
  const units = placeable(p.view.legal_actions ?? []);
  if (!units.size) return [];
  const box = h('div', { class: 'setup-tray', id: 'dv-place' }, h('h3', {}, `Reinforcements to place: ${units.size}`));
  const list = h('div', { class: 'setup-pieces' });
  for (const [u, n] of units) {
    const info = p.data.counters.get(`*:${u}`);
    const b = h('button', { class: 'setup-piece' + (u === p.selectedUnit ? ' selected' : ''), 'data-piece': u, title: info?.name ?? u }, u);
    b.addEventListener('click', () => p.selectPiece(u, `${info?.name ?? u}: ${n} hex(es) where it may enter. Click a shaded hex.`));
    list.append(b);
  }
  box.append(list);
  return [box];
}

// Each counter's two faces, by label, for the stacks' factors.
const faces = new Map<string, any>();

export const dv: GameUI = {
  id: 'dv',
  async loadData(gameId) {
    const counters = await api.gameData(gameId, 'counters.json').catch(() => undefined);
    for (const u of counters?.units ?? []) faces.set(String(u.label), { full: u.full, reduced: u.reduced });
    return { counters: counterIndex(counters) } as GameData;
  },
  stacks: (obs, sides, counters) => dvStacks(obs, sides, counters, faces),
  describe: (a) => dvDescribe(a),
  adapt: dvAdapt,
  // A unit's move is drawn on the map; a retreat and a placement are the round's decisions.
  role: (a) => ((a.verb === 'move' || a.verb === 'place') && a.to.length ? 'move' : a.verb === 'attack' && a.to.length ? 'attack' : 'other'),
  moveKind: (a) => (a.verb === 'place' ? 'place' : undefined),
  endVerbs: ['end', 'done', 'stop'],
  endLabel: (text) => (text === 'done' ? 'Done with replacements' : text === 'stop' ? 'Stop advancing' : 'End segment'),
  choiceText: dvChoiceText,
  isChoice: (a) => a.verb !== 'move' && a.verb !== 'attack' && a.verb !== 'place',
  phaseHeading: (view) => dvPhaseHeading(view.observation),
  phaseText: (obs) => dvPhaseText(obs),
  shiftText: (n) => (n === 0 ? '' : `${n > 0 ? '+' : ''}${n}`),
  attackText: (a) => `Attack ${a.to[0]} (12.2): pick the attackers next`,
  attackButton: () => 'Attack',
  controlledByFirst: (obs) => (Array.isArray(obs?.axis_vp_hexes) ? obs.axis_vp_hexes.map(String) : null),
  controlOf: (obs, hex, sides) => (Array.isArray(obs?.axis_vp_hexes) && obs.axis_vp_hexes.includes(hex) ? sides[0] : undefined),
  supplyNotes: () => [],
  stackNote: () => 'Steps: a unit with two steps is flipped to its reduced side by its first loss (2.2).',
  boxNote: (box) => ({ short: `${box.name} box`, long: box.name }),
  weather(obs) {
    if (!obs?.weather) return null;
    const w = String(obs.weather);
    return { text: `${cap(w)} · ${obs.date ?? ''}`, title: 'Weather of the turn from the Turn Record Track (9.0)', cls: `weather weather-${w}` };
  },
  moveWords: (kind, unit) => (kind === 'place' ? { heading: 'Reinforcement', verb: 'Place', prep: 'at', unit: unit ?? '' } : { heading: 'Move', verb: 'Move', prep: 'to', unit: unit ?? '' }),
  selectedText(unit, moves) {
    if (!moves.some((m) => m.kind === 'place')) return undefined;
    return `${unit}: ${new Set(moves.map((m) => m.dest)).size} hexes where it may enter (shaded, 7.2/7.3). Click one to place it there.`;
  },
  orderSections: placeTray,
  battleLine(obs) {
    if (!obs?.target) return undefined;
    const att = Array.isArray(obs.attackers) ? obs.attackers.map(String) : [];
    return `Attack on ${obs.target}${att.length ? ` by ${att.join(', ')}` : ': no attacker added yet'} (12.2)`;
  },
  sidePanels: chitPanel,
};
