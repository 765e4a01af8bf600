// The play page of one seat: map with counters, turn/phase/VP, orders (move with
// reachable hexes and path preview, combat with odds preview), legal actions, the
// adjudication log, VP plot, undo / end phase / resign, and a keyboard hex cursor.
import { api, ApiError, CatalogGame, LogEvent, SeatSocket, SeatView } from './api';
import { describeCounter, SIDE_COLORS } from './counters';
import { neighbourId } from './hexgrid';
import { describeHex, MapView } from './mapview';
import { buildMap, classify, counterIndex, CounterInfo, MapData, MoveOption, Stack, stacksOf } from './model';
import { h } from './svg';
import { vpPlot } from './vpplot';

export function announce(text: string) {
  const a = document.getElementById('announce');
  if (a) a.textContent = text;
}

export async function loadMapAndCounters(gameId: string, id: string): Promise<{ map: MapData; counters: Map<string, CounterInfo> }> {
  const [raw, rich, counters] = await Promise.all([
    api.map(id),
    api.gameData(gameId, 'map.json').catch(() => undefined),
    api.gameData(gameId, 'counters.json').catch(() => undefined),
  ]);
  return { map: buildMap(raw, rich), counters: counterIndex(counters) };
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
  const { map: mapData, counters } = await loadMapAndCounters(view.game, id);

  // Layout.
  const top = h('header', { class: 'topbar' });
  const mapBox = h('div', { class: 'map-box', tabindex: '0', 'aria-label': 'Map. Arrow keys or Q E A D Z C move the hex cursor, Enter selects, Escape clears.' });
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
  side.append(hexPanel, ordersPanel, actionsPanel, vpPanel, logPanel);

  const legal = () => classify(view.legal_actions ?? []);
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
      applyView(r.view);
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

  function stackAt(hex: string | null) {
    return hex ? stacks.find((s) => s.hex === hex) : undefined;
  }

  function hexText(hex: string): string {
    const parts = [describeHex(mapData.byId.get(hex), hex)];
    const obs = view.observation ?? {};
    if (Array.isArray(obs.german_controls)) parts.push(obs.german_controls.includes(hex) ? `${sides[0]} controlled` : `${sides[1] ?? 'other'} controlled`);
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
    return { reach, targets, selectedHex: selectedHex ?? undefined, battle: view.observation?.battle?.target };
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
    // An attack target.
    if (legal().attacks.some((a) => a.target === hex)) {
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
      const movers = st.units.filter((u) => legal().moves.some((m) => m.unit === u.label || m.unit === undefined));
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
    const whose = view.status !== 'active' ? `Game ${view.status}` : view.your_turn ? 'Your move' : view.agent?.thinking ? `${cap(view.agent.side_name ?? '')} (computer) is thinking… ${Math.round((view.agent.elapsed_ms ?? 0) / 100) / 10}s` : `${cap(view.current_side ?? '')} to move`;
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
    // Only the bare verb ends a phase: Moscow '41's "pass move B AREA" is a pass that also
    // moves a block, and the button must never play a move the player did not choose.
    const endVerb = (view.legal_actions ?? []).find((a) => a.words.length === 1 && ['end-phase', 'end', 'pass', 'done'].includes(a.words[0]));
    const end = h('button', { id: 'end-phase', class: 'primary' }, endVerb ? labelOf(endVerb.text) : 'End phase');
    if (!endVerb) end.setAttribute('disabled', '');
    end.addEventListener('click', () => {
      if (!endVerb) return;
      const unmoved = new Set(legal().moves.map((m) => m.unit ?? '(unit)'));
      if (legal().moves.length && endVerb.words[0] !== 'pass')
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
        h('span', { class: 'turn', id: 'turn' }, turn !== undefined ? `Turn ${turn}${obs.months ? ` (${obs.months})` : ''}` : ''),
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

  function fitBtn() {
    const b = h('button', { title: 'Show the whole map' }, 'Fit');
    b.addEventListener('click', () => mv.fitAll());
    return b;
  }

  function renderHexPanel(hex: string | null) {
    hexPanel.replaceChildren(h('h3', {}, 'Hex'));
    if (!hex) {
      hexPanel.append(h('p', { class: 'hint' }, 'Hover or tap a hex. Drag to pan, wheel or pinch to zoom.'));
      return;
    }
    const mh = mapData.byId.get(hex);
    const dl = h('dl', { id: 'hex-info' });
    const row = (k: string, v: string) => dl.append(h('dt', {}, k), h('dd', {}, v));
    row('Hex', hex + (mh?.name ? ` ${mh.name}` : ''));
    if (mh) {
      row('Terrain', mh.terrain.replace(/-/g, ' '));
      if (mh.features.length) row('Features', mh.features.join(', '));
      if (mh.country) row('Country', mapData.countries[mh.country]?.name ?? mh.country);
    }
    const obs = view.observation ?? {};
    if (Array.isArray(obs.german_controls)) row('Control', obs.german_controls.includes(hex) ? sides[0] : sides[1] ?? '');
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
        const b = h('button', { class: 'unit-row' + (u.label === selectedUnit ? ' selected' : ''), 'data-unit': u.label, style: `border-left: 6px solid ${SIDE_COLORS[st.sideIndex]}` }, h('strong', {}, u.label), ` ${u.name ?? ''} `, h('span', { class: 'factors' }, u.attack !== undefined ? `${u.attack}-${u.defense}` : ''), u.mp !== undefined ? h('span', { class: 'mp' }, ` ${u.mp} MP`) : null, canMove ? h('span', { class: 'can-move' }, ' can move') : null);
        if (mine)
          b.addEventListener('click', () => {
            selectedUnit = u.label;
            pendingMove = null;
            render();
          });
        stackBox.append(b);
      }
      if (st.count > st.units.length) stackBox.append(h('p', { class: 'hint' }, `${st.count - st.units.length} more unit(s) you cannot see.`));
    }
    hexPanel.append(stackBox);
  }

  function renderOrders() {
    ordersPanel.replaceChildren();
    confirmBar.setAttribute('hidden', '');
    const obs = view.observation ?? {};
    if (obs.battle) {
      const b = obs.battle;
      ordersPanel.append(h('h3', {}, 'Battle'), h('p', { id: 'battle' }, `${b.attacker} ${b.mobile ? 'mobile assault' : 'attack'} on ${b.target}` + (b.odds ? `: odds ${b.odds}, result ${b.result}` : '')));
    }
    if (pendingMove) {
      const m = pendingMove;
      ordersPanel.append(h('h3', {}, 'Move'), h('p', {}, `${m.unit ?? 'Unit'}: ${m.path.join(' → ')}`));
      confirmBar.replaceChildren(
        h('span', {}, `Move ${m.unit ?? ''} to ${m.dest}${mapData.byId.get(m.dest)?.name ? ` (${mapData.byId.get(m.dest)!.name})` : ''}, ${m.path.length} hex${m.path.length === 1 ? '' : 'es'}`),
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
      const n = movesOfSelected().length;
      ordersPanel.append(h('h3', {}, 'Orders'), h('p', { id: 'selected-unit' }, n ? `${selectedUnit}: ${new Set(movesOfSelected().map((m) => m.dest)).size} reachable hexes (shaded). Click one to preview the path.` : `${selectedUnit} cannot move now.`));
    }
    if (combatTarget) {
      const opts = legal().attacks.filter((a) => a.target === combatTarget);
      const box = h('div', { class: 'combat', id: 'combat' }, h('h3', {}, `Attack ${combatTarget}${mapData.byId.get(combatTarget)?.name ? ` (${mapData.byId.get(combatTarget)!.name})` : ''}`));
      const st = stackAt(combatTarget);
      if (st) box.append(h('p', {}, `Defender: ${st.units.map((u) => describeCounter(u)).join('; ')}${st.count > st.units.length ? ` + ${st.count - st.units.length} unseen` : ''}`));
      const ul = h('ul', { class: 'combat-options' });
      for (const o of opts.slice(0, 24)) {
        const odds = h('span', { class: 'odds' }, '…');
        const go = h('button', { class: 'primary' }, 'Attack');
        go.addEventListener('click', () => act(o.text));
        ul.append(h('li', {}, h('code', {}, labelOf(o.text)), odds, go));
        Promise.all([api.query(id, token, `odds ${o.text}`).catch(() => null), api.query(id, token, `shifts ${o.text}`).catch(() => null)]).then(([od, sh]) => {
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

  function renderActions() {
    const all = view.legal_actions ?? [];
    const filter = h('input', { type: 'search', placeholder: 'Filter actions', 'aria-label': 'Filter legal actions', id: 'action-filter' });
    const list = h('ul', { class: 'action-list', id: 'action-list' });
    const fill = () => {
      list.replaceChildren();
      const q = filter.value.toLowerCase();
      const shown = all.filter((a) => a.text.toLowerCase().includes(q)).slice(0, 200);
      for (const a of shown) {
        const b = h('button', { class: 'action', 'data-action': a.text }, labelOf(a.text));
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

  let vpTimer = 0;
  function renderVp() {
    clearTimeout(vpTimer);
    vpTimer = window.setTimeout(async () => {
      try {
        const pts = await api.timeline(id, token);
        vpPanel.replaceChildren(h('h3', {}, 'Victory points'), vpPlot(pts));
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

  // Keyboard: a hex cursor whose contents are read out.
  mapBox.addEventListener('keydown', (e) => {
    const dirs: Record<string, string> = { ArrowLeft: 'W', ArrowRight: 'E', ArrowUp: e.shiftKey ? 'NE' : 'NW', ArrowDown: e.shiftKey ? 'SW' : 'SE', q: 'NW', e: 'NE', a: 'W', d: 'E', z: 'SW', c: 'SE' };
    if (e.key in dirs) {
      e.preventDefault();
      const start = cursor ?? selectedHex ?? stacks.find((s) => s.sideIndex === ownSideIndex())?.hex ?? mapData.hexes[0]?.id;
      if (!start) return;
      const next = cursor ? neighbourId(mapData.grid, start, dirs[e.key], (x) => mapData.byId.has(x)) : start;
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
  );
}

// VP as a number, or per side ({"german": 3, "soviet": 5}).
export function vpText(vp: unknown): string {
  if (vp && typeof vp === 'object') return Object.entries(vp as Record<string, unknown>).map(([k, v]) => `${cap(k)} ${v}`).join(' · ');
  return String(vp);
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// Readable label of an action text ("end-phase" -> "End phase").
export function labelOf(text: string): string {
  const t = text.replace(/-/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}
