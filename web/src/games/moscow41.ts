// Moscow '41 in the browser: its blocks (own ones by name, the enemy's hidden ones as
// counts, 1.5), its area notation ("move B AREA", "blitz B AREA", "activate HQ AREA",
// "rail B AREA", "recall B AREA", "setup B AREA"; "battle AREA", "artillery HQ AREA", "air
// LWHQ AREA HE111 STUKA"), the impulse's choices with their rules, the set-up tray and the
// boxes and tracks beside the board.
import { api, LegalAction } from '../api';
import { describeCounter } from '../counters';
import { Counter, CounterInfo, counterIndex, readCounter, sideIndexOf, Stack } from '../model';
import { blockChip } from '../play/chips';
import { h } from '../svg';
import { ActionInfo, cap, GameData, GameUI, labelOf, PlayHooks } from './game';

// Blocks by location: own blocks, enemy blocks revealed, and counts of hidden enemy blocks
// (with how many of them are known to be isolated).
export function blockStacks(obs: any, sides: string[], counters: Map<string, CounterInfo>): Stack[] {
  const out: Stack[] = [];
  if (!Array.isArray(obs?.own)) return out;
  const me = sideIndexOf(obs.viewer, sides);
  const enemy = sides.length === 2 ? 1 - me : me;
  const byLoc = new Map<string, Stack>();
  const add = (loc: string, si: number, u?: any, hidden = 0, isolatedHidden = 0) => {
    const key = `${si}:${loc}`;
    let st = byLoc.get(key);
    if (!st) {
      st = { hex: loc, side: sides[si] ?? String(si), sideIndex: si, count: 0, units: [] };
      byLoc.set(key, st);
      out.push(st);
    }
    if (u) st.units.push(readCounter(String(u.id), si, { ...u, attack: u.strength, defense: undefined }, sides, counters));
    st.count += u ? 1 : hidden;
    if (isolatedHidden) st.isolatedHidden = (st.isolatedHidden ?? 0) + isolatedHidden;
  };
  for (const b of obs.own) if (!/^(pool|oob|destroyed|surrendered|unplaced)/.test(String(b.at))) add(String(b.at), me, b);
  for (const b of obs.enemy_revealed ?? []) add(String(b.at), enemy, b);
  for (const [loc, hd] of Object.entries(obs.enemy_hidden ?? {})) add(loc, enemy, undefined, Number((hd as any).blocks ?? 0), Number((hd as any).isolated ?? 0));
  return out;
}

const MOVE_VERBS = ['move', 'blitz', 'activate', 'rail', 'recall', 'setup'];

// The notation read into the describe() fields: a block B goes to AREA by "move B AREA",
// "blitz B AREA", "activate HQ AREA", "rail B AREA", "recall B AREA" or (Scenario Setup)
// "setup B AREA" / "setup dl AREA"; "battle AREA", "artillery HQ AREA" and "air LWHQ AREA
// HE111 STUKA" strike an area; other orders name their block second ("dl B", "hit B").
export function moscowDescribe(a: LegalAction, places: Set<string>): ActionInfo {
  const w = a.words;
  const info: ActionInfo = { text: a.text, verb: w[0] ?? '', units: [], from: [], to: [] };
  if (MOVE_VERBS.includes(w[0]) && w.length === 3 && places.has(w[2])) return { ...info, units: [w[1]], to: [w[2]] };
  if (w[0] === 'battle' && w.length === 2 && places.has(w[1])) return { ...info, to: [w[1]] };
  if (((w[0] === 'artillery' && w.length === 3) || (w[0] === 'air' && w.length === 5)) && places.has(w[2])) return { ...info, units: [w[1]], to: [w[2]] };
  // Other orders name their block second ("dl B", "activate HQ", "hit B", "step B").
  return { ...info, units: w.length >= 2 ? [w[1]] : [] };
}

// What a player reads on a button for an action that is neither a move nor an attack:
// Moscow '41's impulse choices and segment ends with their rule sections; other games'
// verbs as written.
const CHOICE_TEXT: Record<string, string> = {
  pass: 'Pass (12.0): then move one block or build one Defensive Line',
  ti: 'Tactical Impulse (10.0): activate HQs, move, fight',
  si: 'Strategic Impulse, option A (11.0): spend the Initiative Disc, move up to LV blocks',
  'si reinforce': 'Strategic Impulse, option B (11.0): spend the Initiative Disc on reinforcements (5.0)',
  commands: 'Done activating: to the Command Segment (10.7)',
  combat: 'Done commanding: to the Combat Phase (10.11)',
  exploit: 'Exploitation Move (10.18): spend the Initiative Disc, move fast blocks',
  'logistics pause': 'Logistics: pause (7.0)',
  'logistics activate': 'Logistics: activate (7.0)',
  'setup auto': 'Place the rest automatically (Scenario Setup)',
};
export function choiceText(text: string): string {
  if (CHOICE_TEXT[text]) return CHOICE_TEXT[text];
  const w = text.split(' ');
  if (w[0] === 'dl' && w.length === 2) return `Build a Defensive Line with ${w[1]} (4.1)`;
  if (w[0] === 'activate' && w.length === 2) return `Activate ${w[1]} where it stands (10.1)`;
  // Moscow '41's decisions inside a procedure: which equally strong block takes a hit, the
  // steps a Leader Activation buys, where a drawn reinforcement enters.
  if (w[0] === 'hit' && w.length === 2) return `${w[1]} takes the hit (10.14.1)`;
  if (w[0] === 'step' && w.length === 2) return `Replace a step of ${w[1]} (7.2.2)`;
  if (w[0] === 'place' && w.length === 3) return `Place the reinforcement ${w[1]} in ${w[2]} (5.0)`;
  // How the German converts AA hits (10.12.3); Stukas following a Blitz (10.16).
  if (w[0] === 'aa' && w.length >= 3) {
    const parts: string[] = [];
    let mode = '';
    for (const x of w.slice(1)) {
      if (x === 'destroy' || x === 'abort') {
        mode = x === 'destroy' ? 'destroyed' : 'aborted';
        parts.push(`${mode}:`);
      } else parts[parts.length - 1] += ` ${x}`;
    }
    return `AA results ${parts.join('; ')} (10.12.3)`;
  }
  if (w[0] === 'stuka' && w.length === 3) return `${w[2]} Stuka follow the Blitz into ${w[1]} (10.16)`;
  const t = text.replace(/-/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// Moscow '41's set-up tray: the observation's `setup` list (one entry per waiting piece)
// with the Defensive Lines, which are alike, counted as one entry per rule.
export interface SetupPiece {
  piece: string; // block id, or "dl"
  strength?: number;
  rule: string;
  areas: string[];
  count: number;
}
export function setupTray(obs: any): SetupPiece[] {
  const out: SetupPiece[] = [];
  for (const p of Array.isArray(obs?.setup) ? obs.setup : []) {
    const piece = String(p?.piece ?? '');
    if (!piece) continue;
    const areas = Array.isArray(p.areas) ? p.areas.map(String) : [];
    const same = piece === 'dl' ? out.find((x) => x.piece === 'dl' && x.rule === String(p.rule)) : undefined;
    if (same) {
      same.count++;
      for (const a of areas) if (!same.areas.includes(a)) same.areas.push(a);
      continue;
    }
    out.push({ piece, strength: typeof p.strength === 'number' ? p.strength : undefined, rule: String(p.rule ?? ''), areas, count: 1 });
  }
  return out;
}

// The off-map boxes that are not on the board's edge (Moscow '41): a side's reinforcement
// pool, the OoB cards' letter boxes (N, K), and the destroyed / surrendered boxes. Own
// blocks by name; the enemy's pool and letter boxes as counts only (1.5); eliminated
// blocks are public.
export interface OffMapBox {
  id: string;
  title: string;
  side: number;
  blocks: Counter[];
  // Enemy blocks in it that the viewer may not see: drawn face down.
  hidden: number;
}
export function offMapBoxes(obs: any, sides: string[], counters: Map<string, CounterInfo>): OffMapBox[] {
  if (!Array.isArray(obs?.own)) return [];
  const me = sideIndexOf(obs.viewer, sides);
  const enemy = sides.length === 2 ? 1 - me : me;
  const name = (i: number) => sides[i] ?? String(i);
  const titles: Record<string, string> = {
    pool: 'reinforcement pool (5.0)',
    drawn: 'drawn reinforcements, to place (5.0)',
    'oob-n': 'OoB: N box (5.1, November)',
    'oob-k': 'OoB: K box (13.2, after Kiev)',
    destroyed: 'destroyed (10.14.3)',
    surrendered: 'surrendered (10.14.3)',
    oob: 'OoB letter boxes, N and K (5.1, 13.2)',
    eliminated: 'eliminated (destroyed or surrendered, 10.14.3)',
  };
  const out = new Map<string, OffMapBox>();
  const box = (loc: string, side: number) => {
    const key = `${side}:${loc}`;
    let b = out.get(key);
    if (!b) {
      b = { id: `${name(side).toLowerCase()}-${loc}`, title: `${name(side)} ${titles[loc] ?? loc}`, side, blocks: [], hidden: 0 };
      out.set(key, b);
    }
    return b;
  };
  // Own blocks off the map, read like the ones on it (name, type, steps of maximum).
  const ownAt = obs.own.filter((b: any) => titles[String(b.at)]);
  const units: Counter[] = ownAt.map((b: any) => readCounter(String(b.id), me, b, sides, counters));
  units.forEach((u, i) => box(String(ownAt[i].at), me).blocks.push(u));
  // The enemy's eliminated blocks are public (they lie on the OoB cards) and named; its
  // pool and letter boxes are counts only.
  for (const id of obs.enemy_eliminated ?? []) {
    const info = counters.get(`${name(enemy).toLowerCase()}:${id}`) ?? counters.get(`*:${id}`);
    box('eliminated', enemy).blocks.push({ label: String(id), side: name(enemy), sideIndex: enemy, type: info?.type, name: info?.name, maxSteps: info?.maxSteps });
  }
  if (Number(obs.enemy_pool) > 0) box('pool', enemy).hidden = Number(obs.enemy_pool);
  if (Number(obs.enemy_waiting) > 0) box('oob', enemy).hidden = Number(obs.enemy_waiting);
  if (Number(obs.enemy_drawn) > 0) box('drawn', enemy).hidden = Number(obs.enemy_drawn);
  const order = ['pool', 'drawn', 'oob-n', 'oob-k', 'oob', 'destroyed', 'surrendered', 'eliminated'];
  const rank = (k: string) => (k.startsWith(`${me}:`) ? 0 : 100) + order.indexOf(k.slice(k.indexOf(':') + 1));
  return [...out.entries()].sort((a, b) => rank(a[0]) - rank(b[0])).map(([, b]) => b);
}

// Moscow '41's boxes beside the board: the turn and weather forecast tracks, the Initiative
// Disc and Logistics Value, each side's reinforcement pool, OoB letter boxes and eliminated
// blocks (own blocks shown, the enemy's hidden ones face down), bombers.
function offmapPanel(p: PlayHooks, host: HTMLElement, wasOpen: boolean) {
  const obs = p.view.observation ?? {};
  if (!Array.isArray(obs.own)) {
    host.replaceChildren();
    return;
  }
  const { sides, data } = p;
  const tables = data.tables;
    const body = h('div', {});
    const months: string[] = Array.isArray(tables?.calendar?.turns) ? tables.calendar.turns.map(String) : [];
    if (months.length) {
      const ol = h('ol', { class: 'track', id: 'month-track', 'aria-label': 'Turn track' });
      months.forEach((m, i) => ol.append(h('li', { class: i + 1 === Number(obs.turn) ? 'now' : '', title: `Turn ${i + 1}` }, m.slice(0, 3))));
      body.append(h('h4', {}, 'Turn track (1.4)'), ol);
    }
    const boxes: unknown[] = Array.isArray(tables?.weather_track?.boxes) ? tables.weather_track.boxes : [];
    if (boxes.length && obs.forecast !== undefined) {
      const ol = h('ol', { class: 'track', id: 'forecast-track', 'aria-label': 'Weather forecast track' });
      ['--', ...boxes.map(String)].forEach((b, i) => ol.append(h('li', { class: i === Number(obs.forecast) ? 'now' : '' }, b)));
      body.append(h('h4', {}, `Weather ${cap(String(obs.weather ?? ''))}, forecast track (8.1)`), ol);
    }
    const facts = [
      obs.active ? `${cap(String(obs.active))} impulse${obs.phase === 'impulse' ? ' (being chosen)' : `, ${String(obs.phase ?? '')} segment`}` : '',
      obs.initiative ? `Initiative Disc: ${cap(String(obs.initiative))} (3.2.1)` : '',
      obs.lv !== undefined ? `Your Logistics Value: ${obs.lv} (7.2.1)` : '',
      obs.kiev_german ? 'Kiev has fallen (13.2)' : '',
      obs.leningrad_german ? 'Leningrad has fallen' : obs.shlisselburg_german ? 'Shlisselburg is German' : '',
    ].filter(Boolean);
    body.append(h('p', { id: 'impulse-facts' }, facts.join(' · ')));
    for (const b of offMapBoxes(obs, sides, data.counters)) {
      const chips = h('div', { class: 'chips' });
      for (const u of b.blocks) chips.append(blockChip(u.sideIndex, u, describeCounter(u)));
      for (let i = 0; i < Math.min(b.hidden, 40); i++) chips.append(blockChip(b.side, null, `${cap(sides[b.side] ?? '')} block, face down`));
      const n = b.blocks.length + b.hidden;
      chips.setAttribute('aria-label', `${b.title}: ${b.blocks.map((u) => u.label).join(', ')}${b.hidden ? `${b.blocks.length ? ' and ' : ''}${b.hidden} face down` : ''}`);
      body.append(h('div', { class: 'offmap-box', id: `box-${b.id}`, 'data-count': String(n), 'data-hidden': String(b.hidden) }, h('h4', {}, `${b.title} (${n})`), chips));
    }
    const bombers: any[] = Array.isArray(obs.bombers) ? obs.bombers : [];
    if (bombers.length) {
      const by = new Map<string, number>();
      for (const x of bombers) by.set(`${x.fliegerkorps} FK ${x.stuka ? 'Stuka' : 'He 111'} ${x.status}`, (by.get(`${x.fliegerkorps} FK ${x.stuka ? 'Stuka' : 'He 111'} ${x.status}`) ?? 0) + 1);
      body.append(h('h4', {}, 'German bombers (10.10.1)'), h('p', { id: 'bombers' }, [...by].map(([k, v]) => `${k}: ${v}`).join('; ')));
    }
    const det = h('details', wasOpen ? { open: '' } : {}, h('summary', {}, 'Boxes and tracks'), body);
  // The same section from one view to the next, its contents replaced.
  const section = host.querySelector<HTMLElement>('#offmap') ?? h('section', { class: 'panel offmap-panel', 'aria-label': 'Off-map boxes and tracks', id: 'offmap' });
  section.replaceChildren(det);
  if (section.parentElement !== host) host.replaceChildren(section);
}

const pieceName = (piece: string) => (piece === 'dl' ? 'Defensive Line' : piece);

// The Scenario Setup tray: the owner's waiting pieces (click one, the areas it may go to
// are shaded, click one of them, confirm) and a button that places the rest automatically;
// the other side reads only how many pieces are left (1.5).
function setupSection(p: PlayHooks): HTMLElement[] {
  const obs = p.view.observation ?? {};
  if (obs.phase !== 'setup') return [];
  const tray = setupTray(obs);
  if (!p.view.your_turn || !tray.length) {
    const e = obs.enemy_setup;
    return e ? [h('div', { class: 'setup-tray', id: 'setup-wait' }, h('h3', {}, 'Scenario Setup'), h('p', {}, `The other side is setting up: ${e.blocks ?? 0} block(s) and ${e.dls ?? 0} Defensive Line(s) left to place.`))] : [];
  }
  const left = tray.reduce((n, x) => n + x.count, 0);
  const box = h('div', { class: 'setup-tray', id: 'setup-tray' }, h('h3', {}, `Scenario Setup: ${left} piece${left === 1 ? '' : 's'} to place`));
  const list = h('div', { class: 'setup-pieces' });
  for (const x of tray) {
    const label = x.piece === 'dl' ? `Defensive Line${x.count > 1 ? ` ×${x.count}` : ''}` : `${x.piece}${x.strength !== undefined ? ` (${x.strength})` : ''}`;
    const b = h('button', { class: 'setup-piece' + (x.piece === p.selectedUnit ? ' selected' : ''), 'data-piece': x.piece, title: `${label}: ${x.rule}` }, label);
    b.addEventListener('click', () => p.selectPiece(x.piece, `${label}: ${x.areas.length} area(s) allowed, ${x.rule}. Click a shaded area.`));
    list.append(b);
  }
  box.append(list);
  const sel = tray.find((x) => x.piece === p.selectedUnit);
  box.append(h('p', { class: 'hint', id: 'setup-rule' }, sel ? `${pieceName(sel.piece)} goes ${sel.rule}: ${sel.areas.length} area(s) shaded. Click one, then confirm.` : 'Click a piece, then one of the shaded areas it may go to.'));
  const auto = h('button', { class: 'primary', id: 'setup-auto' }, 'Place the rest automatically');
  auto.addEventListener('click', () => p.act('setup auto'));
  box.append(auto);
  return [box];
}

// The heading over the impulse's choices: the segment from the observation's phase, or the
// hits a battle's loser still has to take.
export function phaseHeading(obs: any): string {
  const phase = String(obs?.phase ?? '');
  const loss = obs?.loss;
  if (loss) return `Battle in ${loss.area}: choose the block that takes each of ${loss.hits} hit(s) (10.14.1)`;
  const pts = obs?.points;
  const names: Record<string, string> = {
    impulse: 'Choose this impulse (6.0)',
    logistics: 'Logistics Phase (7.0)',
    command: 'Command Segment',
    activation: 'HQ Activation Segment (10.1)',
    exploit: 'Exploitation (10.18)',
    replace: `Leader Activation (7.2.2): ${pts?.regeneration ?? 0} Regeneration, ${pts?.replacement ?? 0} Replacement Points left; End draws ${pts?.reinforcements ?? 0} reinforcements`,
    deploy: 'Place the drawn reinforcements (5.0)',
    setup: 'Scenario Setup',
  };
  return names[phase] ?? 'Choices';
}

export function attackText(text: string): string {
  const w = text.split(' ');
  if (w[0] === 'battle') return `Resolve the battle in ${w[1]} (10.12)`;
  if (w[0] === 'artillery') return `Artillery fire by ${w[1]} on ${w[2]} (10.4)`;
  if (w[0] === 'air') return `Airstrike by ${w[1]} on ${w[2]}: ${w[3]} He 111, ${w[4]} Stuka (10.10)`;
  return labelOf(text);
}

const MOVE_WORDS: Record<string, string> = { activate: 'Activate, moving', blitz: 'Blitz', rail: 'Rail-move (14.4)', recall: 'Recall (14.2)', setup: 'Set up' };

export const moscow41: GameUI = {
  id: 'moscow41',
  async loadData(gameId) {
    // The blocks (with maximum strength) are in roster.json, the tracks (months, weather
    // forecast boxes) in tables.json.
    const [roster, tables] = await Promise.all([api.gameData(gameId, 'roster.json').catch(() => undefined), api.gameData(gameId, 'tables.json').catch(() => undefined)]);
    return { counters: counterIndex(undefined, roster), tables } as GameData;
  },
  stacks: blockStacks,
  describe: moscowDescribe,
  // The server names a Defensive Line's placement "setup-dl" (no block): the tray's piece "dl".
  adapt: (a) => (a.verb === 'setup-dl' ? { ...a, verb: 'setup', units: ['dl'] } : a),
  // A battle is dice, not odds (10.12): the dice each side rolls and who fires first; the
  // preview's shifts are dice added or taken away, or notes that change no die.
  shiftText: (n) => (n === 0 ? '' : `${n > 0 ? '+' : ''}${n} ${Math.abs(n) === 1 ? 'die' : 'dice'}`),
  role: (a) => (MOVE_VERBS.includes(a.verb) && a.to.length ? 'move' : ['battle', 'artillery', 'air'].includes(a.verb) && a.to.length ? 'attack' : 'other'),
  moveKind: (a) => (a.verb === 'move' ? undefined : a.verb),
  // "commands" and "combat" end a segment (10.7, 10.11); the bare "pass" chooses the impulse
  // and is never the End button's.
  endVerbs: ['end-phase', 'end', 'done', 'commands', 'combat'],
  endLabel: (text) => (text === 'commands' ? 'To commands' : text === 'combat' ? 'To combat' : labelOf(text)),
  choiceText: (a) => choiceText(a.text),
  // A choice names no block, or reads as more than its words ("hit B"); "dl B" and
  // "activate HQ" are the selected block's own orders; "setup auto" has the tray's button.
  isChoice(a) {
    const w = a.text.split(' ');
    return a.text !== 'setup auto' && (w.length === 1 || choiceText(a.text) !== labelOf(a.text)) && !(w.length === 2 && (w[0] === 'dl' || w[0] === 'activate'));
  },
  phaseHeading: (view) => phaseHeading(view.observation),
  attackText: (a) => attackText(a.text),
  attackButton: (a) => (a.verb === 'battle' ? 'Battle' : a.verb === 'artillery' ? 'Fire' : 'Strike'),
  controlledByFirst(obs, sides) {
    if (!obs?.areas || typeof obs.areas !== 'object') return null;
    return Object.entries(obs.areas)
      .filter(([, a]: [string, any]) => String(a?.control).toLowerCase() === sides[0]?.toLowerCase())
      .map(([k]) => k);
  },
  controlOf: (obs, hex) => (obs?.areas?.[hex]?.control ? cap(String(obs.areas[hex].control)) : undefined),
  supplyNotes: () => [],
  stackNote: () => undefined,
  // 2.2, 10.9, 13.2: the boxes beside the board.
  boxNote(box) {
    const road = box.kind === 'road';
    return {
      short: `${box.name} box${road ? `, Road to Leningrad ${box.id.slice(1)}` : ''}`,
      long: `${box.name}${road ? ` (Road to Leningrad, box ${box.id.slice(1)} of 10; 10.9)` : box.kind === 'kiev' ? ' (no unit may enter; 13.2)' : box.kind === 'rastenburg' ? ' (Hitler only; 2.2)' : ''}`,
    };
  },
  // Weather and the forecast box (8.1).
  weather(obs) {
    if (obs?.weather === undefined) return null;
    const fc = obs.forecast !== undefined ? ` · forecast box ${obs.forecast}` : '';
    return { text: `${weatherIcon(String(obs.weather))} ${cap(String(obs.weather))}${fc}`, title: 'Weather (the forecast box rises each German impulse from October; a roll at or under it changes the weather)', cls: `weather weather-${String(obs.weather).toLowerCase()}` };
  },
  moveWords: (kind, unit) => ({
    heading: kind === 'setup' ? 'Set up' : 'Move',
    verb: MOVE_WORDS[kind ?? ''] ?? 'Move',
    prep: kind === 'setup' ? 'in' : 'to',
    unit: kind === 'setup' && unit === 'dl' ? 'a Defensive Line' : unit ?? '',
  }),
  selectedText(unit, moves) {
    if (!moves.some((m) => m.kind === 'setup')) return undefined;
    return `${pieceName(unit)}: ${new Set(moves.map((m) => m.dest)).size} areas allowed (shaded). Click one to place it there.`;
  },
  battleLine: () => undefined,
  orderSections: setupSection,
  sidePanels: (p, host) => offmapPanel(p, host, host.querySelector('#offmap details')?.hasAttribute('open') ?? true),
};

export function weatherIcon(w: string): string {
  const x = w.toLowerCase();
  if (/snow|frost|winter/.test(x)) return '❄';
  if (/mud|rain/.test(x)) return '☂';
  if (/sun|clear|dry|fair/.test(x)) return '☀';
  return '☁';
}
