// Reading the server's previews (GET /preview: a combat's odds, shifts, final column and
// outcome distribution; GET /reach: each destination's cost and path) and the timeline's
// losses, for the play page.
import type { Preview, Reach } from './api';

export interface ShiftReason {
  shift: number;
  reason: string;
  rule?: string;
}
export interface Outcome {
  result: string;
  probability: number;
  meaning?: string;
  rule?: string;
}
export interface CombatPreview {
  attack: number;
  defense: number;
  raw: string;
  shifts: ShiftReason[];
  totalShift: number;
  final: string;
  rule?: string;
  outcomes: Outcome[];
  attackers: { unit: string; factor: number; supply?: string }[];
}

// A combat preview as the page shows it, or null when the answer is not one (another kind
// of preview, or a malformed answer).
export function parseCombat(p: Preview | null | undefined): CombatPreview | null {
  if (!p || typeof p !== 'object' || typeof p.attack !== 'number' || typeof p.defense !== 'number' || !Array.isArray(p.shifts)) return null;
  const shifts = p.shifts.filter((s) => s && typeof s.shift === 'number').map((s) => ({ shift: s.shift, reason: String(s.reason ?? ''), rule: s.rule ? String(s.rule) : undefined }));
  const attackers = Array.isArray(p.detail?.attackers) ? p.detail.attackers.map((a: any) => ({ unit: String(a.unit), factor: Number(a.factor), supply: a.supply })) : [];
  return {
    attack: p.attack,
    defense: p.defense,
    raw: String(p.raw ?? ''),
    shifts,
    totalShift: typeof p.total_shift === 'number' ? p.total_shift : shifts.reduce((n, s) => n + s.shift, 0),
    final: String(p.final ?? ''),
    rule: p.rule ? String(p.rule) : undefined,
    outcomes: (Array.isArray(p.outcomes) ? p.outcomes : [])
      .filter((o) => o && typeof o.probability === 'number')
      .map((o) => ({ result: String(o.result), probability: o.probability, meaning: o.meaning || undefined, rule: o.rule || undefined })),
    attackers,
  };
}

// "1R" / "2L": a column shift as wargamers write it.
export function shiftText(n: number): string {
  return n === 0 ? '0' : n > 0 ? `${n}R` : `${-n}L`;
}

// One line per shift with its reason and rule ("1L rough terrain §11.14"); `word` writes
// the shift as the game counts it (columns by default), '' for a note that shifts nothing.
export function shiftLines(p: CombatPreview, word: (n: number) => string = shiftText): string[] {
  return p.shifts.map((s) => [word(s.shift), `${s.reason}${s.rule ? ` §${s.rule}` : ''}`].filter(Boolean).join(' '));
}

// "12 vs 3 = 4:1, shifts 1R → final 5:1 §11.11": the odds, the net shift, the final column
// and the table's rule.
export function combatSummary(p: CombatPreview): string {
  const auto = /^auto/.test(p.final) ? ` (${p.final === 'auto-DE' ? 'automatic defender eliminated' : 'automatic attacker eliminated'})` : '';
  return `${p.attack} vs ${p.defense} = ${p.raw}, shifts ${shiftText(p.totalShift)} → final ${p.final}${auto}${p.rule ? ` §${p.rule}` : ''}`;
}

// "37%": a probability as a whole percentage, or one decimal below 1%.
export function percent(p: number): string {
  const x = p * 100;
  return x > 0 && x < 1 ? `${x.toFixed(1)}%` : `${Math.round(x)}%`;
}

// The results of a combat, most likely first.
export function outcomeRows(p: CombatPreview): { result: string; percent: string; width: number; meaning: string; rule?: string }[] {
  return [...p.outcomes]
    .sort((a, b) => b.probability - a.probability)
    .map((o) => ({ result: o.result, percent: percent(o.probability), width: Math.max(0, Math.min(100, o.probability * 100)), meaning: o.meaning ?? '', rule: o.rule }));
}

export interface ReachInfo {
  unit: string;
  mp: number;
  hexes: Map<string, { cost: number; left: number; path: string[]; note?: string }>;
}

// The reach answer: MP cost, MP left and path per destination.
export function parseReach(r: Reach | null | undefined): ReachInfo | null {
  if (!r || typeof r !== 'object' || !Array.isArray(r.destinations)) return null;
  const mp = Number(r.allowance ?? 0);
  const hexes = new Map<string, { cost: number; left: number; path: string[]; note?: string }>();
  for (const d of r.destinations)
    if (d && typeof d.cost === 'number') hexes.set(String(d.location), { cost: d.cost, left: mp - d.cost, path: Array.isArray(d.path) ? d.path.map(String) : [], note: d.note || undefined });
  return { unit: String(r.unit ?? ''), mp, hexes };
}

export interface TimelinePoint {
  step: number;
  turn?: number;
  losses?: Record<string, { units?: number; steps?: number }>;
}

// Losses in each turn per side, from the timeline's running totals: what was lost by the
// end of a turn minus what was lost by the end of the turn before.
export function lossesPerTurn(points: TimelinePoint[]): { sides: string[]; turns: { turn: number; units: Record<string, number>; steps: Record<string, number> }[] } {
  const sides: string[] = [];
  for (const p of points) for (const k of Object.keys(p.losses ?? {})) if (!sides.includes(k)) sides.push(k);
  if (!sides.length) return { sides, turns: [] };
  const endOf = new Map<number, TimelinePoint>();
  const order: number[] = [];
  for (const p of points) {
    if (p.turn === undefined || !p.losses) continue;
    if (!endOf.has(p.turn)) order.push(p.turn);
    endOf.set(p.turn, p);
  }
  const turns = [];
  let prevU: Record<string, number> = Object.fromEntries(sides.map((s) => [s, 0]));
  let prevS: Record<string, number> = { ...prevU };
  for (const t of order) {
    const p = endOf.get(t)!;
    const units: Record<string, number> = {};
    const steps: Record<string, number> = {};
    const nowU: Record<string, number> = {};
    const nowS: Record<string, number> = {};
    for (const s of sides) {
      nowU[s] = Number(p.losses?.[s]?.units ?? prevU[s]);
      nowS[s] = Number(p.losses?.[s]?.steps ?? prevS[s]);
      units[s] = nowU[s] - prevU[s];
      steps[s] = nowS[s] - prevS[s];
    }
    turns.push({ turn: t, units, steps });
    prevU = nowU;
    prevS = nowS;
  }
  return { sides, turns };
}
