// The server's JSON API (docs/api.md). Every call resolves to the body or throws ApiError.

export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    public rule?: string,
  ) {
    super(message);
  }
}

async function call(method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['Authorization'] = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let json: any;
  try {
    json = await res.json();
  } catch {
    throw new ApiError(res.status, 'bad_response', `the server answered ${res.status} without JSON`);
  }
  if (!json.ok) {
    const e = json.error ?? {};
    throw new ApiError(res.status, e.code ?? 'error', e.message ?? 'request failed', e.rule);
  }
  return json;
}

export interface ScenarioOption {
  id: string;
  name: string;
  rule: string;
}
export interface ScenarioInfo {
  id: string;
  name: string;
  description: string;
  first_turn: number;
  last_turn: number;
  // Optional rules the players may agree on; chosen ones ride on the scenario id with '+'.
  options?: ScenarioOption[];
}
export interface CatalogGame {
  id: string;
  name: string;
  available: boolean;
  error?: string;
  sides?: string[];
  scenarios?: ScenarioInfo[];
}
export interface SeatInfo {
  side: number;
  name: string;
  kind: 'human' | 'agent';
  agent?: string;
  token?: string;
  join_path?: string;
}
// One legal action: its notation and, from the server's describe(), what it is (verb, the
// units it concerns, where it starts and ends or what it targets, a sentence, its rule).
export interface LegalAction {
  text: string;
  words: string[];
  verb?: string;
  units?: string[];
  from?: string[];
  to?: string[];
  summary?: string;
  rule?: string;
}
export interface LogEvent {
  seq: number;
  kind: string;
  text: string;
  rule: string;
  reveals: boolean;
  action_index: number;
  data?: any;
}
export interface GameInfo {
  id: string;
  game: string;
  game_name: string;
  scenario: string;
  scenario_name: string;
  status: string;
  created: string;
  sides: { side: number; name: string; kind: string; agent: string }[];
  actions_count: number;
  // The dice commitment, and the seed once the game is over (docs/api.md, "Verifiable dice").
  dice?: { commitment: string; seed_from: string; seed?: string };
  current_player?: number;
  current_side?: string;
  result?: any;
  unavailable?: string;
}
export interface SeatView extends GameInfo {
  side: number;
  side_name: string;
  can_undo: boolean;
  your_turn?: boolean;
  observation?: any;
  legal_actions?: LegalAction[];
  // How many legal actions the seat has. When there are too many to send, legal_actions
  // holds only those that concern no unit and legal_units names the units that have some
  // (asked for one by one: api.unitActions).
  legal_count?: number;
  legal_units?: string[];
  legal_truncated?: number;
  log_count: number;
  agent: AgentStatus;
}

// The computer seat's state; while it thinks: time so far, simulations done and the
// iteration budget (0 = time-bounded) and the server's time budget per decision.
export interface AgentStatus {
  thinking: boolean;
  paused: boolean;
  side?: number;
  side_name?: string;
  elapsed_ms?: number;
  agent?: string;
  iterations?: number;
  budget?: number;
  budget_ms?: number;
  error?: string;
}

// What an action would lead to (GET /preview): a combat's strengths, odds, each shift with
// its reason and rule, the final column and the exact outcome distribution.
export interface PreviewShift {
  shift: number;
  reason: string;
  rule?: string;
}
export interface PreviewOutcome {
  result: string;
  probability: number;
  meaning?: string;
  rule?: string;
}
export interface Preview {
  kind: string;
  summary: string;
  attack: number;
  defense: number;
  raw: string;
  final: string;
  rule?: string;
  shifts: PreviewShift[];
  total_shift?: number;
  outcomes: PreviewOutcome[];
  detail?: any;
}
// Where a unit can go now (GET /reach): each destination with its cost and path.
export interface Reach {
  unit: string;
  from: string;
  allowance: number;
  destinations: { location: string; cost: number; path: string[]; note?: string }[];
}

export const api = {
  catalog: () => call('GET', '/api/catalog') as Promise<{ games: CatalogGame[]; agents: string[]; agent_budget_ms?: number }>,
  gameData: (game: string, file: string) => call('GET', `/api/catalog/${game}/data/${file}`).then((r) => r.data),
  catalogMap: (game: string) => call('GET', `/api/catalog/${game}/map`).then((r) => r.map),
  games: () => call('GET', '/api/games').then((r) => r.games as GameInfo[]),
  create: (req: unknown) => call('POST', '/api/games', req) as Promise<{ game: GameInfo; seats: SeatInfo[]; seed?: number }>,
  info: (id: string) => call('GET', `/api/games/${id}`).then((r) => r.game as GameInfo),
  map: (id: string) => call('GET', `/api/games/${id}/map`).then((r) => r.map),
  view: (id: string, token: string) => call('GET', `/api/games/${id}/view`, undefined, token).then((r) => r.view as SeatView),
  act: (id: string, token: string, action: string) =>
    call('POST', `/api/games/${id}/action`, { action }, token) as Promise<{ action: string; view: SeatView }>,
  undo: (id: string, token: string) => call('POST', `/api/games/${id}/undo`, {}, token),
  resign: (id: string, token: string) => call('POST', `/api/games/${id}/resign`, {}, token),
  log: (id: string, token: string, since = 0) =>
    call('GET', `/api/games/${id}/log?since=${since}`, undefined, token) as Promise<{ events: LogEvent[]; count: number }>,
  replay: (id: string, token: string, step: number) => call('GET', `/api/games/${id}/replay?step=${step}`, undefined, token),
  timeline: (id: string, token: string) =>
    call('GET', `/api/games/${id}/timeline`, undefined, token).then((r) => r.points as { step: number; turn?: number; phase?: string; vp?: unknown; losses?: Record<string, { units?: number; steps?: number }> }[]),
  unitActions: (id: string, token: string, unit: string) =>
    call('GET', `/api/games/${id}/actions?unit=${encodeURIComponent(unit)}`, undefined, token).then((r) => r.actions as LegalAction[]),
  preview: (id: string, token: string, action: string) =>
    call('GET', `/api/games/${id}/preview?action=${encodeURIComponent(action)}`, undefined, token).then((r) => r.preview as Preview),
  reach: (id: string, token: string, unit: string) => call('GET', `/api/games/${id}/reach?unit=${encodeURIComponent(unit)}`, undefined, token).then((r) => r.reach as Reach),
  agent: (id: string, token: string, command: 'cancel' | 'resume') => call('POST', `/api/games/${id}/agent`, { command }, token),
};

// An update over the WebSocket: the seat's new view and the events after sequence number
// `from` (each with its seq); `reset` when the server resends the whole log.
export interface SeatUpdate {
  view: SeatView;
  events: LogEvent[];
  from?: number;
  reset?: boolean;
}

// Live updates for one seat, reconnecting after a drop with the last event's sequence
// number (`since`), so that the server sends only what was missed.
export class SeatSocket {
  private ws?: WebSocket;
  private closed = false;
  private retry = 500;
  constructor(
    private id: string,
    private token: string,
    private lastSeq: () => number,
    private onUpdate: (msg: SeatUpdate) => void,
    private onStatus: (connected: boolean) => void,
    private onAgent?: (agent: AgentStatus) => void,
  ) {
    this.open();
  }
  private open() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${this.id}/ws?token=${encodeURIComponent(this.token)}&since=${this.lastSeq()}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      this.onStatus(true);
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'update') this.onUpdate({ ...msg, events: Array.isArray(msg.events) ? msg.events : [] });
      else if (msg.type === 'agent') this.onAgent?.(msg.agent);
    };
    ws.onclose = () => {
      this.onStatus(false);
      if (this.closed) return;
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }
  close() {
    this.closed = true;
    this.ws?.close();
  }
}
