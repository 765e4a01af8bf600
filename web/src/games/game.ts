// What the play page asks of one game: how to read its observation into counters and
// places, what its actions are (when the server sends only their notation), and what its
// own panels show. The generic UI (src/play/) knows no game's action syntax or observation
// shape; each game's module (bd.ts, moscow41.ts) implements this interface and
// games/index.ts registers it.
import type { LegalAction, Preview, SeatView } from '../api';
import type { CombatPreview } from '../preview';
import type { CounterInfo, MapBox, MapData, Stack } from '../model';

// One legal action as the UI uses it: the server's describe() fields. `to` holds the
// locations a move passes through (its last is the destination) or an attack targets.
export interface ActionInfo {
  text: string;
  verb: string;
  units: string[];
  from: string[];
  to: string[];
  summary?: string;
  rule?: string;
}

// What the UI does with an action: draw it as a move (a destination to click), as an
// attack (a target to click), or list it as a choice.
export type ActionRole = 'move' | 'attack' | 'other';

// An attack made by any set of the units able to make it (BD 11.6), built from the listed
// attacks on one target: the units that may join (the one-unit forms name them), the
// choices that go with any set (BD's Luftwaffe support, combat air drop), and the
// action for a ticked set.
export interface AttackGroup {
  target: string;
  // Each unit that may join, with the location it attacks from, in the listed order.
  units: { unit: string; from: string }[];
  // Choices that go with the attack, in the player's words.
  options: { id: string; label: string; rule?: string }[];
  // The game's words over the panel (BD: what 11.6 allows).
  note?: string;
  // The units and choices of a listed attack (to start from the player's pick), or null
  // when it is not one the group can make.
  parts(text: string): { units: string[]; options: string[] } | null;
  // The action for a ticked set and choices: a listed action when one makes exactly that
  // attack (its canonical notation), else the game's notation naming the units.
  compose(units: string[], options: string[]): string;
}

// A game's data files that its counters and panels read.
export interface GameData {
  counters: Map<string, CounterInfo>;
  calendar?: any;
  tables?: any;
}

// What a game's panels may use of the play page: the seat's view and the page's selection.
export interface PlayHooks {
  view: SeatView;
  map: MapData;
  sides: string[];
  data: GameData;
  stacks: Stack[];
  selectedUnit: string | null;
  // Selects a piece (a unit, or a piece waiting off the map) and redraws.
  selectPiece(piece: string, announcement: string): void;
  act(text: string): void;
}

export interface GameUI {
  id: string;
  // The game's data files (counters, calendar, tracks).
  loadData(gameId: string): Promise<GameData>;
  // Stacks of counters (or blocks) per location in an observation.
  stacks(obs: any, sides: string[], counters: Map<string, CounterInfo>): Stack[];
  // An action the server did not describe (only its notation and words), read from the
  // game's notation. `places` are the map's area and box ids (empty on a hex map).
  describe(a: LegalAction, places: Set<string>): ActionInfo;
  // An action the server described, in the terms role() and the panels use (Moscow '41's
  // "setup-dl" is the set-up tray's piece "dl" going to its area).
  adapt?(a: ActionInfo): ActionInfo;
  role(a: ActionInfo): ActionRole;
  // The words of a move that is not a plain move ("blitz", "setup"), undefined for a plain move.
  moveKind(a: ActionInfo): string | undefined;
  // Verbs that end a phase or segment without choosing anything (the End button).
  endVerbs: string[];
  endLabel(text: string): string;
  // A player's words for a choice button.
  choiceText(a: ActionInfo): string;
  // A choice of the moment that names no unit (listed in the Orders panel).
  isChoice(a: ActionInfo): boolean;
  // Heading over those choices.
  phaseHeading(view: SeatView): string;
  // The top bar's phase chip, where the observation's `phase` is not it (The Dark Valley's
  // chit and round, the A&A-style Barbarossa's step and build points, AGC's numbered phase).
  phaseText?(obs: any): string | undefined;
  // A combat preview's headline (BD: "12 vs 3 = 4:1, shifts 1R → final 5:1"); by default
  // the server's summary.
  previewSummary?(p: CombatPreview, raw: Preview): string;
  // What a preview says of defenders the attacker cannot see.
  unseenNote?(count: number): string;
  // A preview's shift as the game counts it: columns ("1R") or a die modifier ("+1").
  shiftText?(n: number): string;
  // A strike's words and its button ("Attack", "Battle", "Fire").
  attackText(a: ActionInfo): string;
  attackButton(a: ActionInfo): string;
  // The attacks on a target that may be made by any set of their units, where the game
  // allows it (BD 11.6); null where it offers only the listed attacks there.
  attackGroup?(target: string, attacks: ActionInfo[]): AttackGroup | null;
  // The locations the observation marks controlled by the first side (shaded on the map).
  controlledByFirst(obs: any, sides: string[]): string[] | null;
  // Who controls a location, when the observation says.
  controlOf(obs: any, hex: string, sides: string[]): string | undefined;
  // Supply facts of a location beyond the units' own (markers).
  supplyNotes(obs: any, hex: string): string[];
  // Notes under a stack (the game's step rules).
  stackNote(obs: any): string | undefined;
  // A box's description, short (the read-out) and long (the hex panel).
  boxNote(box: MapBox): { short: string; long: string };
  // The top bar's weather chip.
  weather(obs: any, data: GameData): { text: string; title: string; cls: string } | null;
  // The confirm bar and Orders panel's words for a move ("Move 4Pz to 2614", "Set up ...").
  moveWords(kind: string | undefined, unit: string | undefined): { heading: string; verb: string; prep: string; unit: string };
  // The Orders panel's line for a selected piece, when the game has its own (a set-up piece).
  selectedText?(unit: string, moves: { kind?: string; dest: string }[]): string | undefined;
  // What the observation says of a battle under way.
  battleLine(obs: any): string | undefined;
  // Sections of the Orders panel before the moves (a set-up tray).
  orderSections?(p: PlayHooks): HTMLElement[];
  // The game's own side panels (reinforcements, off-map boxes), drawn into `host` in place of what it held.
  sidePanels?(p: PlayHooks, host: HTMLElement): void;
}

// "end-phase" -> "End phase".
export function labelOf(text: string): string {
  const t = text.replace(/-/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
