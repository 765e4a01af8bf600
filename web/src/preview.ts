// Reading the server's combat and movement previews (the `combat ...` and `reach UNIT`
// queries, answered by the game as JSON text) and the timeline's losses, for the play page.

export interface ShiftReason {
  shift: number;
  reason: string;
  rule?: string;
}
export interface CombatPreview {
  attack: number;
  defense: number;
  defenders?: number;
  raw: string;
  rawRule?: string;
  shifts: ShiftReason[];
  totalShift: number;
  final: string;
  finalRule?: string;
  attackers: { unit: string; factor: number; supply?: string }[];
}

function json(text: unknown): any {
  if (typeof text !== 'string') return typeof text === 'object' ? text : null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// The `combat` answer, or null when the game does not give one (older servers, other games).
export function parseCombat(answer: unknown): CombatPreview | null {
  const j = json(answer);
  if (!j || typeof j.attack !== 'number' || typeof j.defense !== 'number' || !Array.isArray(j.shifts)) return null;
  return {
    attack: j.attack,
    defense: j.defense,
    defenders: typeof j.defenders === 'number' ? j.defenders : undefined,
    raw: String(j.raw ?? ''),
    rawRule: j.raw_rule,
    shifts: j.shifts.filter((s: any) => s && typeof s.shift === 'number').map((s: any) => ({ shift: s.shift, reason: String(s.reason ?? ''), rule: s.rule ? String(s.rule) : undefined })),
    totalShift: Number(j.total_shift ?? 0),
    final: String(j.final ?? ''),
    finalRule: j.final_rule,
    attackers: Array.isArray(j.attackers) ? j.attackers.map((a: any) => ({ unit: String(a.unit), factor: Number(a.factor), supply: a.supply })) : [],
  };
}

// "1R" / "2L": a column shift as wargamers write it.
export function shiftText(n: number): string {
  return n === 0 ? '0' : n > 0 ? `${n}R` : `${-n}L`;
}

// One line per shift with its reason and rule ("1L rough terrain §11.14").
export function shiftLines(p: CombatPreview): string[] {
  return p.shifts.map((s) => `${shiftText(s.shift)} ${s.reason}${s.rule ? ` §${s.rule}` : ''}`);
}

// "12 vs 3 = 4:1, shifts 1R → 5:1": the odds, the net shift and the final column.
export function combatSummary(p: CombatPreview): string {
  const auto = /^auto/.test(p.final) ? ` (${p.final === 'auto-DE' ? 'automatic defender eliminated' : 'automatic attacker eliminated'})` : '';
  return `${p.attack} vs ${p.defense} = ${p.raw}${p.rawRule ? ` §${p.rawRule}` : ''}, shifts ${shiftText(p.totalShift)} → final ${p.final}${auto}${p.finalRule ? ` §${p.finalRule}` : ''}`;
}

// The `reach UNIT` answer: MP cost and MP left per reachable hex.
export function parseReach(answer: unknown): { unit: string; mp: number; hexes: Map<string, { cost: number; left: number }> } | null {
  const j = json(answer);
  if (!j || typeof j.hexes !== 'object' || j.hexes === null) return null;
  const hexes = new Map<string, { cost: number; left: number }>();
  for (const [k, v] of Object.entries(j.hexes as Record<string, any>))
    if (v && typeof v.cost === 'number') hexes.set(k, { cost: v.cost, left: Number(v.left ?? 0) });
  return { unit: String(j.unit ?? ''), mp: Number(j.mp ?? 0), hexes };
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
