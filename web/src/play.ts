// The play page of one seat: map with counters, turn/phase/VP, orders (move with
// reachable hexes and path preview, combat with odds preview), legal actions, the
// adjudication log, VP plot, undo / end phase / resign, and a keyboard hex cursor.
import { AgentStatus, api, ApiError, CatalogGame, LogEvent, SeatSocket, SeatView } from './api';
import { describeCounter, drawCounter, SIDE_COLORS, supplyDescription } from './counters';
import { neighbourId } from './hexgrid';
import { describeHex, MapView } from './mapview';
import { buildMap, choiceText, classify, counterIndex, CounterInfo, END_VERBS, MapData, MoveOption, offMapBoxes, setupTray, Stack, stacksOf } from './model';
import { h, SVG_NS } from './svg';
import { combatSummary, parseCombat, parseReach, shiftLines } from './preview';
import { lossPlot, vpPlot } from './vpplot';

export function announce(text: string) {
  const a = document.getElementById('announce');
  if (a) a.textContent = text;
}

export async function loadMapAndCounters(gameId: string, id: string): Promise<{ map: MapData; counters: Map<string, CounterInfo>; calendar?: any; tables?: any }> {
  const [raw, rich, counters, calendar] = await Promise.all([
    api.map(id),
    api.gameData(gameId, 'map.json').catch(() => undefined),
    api.gameData(gameId, 'counters.json').catch(() => undefined),
    api.gameData(gameId, 'calendar.json').catch(() => undefined),
  ]);
  // Block games keep their blocks (with maximum strength) in roster.json.
  const roster = counters ? undefined : await api.gameData(gameId, 'roster.json').catch(() => undefined);
  // Their tracks (months, weather forecast boxes) are in tables.json.
  const tables = roster ? await api.gameData(gameId, 'tables.json').catch(() => undefined) : undefined;
  return { map: buildMap(raw, rich), counters: counterIndex(counters, roster), calendar, tables };
}

export async function renderPlay(app: HTMLElement, id: string, token: string) {
  const root = h('div', { class: 'play' });
  app.append(root);
  if (!token) {
    root.append(h('p', { class: 'error page-error' }, 'This page needs a seat token: open the join link you were given.'));
    return;
  }
  let view: SeatView;
  try {
    view = await api.view(id, token);
  } catch (e) {
    root.append(h('p', { class: 'error page-error' }, (e as Error).message), h('p', {}, h('a', { href: '/' }, 'Back to the start page')));
    return;
  }
  const catalog = await api.catalog().catch(() => ({ games: [] as CatalogGame[] }));
  const title = catalog.games.find((g) => g.id === view.game);
  const scenario = title?.scenarios?.find((s) => s.id === view.scenario);
  const sides = view.sides.map((s) => s.name);
  const { map: mapData, counters, calendar, tables } = await loadMapAndCounters(view.game, id);
  const areaIds = new Set([...mapData.areas.map((a) => a.id), ...mapData.boxes.map((b) => b.id)]);

  // Layout.
  const top = h('header', { class: 'topbar' });
  const mapBox = h('div', { class: 'map-box', tabindex: '0', 'aria-label': 'Map. Arrow keys or Q E A D Z C move the hex cursor, Enter selects, Escape clears; U jumps to the next unit that can act, ] and [ step through the selected unit\'s destinations or the attack targets.' });
  const side = h('aside', { class: 'sidebar' });
  const confirmBar = h('div', { class: 'confirm-bar', hidden: '' });
  const toast = h('div', { class: 'toast', role: 'status', hidden: '' });
  root.append(top, h('main', { class: 'play-main' }, mapBox, side), confirmBar, toast);

  let events: LogEvent[] = [];
  let stacks: Stack[] = [];
  let selectedHex: string | null = null;
  let selectedUnit: string | null = null;
  let cursor: string | null = null;
  let pendingMove: MoveOption | null = null;
  let combatTarget: string | null = null;
  let logFilter = '';
  let logKind = 'all';
  // The game's MP cost of each hex the selected unit can reach (the `reach UNIT` query),
  // fetched once per unit and position.
  let reachKey = '';
  let reachData: ReturnType<typeof parseReach> = null;

  const mv = new MapView(mapBox, mapData, {
    onHexClick: (hex) => clickHex(hex),
    onHexHover: (hex) => hover(hex),
  });

  // Sidebar sections.
  const hexPanel = h('section', { class: 'panel hex-panel', 'aria-label': 'Hex' });
  const ordersPanel = h('section', { class: 'panel orders-panel', 'aria-label': 'Orders' });
  const actionsPanel = h('section', { class: 'panel actions-panel' });
  const logPanel = h('section', { class: 'panel log-panel' });
  const vpPanel = h('section', { class: 'panel vp-panel' });
  const reinfPanel = h('section', { class: 'panel reinf-panel', 'aria-label': 'Reinforcements', id: 'reinforcements' });
  const offmapPanel = h('section', { class: 'panel offmap-panel', 'aria-label': 'Off-map boxes and tracks', id: 'offmap', hidden: '' });
  side.append(hexPanel, ordersPanel, actionsPanel, offmapPanel, reinfPanel, vpPanel, logPanel);

  const legal = () => classify(view.legal_actions ?? [], areaIds);
  const ownSideIndex = () => view.side;

  function showToast(text: string, kind: 'info' | 'error' = 'info') {
    toast.textContent = text;
    toast.className = `toast ${kind}`;
    toast.removeAttribute('hidden');
    clearTimeout((showToast as any).t);
    (showToast as any).t = setTimeout(() => toast.setAttribute('hidden', ''), kind === 'error' ? 7000 : 4000);
  }

  async function act(text: string) {
    try {
      const r = await api.act(id, token, text);
      pendingMove = null;
      combatTarget = null;
      // The WebSocket may already have brought a newer view (a computer opponent that
      // answered before this response arrived): never go back to an older one.
      if ((r.view.actions_count ?? 0) >= (view.actions_count ?? 0)) applyView(r.view);
      else render();
      announce(`Done: ${r.action}`);
    } catch (e) {
      const err = e as ApiError;
      showToast(`Refused: ${err.message}${err.rule ? ` [${err.rule}]` : ''}`, 'error');
      announce(`Refused: ${err.message}`);
    }
  }

  function applyView(v: SeatView) {
    view = v;
    stacks = stacksOf(v.observation, sides, counters);
    render();
  }

  // Hexes entered by a move (its path may or may not start with the unit's own hex).
  function hexCount(m: MoveOption): number {
    return dedupePath(stackOf(selectedUnit)?.hex, m.path).length - 1;
  }

  function placeName(id: string): string | undefined {
    return mapData.byId.get(id)?.name ?? mapData.areas.find((a) => a.id === id)?.name ?? mapData.boxes.find((b) => b.id === id)?.name;
  }

  function stackAt(hex: string | null) {
    return hex ? stacks.find((s) => s.hex === hex) : undefined;
  }

  function hexText(hex: string): string {
    const area = mapData.areas.find((a) => a.id === hex);
    const box = mapData.boxes.find((b) => b.id === hex);
    const parts = [box ? `${box.name} box${box.kind === 'road' ? `, Road to Leningrad ${box.id.slice(1)}` : ''}` : area ? `Area ${area.id}${area.name ? `, ${area.name}` : ''}, ${area.terrain}${area.features.length ? `, ${area.features.join(', ').replace(/_/g, ' ')}` : ''}` : describeHex(mapData.byId.get(hex), hex)];
    const obs = view.observation ?? {};
    if (Array.isArray(obs.german_controls)) parts.push(obs.german_controls.includes(hex) ? `${sides[0]} controlled` : `${sides[1] ?? 'other'} controlled`);
    const ctl = obs.areas?.[hex]?.control;
    if (ctl) parts.push(`${cap(String(ctl))} controlled`);
    const sup = supplyText(hex);
    if (sup) parts.push(`supply: ${sup}`);
    const st = stackAt(hex);
    if (st) {
      parts.push(`${st.side} stack of ${st.count}: ` + st.units.map((u) => describeCounter(u)).join('; ') + (st.count > st.units.length ? `; ${st.count - st.units.length} hidden` : ''));
    } else parts.push('no units');
    const atk = legal().attacks.filter((a) => a.target === hex).length;
    if (atk) parts.push(`can be attacked (${atk} options)`);
    return parts.join('. ') + '.';
  }

  function hover(hex: string | null) {
    if (pendingMove || !selectedUnit || !hex) {
      if (!selectedHex) renderHexPanel(hex);
      return;
    }
    const m = legal().moves.find((x) => (x.unit === selectedUnit || x.unit === undefined) && x.dest === hex);
    const from = stackOf(selectedUnit)?.hex;
    mv.setOverlay({ ...overlayBase(), path: m ? dedupePath(from, m.path) : undefined });
  }

  // What the observation says about supply at a hex or area: Moscow '41 marks each block
  // isolated or not (and counts isolated hidden enemy blocks); BD marks offensive supply.
  function supplyText(hex: string): string {
    const obs = view.observation ?? {};
    const parts: string[] = [];
    const st = stackAt(hex);
    const others = stacks.filter((s) => s.hex === hex && s !== st);
    for (const s of [st, ...others]) {
      if (!s) continue;
      const known = s.units.filter((u) => u.isolated !== undefined);
      const iso = known.filter((u) => u.isolated).map((u) => u.label);
      if (known.length) parts.push(iso.length ? `${cap(s.side)}: ${iso.join(', ')} isolated` : `${cap(s.side)}: in supply`);
      const named = s.units.filter((u) => u.supply !== undefined);
      // Units with the same state together: "Soviet: 23A, 42A overland supply".
      const groups = new Map<string, string[]>();
      for (const u of named) groups.set(supplyDescription(u), [...(groups.get(supplyDescription(u)) ?? []), u.label]);
      if (named.length) parts.push(`${cap(s.side)}: ` + [...groups].map(([d, l]) => `${l.join(', ')} ${d}`).join('; '));
      if (s.isolatedHidden) parts.push(`${cap(s.side)}: ${s.isolatedHidden} hidden block(s) isolated`);
    }
    const off = obs.markers?.offensive_supply;
    if (Array.isArray(off) && off.some((x: any) => String(x?.hex ?? x) === hex)) parts.push('offensive supply marker');
    const area = mapData.areas.find((a) => a.id === hex);
    if (area?.supply?.length) parts.push(`supply icon (${area.supply.join(", ")})`);
    return parts.join('; ');
  }

  // A label for each destination: its MP cost when the game gives it (BD's `reach`
  // query), else the fewest hexes a legal path takes.
  function costLabels(): Map<string, string> {
    const out = new Map<string, string>();
    if (mapData.areas.length) return out;
    const rd = reachOfSelected();
    if (rd) {
      for (const m of movesOfSelected()) {
        const c = rd.hexes.get(m.dest);
        if (c) out.set(m.dest, `${c.cost} MP`);
      }
      if (out.size) return out;
    }
    const from = stackOf(selectedUnit)?.hex;
    const best = new Map<string, number>();
    for (const m of movesOfSelected()) {
      const n = dedupePath(from, m.path).length - 1;
      if (n > 0 && n < (best.get(m.dest) ?? Infinity)) best.set(m.dest, n);
    }
    for (const [d, n] of best) out.set(d, `${n} hex${n === 1 ? '' : 'es'}`);
    return out;
  }

  function reachOfSelected() {
    return reachData && selectedUnit && reachData.unit === selectedUnit && reachKey === `${selectedUnit}:${view.actions_count}` ? reachData : null;
  }

  // Asks the game for the MP cost of each hex the selected unit can reach (once per unit
  // and position); the map and the orders redraw when the answer comes.
  function ensureReach() {
    if (!selectedUnit || mapData.areas.length || !view.your_turn || !movesOfSelected().length) return;
    const key = `${selectedUnit}:${view.actions_count}`;
    if (key === reachKey) return;
    reachKey = key;
    reachData = null;
    api
      .query(id, token, `reach ${selectedUnit}`)
      .then((a) => {
        if (reachKey !== key) return;
        reachData = parseReach(a);
        if (reachData) render();
      })
      .catch(() => undefined);
  }

  // A unit with something to do now: a move, or an order of its own (Moscow '41's "dl B",
  // "activate HQ").
  function canAct(unit: string): boolean {
    const l = legal();
    return l.moves.some((m) => m.unit === unit || m.unit === undefined) || l.other.some((a) => a.words[1] === unit);
  }

  function stackOf(unit: string | null) {
    return unit ? stacks.find((s) => s.sideIndex === ownSideIndex() && s.units.some((u) => u.label === unit)) : undefined;
  }

  function dedupePath(from: string | undefined, path: string[]) {
    return from && path[0] !== from ? [from, ...path] : path;
  }

  function movesOfSelected() {
    if (!selectedUnit) return [];
    const all = legal().moves;
    const own = all.filter((m) => m.unit === selectedUnit);
    return own.length ? own : all.filter((m) => m.unit === undefined);
  }

  function overlayBase() {
    const reach = new Set(movesOfSelected().map((m) => m.dest));
    const targets = new Set(legal().attacks.map((a) => a.target));
    return { reach, cost: costLabels(), targets, selectedHex: selectedHex ?? undefined, battle: view.observation?.battle?.target };
  }

  function clickHex(hex: string) {
    cursor = hex;
    mv.setCursor(hex);
    // Destination of a selected unit: preview, then confirm.
    if (selectedUnit) {
      const m = movesOfSelected().filter((x) => x.dest === hex);
      if (m.length) {
        pendingMove = m[0];
        render();
        return;
      }
    }
    // An attack target (on an area map where own blocks that can act stand in it too, the
    // first click selects them and a second click on the same area picks the target).
    const ownHere = stacks.some((x) => x.hex === hex && x.sideIndex === ownSideIndex() && x.units.some((u) => canAct(u.label)));
    if (legal().attacks.some((a) => a.target === hex) && (!ownHere || selectedHex === hex)) {
      combatTarget = hex;
      selectedHex = hex;
      pendingMove = null;
      render();
      announce(`Combat against ${hex}. ${hexText(hex)}`);
      return;
    }
    selectedHex = hex;
    pendingMove = null;
    combatTarget = null;
    const st = stackAt(hex);
    if (st && st.sideIndex === ownSideIndex()) {
      const movers = st.units.filter((u) => canAct(u.label));
      selectedUnit = (movers[0] ?? st.units[0])?.label ?? null;
    } else selectedUnit = null;
    render();
    announce(hexText(hex));
  }

  function renderTop() {
    const obs = view.observation ?? {};
    const turn = obs.turn;
    const track = h('ol', { class: 'turn-track', 'aria-label': 'Turn track' });
    if (scenario && scenario.last_turn - scenario.first_turn < 60)
      for (let t = scenario.first_turn; t <= scenario.last_turn; t++)
        track.append(h('li', { class: t === turn ? 'now' : t < turn ? 'past' : '' , title: `Turn ${t}` }, String(t)));
    const whose = view.status !== 'active' ? `Game ${view.status}` : view.your_turn ? 'Your move' : view.agent?.thinking ? `${cap(view.agent.side_name ?? '')} (computer) is thinking… ${thinkingText(view.agent)}` : `${cap(view.current_side ?? '')} to move`;
    const undo = h('button', { id: 'undo', title: 'Take back your last action (not past a die roll)' }, 'Undo');
    if (!view.can_undo) undo.setAttribute('disabled', '');
    undo.addEventListener('click', async () => {
      try {
        const r = await api.undo(id, token);
        applyView(r.view);
        announce(`Undone: ${r.undone}`);
      } catch (e) {
        showToast((e as Error).message, 'error');
      }
    });
    // Only a bare verb that ends a phase or segment: never a choice the player did not make
    // (Moscow '41's "pass" chooses the impulse; its choices are in the Orders panel).
    const endVerb = (view.legal_actions ?? []).find((a) => a.words.length === 1 && END_VERBS.includes(a.words[0]));
    const end = h('button', { id: 'end-phase', class: 'primary', title: endVerb ? choiceText(endVerb.text) : '' }, endVerb ? endLabel(endVerb.text) : 'End phase');
    if (!endVerb) end.setAttribute('disabled', '');
    end.addEventListener('click', () => {
      if (!endVerb) return;
      // Units that could still make a plain move (not an HQ's activation or a blitz).
      const plain = legal().moves.filter((m) => !m.verb);
      const unmoved = new Set(plain.map((m) => m.unit ?? '(unit)'));
      if (plain.length)
        modal(`${unmoved.size} unit${unmoved.size === 1 ? '' : 's'} could still move (${[...unmoved].slice(0, 8).join(', ')}${unmoved.size > 8 ? ', …' : ''}). End the phase anyway?`, 'End phase', () => act(endVerb.text));
      else act(endVerb.text);
    });
    const resign = h('button', { id: 'resign', class: 'danger' }, 'Resign');
    if (view.status !== 'active') resign.setAttribute('disabled', '');
    resign.addEventListener('click', () =>
      modal('Resign this game? Your opponent wins.', 'Resign', async () => {
        try {
          applyView((await api.resign(id, token)).view);
        } catch (e) {
          showToast((e as Error).message, 'error');
        }
      }),
    );
    const agentBtn = view.agent?.thinking
      ? h('button', { id: 'agent-cancel' }, 'Stop computer')
      : view.agent?.paused
        ? h('button', { id: 'agent-resume' }, 'Resume computer')
        : null;
    agentBtn?.addEventListener('click', async () => {
      await api.agent(id, token, view.agent.thinking ? 'cancel' : 'resume').catch((e) => showToast(e.message, 'error'));
      applyView(await api.view(id, token));
    });
    top.replaceChildren(
      h('a', { href: '/', class: 'brand', title: 'Start page' }, 'Steppe'),
      h('div', { class: 'title' }, h('strong', {}, view.game_name), h('span', {}, view.scenario_name)),
      h('span', { class: `side-chip side-${view.side}`, id: 'my-side' }, `You: ${view.side_name}`),
      h('div', { class: 'status-block' },
        h('span', { class: 'turn', id: 'turn' }, turn !== undefined ? `Turn ${turn}${obs.months ? ` (${obs.months})` : obs.month ? ` (${obs.month})` : ''}` : ''),
        weatherChip(),
        obs.phase ? h('span', { class: 'phase', id: 'phase' }, String(obs.phase).replace(/-/g, ' ')) : null,
        obs.vp !== undefined ? h('span', { class: 'vp', id: 'vp' }, `VP ${vpText(obs.vp)}`) : null,
        h('span', { class: 'whose' + (view.your_turn ? ' mine' : ''), id: 'whose' }, whose),
      ),
      track,
      h('div', { class: 'buttons' }, agentBtn, undo, end, resign, h('a', { class: 'button', href: `/replay/${id}?token=${encodeURIComponent(token)}`, target: '_blank' }, 'Replay'), fitBtn()),
    );
    if (view.agent?.error) top.append(h('p', { class: 'error' }, view.agent.error));
    if (view.status !== 'active' && view.result) top.append(h('p', { class: 'result', id: 'result' }, `Result: ${JSON.stringify(view.result)}`));
  }

  // Weather and forecast where the observation carries them (Moscow '41); BD has no
  // weather rules, so its chip gives the calendar's kind of turn (single or double month).
  function weatherChip() {
    const obs = view.observation ?? {};
    if (obs.weather !== undefined) {
      const fc = obs.forecast !== undefined ? ` · forecast box ${obs.forecast}` : '';
      return h('span', { class: `weather weather-${String(obs.weather).toLowerCase()}`, id: 'weather', title: 'Weather (the forecast box rises each German impulse from October; a roll at or under it changes the weather)' }, `${weatherIcon(String(obs.weather))} ${cap(String(obs.weather))}${fc}`);
    }
    const cal = Array.isArray(calendar?.turns) ? calendar.turns.find((t: any) => t.turn === obs.turn) : undefined;
    if (cal?.type) return h('span', { class: 'weather', id: 'weather', title: 'This game has no weather rules; double turns cover two months' }, `${cap(String(cal.type))} turn · no weather rules`);
    return null;
  }

  function fitBtn() {
    const b = h('button', { title: 'Show the whole map' }, 'Fit');
    b.addEventListener('click', () => mv.fitAll());
    return b;
  }

  function renderHexPanel(hex: string | null) {
    hexPanel.replaceChildren(h('h3', {}, 'Hex'));
    if (!hex) {
      hexPanel.append(
        h('p', { class: 'hint' }, 'Hover or tap a hex. Drag to pan, wheel or pinch to zoom.'),
        h('p', { class: 'hint', id: 'keys-hint' }, 'Keyboard: click or Tab to the map, then arrows (or Q E A D Z C) move the cursor, Enter selects or confirms, Esc clears, U jumps to the next unit that can act, ] and [ step through its destinations or the targets, + and - zoom.'),
      );
      return;
    }
    const mh = mapData.byId.get(hex);
    const dl = h('dl', { id: 'hex-info' });
    const row = (k: string, v: string) => dl.append(h('dt', {}, k), h('dd', {}, v));
    if (!areaIds.has(hex)) row('Hex', hex + (mh?.name ? ` ${mh.name}` : ''));
    if (mh) {
      row('Terrain', mh.terrain.replace(/-/g, ' '));
      if (mh.features.length) row('Features', mh.features.join(', '));
      if (mh.country) row('Country', mapData.countries[mh.country]?.name ?? mh.country);
    }
    const obs = view.observation ?? {};
    if (Array.isArray(obs.german_controls)) row('Control', obs.german_controls.includes(hex) ? sides[0] : sides[1] ?? '');
    const box = mapData.boxes.find((b) => b.id === hex);
    if (box) row('Box', `${box.name}${box.kind === 'road' ? ` (Road to Leningrad, box ${box.id.slice(1)} of 10; 10.9)` : box.kind === 'kiev' ? ' (no unit may enter; 13.2)' : box.kind === 'rastenburg' ? ' (Hitler only; 2.2)' : ''}`);
    const area = mapData.areas.find((a) => a.id === hex);
    if (area) {
      row('Area', `${area.id}${area.name ? ` ${area.name}` : ''}`);
      row('Terrain', area.terrain + (area.features.length ? ` (${area.features.join(', ').replace(/_/g, ' ')})` : ''));
    }
    if (obs.areas?.[hex]?.control) row('Control', cap(String(obs.areas[hex].control)));
    const sup = supplyText(hex);
    if (sup) row('Supply', sup);
    const sidesHere = mapData.hexsides.filter((s) => (s.a === hex || s.b === hex) && s.features.length);
    if (sidesHere.length) row('Hexsides', sidesHere.map((s) => `${s.a === hex ? s.b : s.a}: ${s.features.join('/')}`).join('; '));
    hexPanel.append(dl);
    const st = stackAt(hex);
    const stackBox = h('div', { class: 'stack-viewer', id: 'stack-viewer' });
    if (st) {
      stackBox.append(h('h4', {}, `${st.side} stack (${st.count})`));
      for (const u of st.units) {
        const mine = st.sideIndex === ownSideIndex();
        const canMove = mine && legal().moves.some((m) => m.unit === u.label);
        const b = h('button', { class: 'unit-row' + (u.label === selectedUnit ? ' selected' : ''), 'data-unit': u.label, style: `border-left: 6px solid ${SIDE_COLORS[st.sideIndex]}` }, h('strong', {}, u.label), ` ${u.name ?? ''} `, h('span', { class: 'factors' }, u.attack !== undefined && u.defense !== undefined ? `${u.attack}-${u.defense}` : ''), u.steps !== undefined ? h('span', { class: 'steps' }, ` ${stepText(u)}`) : null, u.reduced ? h('span', { class: 'reduced' }, ' reduced') : null, u.isolated ? h('span', { class: 'isolated' }, ' isolated') : null, u.supply !== undefined ? h('span', { class: 'supply' + (u.supply === 'oos' ? ' oos' : ''), 'data-supply': u.supply }, ` · ${supplyDescription(u)}`) : null, u.mf !== undefined ? h('span', { class: 'mf' }, ` · MF ${u.mf}`) : null, u.mp !== undefined && u.mp >= 0 ? h('span', { class: 'mp' }, ` ${u.mp} MP`) : null, u.attachedTo ? h('span', { class: 'attached' }, ` · attached to ${u.attachedTo}`) : null, canMove ? h('span', { class: 'can-move' }, ' can move') : null);
        if (mine)
          b.addEventListener('click', () => {
            selectedUnit = u.label;
            pendingMove = null;
            render();
          });
        stackBox.append(b);
      }
      if (st.count > st.units.length) stackBox.append(h('p', { class: 'hint' }, `${st.count - st.units.length} more unit(s) you cannot see.`));
      // BD: every unit has one step (Old Hands Note to 2.12), so no counter shows a reduced side.
      if (obs.steps_per_unit === 1) stackBox.append(h('p', { class: 'hint steps-note' }, 'Steps: each unit has one step; it is in play or eliminated, never reduced (2.12).'));
    }
    hexPanel.append(stackBox);
  }

  // ", 3 MP (7 left)" for a destination when the game gave the selected unit's costs.
  function moveCostText(dest: string): string {
    const c = reachOfSelected()?.hexes.get(dest);
    return c ? `, ${c.cost} MP (${c.left} left)` : '';
  }

  function renderOrders() {
    ordersPanel.replaceChildren();
    confirmBar.setAttribute('hidden', '');
    const obs = view.observation ?? {};
    if (obs.battle) {
      const b = obs.battle;
      ordersPanel.append(h('h3', {}, 'Battle'), h('p', { id: 'battle' }, `${b.attacker} ${b.mobile ? 'mobile assault' : 'attack'} on ${b.target}` + (b.odds ? `: odds ${b.odds}, result ${b.result}` : '')));
    }
    renderSetupTray(obs);
    if (pendingMove) {
      const m = pendingMove;
      ordersPanel.append(h('h3', {}, m.verb === 'setup' ? 'Set up' : 'Move'), h('p', {}, `${m.unit ?? 'Unit'}: ${dedupePath(stackOf(selectedUnit)?.hex, m.path).join(' → ')}`));
      confirmBar.replaceChildren(
        h('span', { id: 'move-summary' }, `${m.verb === 'activate' ? 'Activate, moving' : m.verb === 'blitz' ? 'Blitz' : m.verb === 'rail' ? 'Rail-move (14.4)' : m.verb === 'recall' ? 'Recall (14.2)' : m.verb === 'setup' ? 'Set up' : 'Move'} ${m.verb === 'setup' && m.unit === 'dl' ? 'a Defensive Line' : m.unit ?? ''} ${m.verb === 'setup' ? 'in' : 'to'} ${m.dest}${placeName(m.dest) ? ` (${placeName(m.dest)})` : ''}${areaIds.has(m.dest) ? '' : `, ${hexCount(m)} hex${hexCount(m) === 1 ? '' : 'es'}`}${moveCostText(m.dest)}`),
        (() => {
          const ok = h('button', { class: 'primary', id: 'confirm-move' }, 'Confirm (Enter)');
          ok.addEventListener('click', () => act(m.text));
          return ok;
        })(),
        (() => {
          const no = h('button', {}, 'Cancel (Esc)');
          no.addEventListener('click', () => {
            pendingMove = null;
            render();
          });
          return no;
        })(),
      );
      confirmBar.removeAttribute('hidden');
    } else if (selectedUnit) {
      const moves = movesOfSelected();
      const n = moves.length;
      const where = areaIds.size ? 'areas' : 'hexes';
      const rd = reachOfSelected();
      const dests = new Set(moves.map((m) => m.dest)).size;
      const placing = moves.some((m) => m.verb === 'setup');
      const text = placing
        ? `${selectedUnit === 'dl' ? 'Defensive Line' : selectedUnit}: ${dests} areas allowed (shaded). Click one to place it there.`
        : n ? `${selectedUnit}: ${dests} reachable ${where} (shaded${rd ? ', each with its MP cost' : ''}).${rd ? ` ${rd.mp} MP to spend.` : ''} Click one to preview the ${areaIds.size ? 'move' : 'path'}.` : `${selectedUnit} cannot move now.`;
      ordersPanel.append(h('h3', {}, 'Orders'), h('p', { id: 'selected-unit' }, text));
    }
    if (view.your_turn && !pendingMove) {
      // Orders of the selected unit that are not moves (a Defensive Line, an HQ activated
      // where it stands), and the choices of the moment that name no unit (Moscow '41's
      // impulse: pass, ti, si, si reinforce).
      const own = selectedUnit ? legal().other.filter((a) => a.words[1] === selectedUnit) : [];
      // (`setup auto` has its own button in the set-up tray.)
      const general = legal().other.filter((a) => !END_VERBS.includes(a.text) && a.text !== 'setup auto' && (a.words.length === 1 || choiceText(a.text) !== labelOf(a.text)) && !(a.words.length === 2 && (a.words[0] === 'dl' || a.words[0] === 'activate')));
      const list = (items: { text: string }[]) => {
        const ul = h('ul', { class: 'choices' });
        for (const a of items.slice(0, 12)) {
          const b = h('button', { class: 'choice', 'data-action': a.text, title: a.text }, choiceText(a.text));
          b.addEventListener('click', () => act(a.text));
          ul.append(h('li', {}, b));
        }
        return ul;
      };
      if (own.length) ordersPanel.append(h('div', { id: 'unit-orders' }, h('h4', {}, `${selectedUnit}: other orders`), list(own)));
      if (general.length && general.length <= 12) ordersPanel.append(h('div', { id: 'choices' }, h('h4', {}, phaseHeading()), list(general)));
    }
    if (combatTarget && areaIds.size) {
      // Area maps (Moscow '41): the battle and its supports, resolved by dice (10.12).
      const opts = legal().attacks.filter((a) => a.target === combatTarget);
      const box = h('div', { class: 'combat', id: 'combat' }, h('h3', {}, `Battle in ${combatTarget}${placeName(combatTarget) ? ` (${placeName(combatTarget)})` : ''}`));
      for (const st of stacks.filter((x) => x.hex === combatTarget))
        box.append(h('p', {}, `${cap(st.side)}: ${st.units.map((u) => `${u.label}${u.steps !== undefined ? ` ${stepText(u)}` : ''}`).join(', ')}${st.count > st.units.length ? `${st.units.length ? ' + ' : ''}${st.count - st.units.length} hidden block(s)` : ''}`));
      const ul = h('ul', { class: 'combat-options' });
      for (const o of opts.slice(0, 24)) {
        const go = h('button', { class: 'primary', 'data-action': o.text }, o.verb === 'battle' ? 'Battle' : o.verb === 'artillery' ? 'Fire' : 'Strike');
        go.addEventListener('click', () => act(o.text));
        ul.append(h('li', {}, h('span', {}, attackText(o.text)), go));
      }
      if (opts.length > 24) ul.append(h('li', { class: 'hint' }, `${opts.length - 24} more in the action list.`));
      box.append(ul);
      ordersPanel.append(box);
    } else if (combatTarget) {
      const opts = legal().attacks.filter((a) => a.target === combatTarget);
      const box = h('div', { class: 'combat', id: 'combat' }, h('h3', {}, `Attack ${combatTarget}${mapData.byId.get(combatTarget)?.name ? ` (${mapData.byId.get(combatTarget)!.name})` : ''}`));
      const st = stackAt(combatTarget);
      if (st) box.append(h('p', {}, `Defender: ${st.units.map((u) => describeCounter(u)).join('; ')}${st.count > st.units.length ? ` + ${st.count - st.units.length} unseen` : ''}`));
      const ul = h('ul', { class: 'combat-options' });
      const unseen = st ? st.count - st.units.length : 0;
      for (const o of opts.slice(0, 24)) {
        const odds = h('span', { class: 'odds' }, '…');
        const detail = h('div', { class: 'combat-detail' });
        const go = h('button', { class: 'primary' }, 'Attack');
        go.addEventListener('click', () => act(o.text));
        ul.append(h('li', {}, h('code', {}, labelOf(o.text)), odds, go, detail));
        // The game's preview: factors, odds, every shift with its reason and rule, and
        // the final column; older answers (odds and net shifts only) as a fallback.
        api
          .query(id, token, `combat ${o.text}`)
          .then((a) => parseCombat(a))
          .catch(() => null)
          .then(async (p) => {
            if (p) {
              odds.textContent = combatSummary(p);
              const lines = shiftLines(p);
              detail.replaceChildren(
                h('ul', { class: 'shift-list' }, ...(lines.length ? lines.map((l) => h('li', {}, l)) : [h('li', {}, 'no column shifts')])),
                p.attackers.length ? h('p', { class: 'hint' }, `Attack factors: ${p.attackers.map((x) => `${x.unit} ${x.factor}${x.supply && x.supply !== 'overland' && x.supply !== 'always' ? ` (${x.supply})` : ''}`).join(', ')}`) : '',
                unseen > 0 ? h('p', { class: 'hint' }, `The defence counts ${unseen} unit(s) you cannot see as a guess; they are revealed when the attack is made (11.7).`) : '',
              );
              return;
            }
            const [od, sh] = await Promise.all([api.query(id, token, `odds ${o.text}`).catch(() => null), api.query(id, token, `shifts ${o.text}`).catch(() => null)]);
            odds.textContent = od ? `odds ${od}${sh && sh !== 'none' ? `, shifts ${sh}` : ''}` : 'odds: n/a';
          });
      }
      if (opts.length > 24) ul.append(h('li', { class: 'hint' }, `${opts.length - 24} more in the action list.`));
      box.append(ul);
      ordersPanel.append(box);
    }
    if (!ordersPanel.childElementCount)
      ordersPanel.append(h('h3', {}, 'Orders'), h('p', { class: 'hint' }, view.your_turn ? 'Select one of your stacks to move it, or a marked enemy hex to attack.' : 'Waiting for the other side.'));
  }

  // Moscow '41's Scenario Setup: the owner's tray of waiting pieces (click one, the areas
  // it may go to are shaded, click one of them, confirm) and a button that places the rest
  // automatically; the other side reads only how many pieces are left (1.5).
  function renderSetupTray(obs: any) {
    if (obs.phase !== 'setup') return;
    const tray = setupTray(obs);
    if (!view.your_turn || !tray.length) {
      const e = obs.enemy_setup;
      if (e) ordersPanel.append(h('div', { class: 'setup-tray', id: 'setup-wait' }, h('h3', {}, 'Scenario Setup'), h('p', {}, `The other side is setting up: ${e.blocks ?? 0} block(s) and ${e.dls ?? 0} Defensive Line(s) left to place.`)));
      return;
    }
    const left = tray.reduce((n, p) => n + p.count, 0);
    const box = h('div', { class: 'setup-tray', id: 'setup-tray' }, h('h3', {}, `Scenario Setup: ${left} piece${left === 1 ? '' : 's'} to place`));
    const list = h('div', { class: 'setup-pieces' });
    for (const p of tray) {
      const label = p.piece === 'dl' ? `Defensive Line${p.count > 1 ? ` ×${p.count}` : ''}` : `${p.piece}${p.strength !== undefined ? ` (${p.strength})` : ''}`;
      const b = h('button', { class: 'setup-piece' + (p.piece === selectedUnit ? ' selected' : ''), 'data-piece': p.piece, title: `${label}: ${p.rule}` }, label);
      b.addEventListener('click', () => {
        selectedUnit = p.piece;
        selectedHex = null;
        pendingMove = null;
        combatTarget = null;
        render();
        announce(`${label}: ${p.areas.length} area(s) allowed, ${p.rule}. Click a shaded area.`);
      });
      list.append(b);
    }
    box.append(list);
    const sel = tray.find((p) => p.piece === selectedUnit);
    box.append(h('p', { class: 'hint', id: 'setup-rule' }, sel ? `${sel.piece === 'dl' ? 'Defensive Line' : sel.piece} goes ${sel.rule}: ${sel.areas.length} area(s) shaded. Click one, then confirm.` : 'Click a piece, then one of the shaded areas it may go to.'));
    const auto = h('button', { class: 'primary', id: 'setup-auto' }, 'Place the rest automatically');
    auto.addEventListener('click', () => act('setup auto'));
    box.append(auto);
    ordersPanel.append(box);
  }

  // "Impulse choice", "Activation segment", ... from the observation's phase.
  function phaseHeading(): string {
    const p = String(view.observation?.phase ?? '');
    const loss = view.observation?.loss;
    if (loss) return `Battle in ${loss.area}: choose the block that takes each of ${loss.hits} hit(s) (10.14.1)`;
    const pts = view.observation?.points;
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
    return names[p] ?? 'Choices';
  }

  function attackText(text: string): string {
    const w = text.split(' ');
    if (w[0] === 'battle') return `Resolve the battle in ${w[1]} (10.12)`;
    if (w[0] === 'artillery') return `Artillery fire by ${w[1]} on ${w[2]} (10.4)`;
    if (w[0] === 'air') return `Airstrike by ${w[1]} on ${w[2]}: ${w[3]} He 111, ${w[4]} Stuka (10.10)`;
    return labelOf(text);
  }

  // Moscow '41's boxes beside the board: the turn and weather forecast tracks, the
  // Initiative Disc and Logistics Value, each side's reinforcement pool, OoB letter boxes
  // and eliminated blocks (own blocks shown, the enemy's hidden ones face down), bombers.
  function renderOffmap() {
    const obs = view.observation ?? {};
    if (!Array.isArray(obs.own)) {
      offmapPanel.setAttribute('hidden', '');
      return;
    }
    offmapPanel.removeAttribute('hidden');
    const wasOpen = offmapPanel.querySelector('details')?.hasAttribute('open') ?? true;
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
    for (const b of offMapBoxes(obs, sides, counters)) {
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
    offmapPanel.replaceChildren(det);
  }

  // A small block as in a box: own (or revealed) blocks drawn like on the map, hidden
  // enemy blocks face down (side colour only).
  function blockChip(sideIndex: number, u: import('./model').Counter | null, title: string): SVGSVGElement {
    const svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('viewBox', '-0.05 -0.05 1.15 1.15');
    svg.setAttribute('class', 'block-chip' + (u ? '' : ' face-down'));
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', title);
    if (u) {
      drawCounter(svg, u, 0.5, 0.5, 1);
      svg.setAttribute('data-unit', u.label);
    } else {
      const r = document.createElementNS(SVG_NS, 'rect');
      for (const [k, v] of Object.entries({ width: '1', height: '1', rx: '0.08', fill: SIDE_COLORS[sideIndex], stroke: '#111', 'stroke-width': '0.04' })) r.setAttribute(k, v);
      svg.append(r);
      const t = document.createElementNS(SVG_NS, 'title');
      t.textContent = title;
      svg.append(t);
    }
    return svg;
  }

  function renderActions() {
    const all = view.legal_actions ?? [];
    const filter = h('input', { type: 'search', placeholder: 'Filter actions', 'aria-label': 'Filter legal actions', id: 'action-filter' });
    const list = h('ul', { class: 'action-list', id: 'action-list' });
    const fill = () => {
      list.replaceChildren();
      const q = filter.value.toLowerCase();
      const shown = all.filter((a) => a.text.toLowerCase().includes(q)).slice(0, 200);
      for (const a of shown) {
        const b = h('button', { class: 'action', 'data-action': a.text, title: choiceText(a.text) }, labelOf(a.text));
        b.addEventListener('click', () => act(a.text));
        list.append(h('li', {}, b));
      }
      if (all.length > shown.length) list.append(h('li', { class: 'hint' }, `${all.length - shown.length} more; filter to find them.`));
    };
    filter.addEventListener('input', fill);
    fill();
    actionsPanel.replaceChildren(h('details', { open: '' }, h('summary', {}, `Legal actions (${all.length}${view.legal_truncated ? ` of ${view.legal_truncated}` : ''})`), filter, list));
  }

  function renderLog() {
    const kinds = ['all', ...new Set(events.map((e) => e.kind))];
    const sel = h('select', { 'aria-label': 'Show events of kind', id: 'log-kind' });
    for (const k of kinds) sel.append(h('option', { value: k }, k));
    sel.value = kinds.includes(logKind) ? logKind : 'all';
    const q = h('input', { type: 'search', placeholder: 'Search the log', 'aria-label': 'Search the log', value: logFilter });
    const ol = h('ol', { class: 'log', id: 'log', 'aria-live': 'polite' });
    const fill = () => {
      logKind = sel.value;
      logFilter = q.value;
      ol.replaceChildren();
      const shown = events.filter((e) => (logKind === 'all' || e.kind === logKind) && e.text.toLowerCase().includes(logFilter.toLowerCase()));
      for (const e of shown.slice(-300))
        ol.append(h('li', { class: `ev ev-${e.kind}` + (e.reveals ? ' reveals' : '') }, h('span', { class: 'kind' }, e.kind), ` ${e.text} `, e.rule ? h('span', { class: 'rule', title: 'Rule section' }, `§${e.rule}`) : null));
      ol.scrollTop = ol.scrollHeight;
    };
    sel.addEventListener('change', fill);
    q.addEventListener('input', fill);
    logPanel.replaceChildren(h('h3', {}, `Log (${events.length})`), h('div', { class: 'log-filters' }, sel, q), ol);
    fill();
  }

  // Units arriving on later turns: BD's boxes.<side>.trrt ({unit, turn}), the viewer's
  // side only (the server sends no other side's queue it may not see).
  function renderReinforcements() {
    const obs = view.observation ?? {};
    const mine = obs.boxes?.[obs.viewer ?? view.side_name?.toLowerCase()] ?? obs.boxes?.[view.side_name];
    const queue: { unit: string; turn: number }[] = Array.isArray(mine?.trrt) ? mine.trrt.filter((r: any) => r && r.unit !== undefined) : [];
    if (!queue.length) {
      reinfPanel.replaceChildren();
      reinfPanel.setAttribute('hidden', '');
      return;
    }
    reinfPanel.removeAttribute('hidden');
    const byTurn = new Map<number, string[]>();
    for (const r of queue) byTurn.set(Number(r.turn), [...(byTurn.get(Number(r.turn)) ?? []), String(r.unit)]);
    const turns = [...byTurn.keys()].sort((a, b) => a - b);
    const months = (t: number) => (Array.isArray(calendar?.turns) ? calendar.turns.find((c: any) => c.turn === t)?.months : undefined);
    const dl = h('dl', { class: 'reinf-list' });
    for (const t of turns) {
      const units = byTurn.get(t)!;
      const chips = units.map((u) => {
        const info = counters.get(`${String(obs.viewer ?? '').toLowerCase()}:${u}`) ?? counters.get(`*:${u}`);
        const title = [info?.name, info?.type?.replace(/-/g, ' '), info?.attack !== undefined ? `${info.attack}-${info.defense}` : ''].filter(Boolean).join(', ');
        return h('span', { class: 'reinf-unit', title: title || u, 'data-unit': u }, u);
      });
      dl.append(h('dt', { class: t === Number(obs.turn) + 1 ? 'next' : '' }, `Turn ${t}${months(t) ? ` (${months(t)})` : ''}`), h('dd', {}, ...chips));
    }
    reinfPanel.replaceChildren(
      h('details', { open: '' }, h('summary', {}, `Reinforcements (${queue.length} unit${queue.length === 1 ? '' : 's'})`), dl),
    );
  }

  let vpTimer = 0;
  function renderVp() {
    clearTimeout(vpTimer);
    vpTimer = window.setTimeout(async () => {
      try {
        const pts = await api.timeline(id, token);
        vpPanel.replaceChildren(h('h3', {}, 'Victory points'), vpPlot(pts));
        // Losses where the game reports them (BD's eliminations).
        if (pts.some((p) => p.losses)) vpPanel.append(h('h3', {}, 'Losses per turn (steps)'), lossPlot(pts));
      } catch {
        vpPanel.replaceChildren();
      }
    }, 300);
  }

  function render() {
    renderTop();
    mv.setStacks(stacks, selectedUnit ?? undefined);
    const obs = view.observation ?? {};
    if (Array.isArray(obs.german_controls)) mv.setControl(obs.german_controls, 0);
    else if (obs.areas && typeof obs.areas === 'object')
      mv.setControl(Object.entries(obs.areas).filter(([, a]: [string, any]) => String(a?.control).toLowerCase() === sides[0]?.toLowerCase()).map(([k]) => k), 0);
    renderReinforcements();
    renderOffmap();
    ensureReach();
    mv.setOverlay({ ...overlayBase(), path: pendingMove ? dedupePath(stackOf(selectedUnit)?.hex, pendingMove.path) : undefined });
    renderHexPanel(selectedHex ?? cursor);
    renderOrders();
    renderActions();
    renderLog();
  }

  function modal(text: string, okLabel: string, onOk: () => void) {
    const dlg = h('div', { class: 'modal-back', role: 'dialog', 'aria-modal': 'true', 'aria-label': okLabel });
    const ok = h('button', { class: 'primary', id: 'modal-ok' }, okLabel);
    const cancel = h('button', {}, 'Cancel');
    dlg.append(h('div', { class: 'modal' }, h('p', {}, text), h('div', { class: 'buttons' }, cancel, ok)));
    document.body.append(dlg);
    ok.focus();
    ok.addEventListener('click', () => {
      dlg.remove();
      onOk();
    });
    cancel.addEventListener('click', () => dlg.remove());
  }

  // Area maps: the connected area lying closest to a compass direction (W, NE, ...).
  function areaNeighbour(from: string, dir: string): string | null {
    const angle: Record<string, number> = { E: 0, NE: -60, NW: -120, W: 180, SW: 120, SE: 60 };
    const a = mv.centre(from);
    if (!a) return null;
    const want = ((angle[dir] ?? 0) * Math.PI) / 180;
    let best: string | null = null;
    let bestScore = -Infinity;
    // Connected areas, and for the off-map boxes (which few connections reach) whatever
    // area or box lies near.
    const near = (id: string) => {
      const c = mv.centre(id);
      return !!c && Math.hypot(c.x - a.x, c.y - a.y) < 12;
    };
    const boxIds = new Set(mapData.boxes.map((x) => x.id));
    const candidates = [
      ...mapData.connections.map((c) => (c.a === from ? c.b : c.b === from ? c.a : null)),
      ...(boxIds.has(from) ? [...areaIds] : [...boxIds]).filter((x) => x !== from && near(x)),
    ];
    for (const other of candidates) {
      const b = other ? mv.centre(other) : null;
      if (!other || !b) continue;
      const score = Math.cos(Math.atan2(b.y - a.y, b.x - a.x) - want);
      if (score > bestScore && score > 0.3) {
        bestScore = score;
        best = other;
      }
    }
    return best;
  }

  // Keyboard: a hex cursor whose contents are read out.
  mapBox.addEventListener('keydown', (e) => {
    const dirs: Record<string, string> = { ArrowLeft: 'W', ArrowRight: 'E', ArrowUp: e.shiftKey ? 'NE' : 'NW', ArrowDown: e.shiftKey ? 'SW' : 'SE', q: 'NW', e: 'NE', a: 'W', d: 'E', z: 'SW', c: 'SE' };
    if (e.key in dirs) {
      e.preventDefault();
      const start = cursor ?? selectedHex ?? stacks.find((s) => s.sideIndex === ownSideIndex() && mv.centre(s.hex))?.hex ?? mapData.hexes[0]?.id ?? mapData.areas[0]?.id;
      if (!start) return;
      const next = cursor ? (areaIds.size ? areaNeighbour(start, dirs[e.key]) : neighbourId(mapData.grid, start, dirs[e.key], (x) => mapData.byId.has(x))) : start;
      if (!next) {
        announce('Edge of the map.');
        return;
      }
      cursor = next;
      mv.setCursor(next, true);
      if (!selectedHex) renderHexPanel(next);
      if (selectedUnit) hover(next);
      announce(hexText(next));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (pendingMove) act(pendingMove.text);
      else if (cursor) clickHex(cursor);
    } else if (e.key === 'Escape') {
      pendingMove = null;
      combatTarget = null;
      selectedUnit = null;
      selectedHex = null;
      render();
      announce('Selection cleared.');
    } else if (e.key === 'u' || e.key === 'U') {
      // The next own stack with a unit that can act: select it.
      e.preventDefault();
      const here = [...new Set(stacks.filter((s) => s.sideIndex === ownSideIndex() && s.units.some((u) => canAct(u.label))).map((s) => s.hex))];
      if (!here.length) {
        announce('No unit of yours can act now.');
        return;
      }
      const next = here[(here.indexOf(cursor ?? '') + (e.key === 'U' ? here.length - 1 : 1)) % here.length];
      selectedUnit = null;
      selectedHex = null;
      clickHex(next);
      mv.setCursor(next, true);
    } else if (e.key === ']' || e.key === '[') {
      // Step through the selected unit's destinations, else through the attack targets.
      e.preventDefault();
      const dests = selectedUnit ? [...new Set(movesOfSelected().map((m) => m.dest))] : [];
      const list = dests.length ? dests : [...new Set(legal().attacks.map((a) => a.target))];
      if (!list.length) {
        announce(selectedUnit ? `${selectedUnit} cannot move now.` : 'Nothing to attack.');
        return;
      }
      const i = list.indexOf(cursor ?? '');
      const next = list[i < 0 ? (e.key === ']' ? 0 : list.length - 1) : (i + (e.key === ']' ? 1 : list.length - 1)) % list.length];
      cursor = next;
      mv.setCursor(next, true);
      if (dests.length) hover(next);
      else if (!selectedHex) renderHexPanel(next);
      announce(`${dests.length ? `Destination ${list.indexOf(next) + 1} of ${list.length}` : `Target ${list.indexOf(next) + 1} of ${list.length}`}: ${hexText(next)} Enter ${dests.length ? 'previews the move' : 'chooses it'}.`);
    } else if (e.key === '+' || e.key === '=') mv.zoom(0.8);
    else if (e.key === '-') mv.zoom(1.25);
  });
  document.addEventListener('keydown', (e) => {
    if (e.target === mapBox || (e.target as HTMLElement).tagName === 'INPUT') return;
    if (e.key === 'Enter' && pendingMove) act(pendingMove.text);
    if (e.key === 'Escape' && pendingMove) {
      pendingMove = null;
      render();
    }
  });

  // First paint, then live updates.
  events = (await api.log(id, token).catch(() => ({ events: [] as LogEvent[] }))).events;
  applyView(view);
  renderVp();
  const own = stacks.find((s) => s.sideIndex === ownSideIndex());
  if (own && mapData.hexes.length > 120) {
    mv.zoom(0.45);
    mv.centreOn(own.hex);
  }
  new SeatSocket(
    id,
    token,
    (msg) => {
      if (msg.reset) events = msg.events;
      else events = events.concat(msg.events);
      for (const e of msg.events) if ((e.kind === 'roll' || e.kind === 'combat') && !msg.reset) showToast(`${e.text}${e.rule ? ` (§${e.rule})` : ''}`);
      applyView(msg.view);
      if (msg.events.length) renderVp();
    },
    (up) => root.classList.toggle('offline', !up),
    (agent) => {
      // Progress ticks while the computer thinks: only the top bar changes.
      if (!view.agent?.thinking || !agent.thinking) return;
      view = { ...view, agent };
      renderTop();
    },
  );
}

// "2.1s of 5s · 340/1000 simulations": the time and, for a search, how far it got.
export function thinkingText(a: AgentStatus): string {
  const secs = (ms: number) => `${Math.round(ms / 100) / 10}s`;
  let t = secs(a.elapsed_ms ?? 0);
  if (a.budget_ms) t += ` of ${secs(a.budget_ms)}`;
  if (a.iterations) t += ` · ${a.iterations}${a.budget ? `/${a.budget}` : ''} simulations`;
  return t;
}

// VP as a number, or per side ({"german": 3, "soviet": 5}).
export function vpText(vp: unknown): string {
  if (vp && typeof vp === 'object') return Object.entries(vp as Record<string, unknown>).map(([k, v]) => `${cap(k)} ${v}`).join(' · ');
  return String(vp);
}

export function weatherIcon(w: string): string {
  const x = w.toLowerCase();
  if (/snow|frost|winter/.test(x)) return '❄';
  if (/mud|rain/.test(x)) return '☂';
  if (/sun|clear|dry|fair/.test(x)) return '☀';
  return '☁';
}

// A block's strength as steps: "3/4 steps".
export function stepText(u: { steps?: number; maxSteps?: number }): string {
  if (u.steps === undefined) return '';
  return u.maxSteps !== undefined ? `${u.steps}/${u.maxSteps} steps` : `${u.steps} steps`;
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// The End button's label: what it ends, and where play goes next.
export function endLabel(text: string): string {
  if (text === 'commands') return 'To commands';
  if (text === 'combat') return 'To combat';
  return labelOf(text);
}

// Readable label of an action text ("end-phase" -> "End phase").
export function labelOf(text: string): string {
  const t = text.replace(/-/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}
