// The one place where the browser UI learns which games have a module of their own. A
// game without one is drawn from its flat unit list, and its actions are listed as
// choices by their notation (the server's describe() fields, when it gives them, still
// place moves and attacks on the map).
import { api } from '../api';
import { counterIndex, flatStacks } from '../model';
import { aa } from './aa';
import { agc } from './agc';
import { bd } from './bd';
import { dv } from './dv';
import { ActionInfo, GameUI, labelOf } from './game';
import { moscow41 } from './moscow41';

const GAMES: Record<string, GameUI> = { bd, moscow41, dv, aa, agc };

// A game the UI has no module for: nothing read from its notation.
export function genericGame(id: string): GameUI {
  return {
    id,
    async loadData(gameId) {
      return { counters: counterIndex(await api.gameData(gameId, 'counters.json').catch(() => undefined)) };
    },
    stacks: flatStacks,
    describe: (a) => ({ text: a.text, verb: a.words[0] ?? '', units: [], from: [], to: [] }),
    role: (a) => (a.verb === 'move' && a.to.length ? 'move' : a.verb === 'attack' && a.to.length ? 'attack' : 'other'),
    moveKind: (a) => (a.verb === 'move' ? undefined : a.verb),
    endVerbs: ['end-phase', 'end', 'done'],
    endLabel: labelOf,
    choiceText: (a: ActionInfo) => a.summary && a.summary !== a.text ? a.summary : labelOf(a.text),
    isChoice: (a) => !a.units.length,
    phaseHeading: () => 'Choices',
    attackText: (a) => a.summary ?? labelOf(a.text),
    attackButton: () => 'Attack',
    controlledByFirst: () => null,
    controlOf: () => undefined,
    supplyNotes: () => [],
    stackNote: () => undefined,
    boxNote: (box) => ({ short: `${box.name} box`, long: box.name }),
    weather: () => null,
    moveWords: (kind, unit) => ({ heading: 'Move', verb: kind ? labelOf(kind) : 'Move', prep: 'to', unit: unit ?? '' }),
    battleLine: () => undefined,
  };
}

export function gameUI(id: string): GameUI {
  return GAMES[id] ?? genericGame(id);
}
