// The state of one seat's play page that its modules share: the seat's view and what the
// player has selected, the map and the game's module, and the page's elements. play.ts
// builds it and wires its functions; each module reads and changes it.
import type { LegalAction, LogEvent, ScenarioInfo, SeatView } from '../api';
import type { Legal } from './actions';
import type { GameData, GameUI } from '../games/game';
import type { MapView } from '../mapview';
import type { MapData, MoveOption, Stack } from '../model';

export interface Selection {
  hex: string | null;
  unit: string | null;
  cursor: string | null;
  pendingMove: MoveOption | null;
  combatTarget: string | null;
}

export interface PlayElements {
  root: HTMLElement;
  top: HTMLElement;
  mapBox: HTMLElement;
  confirmBar: HTMLElement;
  toast: HTMLElement;
  hexPanel: HTMLElement;
  ordersPanel: HTMLElement;
  actionsPanel: HTMLElement;
  gamePanels: HTMLElement;
  vpPanel: HTMLElement;
  logPanel: HTMLElement;
}

export interface PlayContext {
  id: string;
  token: string;
  view: SeatView;
  game: GameUI;
  data: GameData;
  map: MapData;
  sides: string[];
  // An area map's area and box ids (empty on a hex map).
  places: Set<string>;
  scenario?: ScenarioInfo;
  stacks: Stack[];
  events: LogEvent[];
  // Units' actions asked for one by one (the view's legal_units), for the current view.
  unitActions: Map<string, LegalAction[]>;
  unitAsked: Set<string>;
  legalCache?: { view: SeatView; fetched: number; legal: Legal };
  sel: Selection;
  mv: MapView;
  el: PlayElements;
  // Redraws the page from the view and the selection.
  render(): void;
  renderTop(): void;
  renderHexPanel(hex: string | null): void;
  applyView(v: SeatView): void;
  act(text: string): Promise<void>;
  showToast(text: string, kind?: 'info' | 'error'): void;
}

export function announce(text: string) {
  const a = document.getElementById('announce');
  if (a) a.textContent = text;
}
