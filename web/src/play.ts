// The play page of one seat, assembled from src/play/: the map with counters (mapinput),
// the top bar (topbar), the hex and game panels (panels, the game's own in games/<id>.ts),
// orders with move and combat previews (orders, previews), the legal actions (actions),
// the log (log) and the live updates (connection).
import { api, CatalogGame, SeatView } from './api';
import { GameData } from './games/game';
import { gameUI } from './games/index';
import { MapView } from './mapview';
import { buildMap, MapData } from './model';
import { ensureUnitActions, renderActions } from './play/actions';
import { applyView, act, connect } from './play/connection';
import { PlayContext } from './play/context';
import { renderLog } from './play/log';
import { attachKeyboard, clickHex, hover, overlayBase } from './play/mapinput';
import { renderOrders } from './play/orders';
import { renderGamePanels, renderHexPanel, renderVp } from './play/panels';
import { ensureReach, movePath } from './play/previews';
import { renderTop } from './play/topbar';
import { h } from './svg';

export { announce } from './play/context';
export { labelOf, cap } from './games/game';
export { thinkingText, vpText } from './play/topbar';
export { stepText } from './play/panels';

// The map and the game's data files (through the game's module).
export async function loadMapAndCounters(gameId: string, id: string): Promise<{ map: MapData } & GameData> {
  const [raw, rich, data] = await Promise.all([api.map(id), api.gameData(gameId, 'map.json').catch(() => undefined), gameUI(gameId).loadData(gameId)]);
  return { map: buildMap(raw, rich), ...data };
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
  const game = gameUI(view.game);
  const { map, ...data } = await loadMapAndCounters(view.game, id);

  // Layout.
  const top = h('header', { class: 'topbar' });
  const mapBox = h('div', { class: 'map-box', tabindex: '0', 'aria-label': "Map. Arrow keys or Q E A D Z C move the hex cursor, Enter selects, Escape clears; U jumps to the next unit that can act, ] and [ step through the selected unit's destinations or the attack targets." });
  const side = h('aside', { class: 'sidebar' });
  const confirmBar = h('div', { class: 'confirm-bar', hidden: '' });
  const toast = h('div', { class: 'toast', role: 'status', hidden: '' });
  root.append(top, h('main', { class: 'play-main' }, mapBox, side), confirmBar, toast);
  const el = {
    root,
    top,
    mapBox,
    confirmBar,
    toast,
    hexPanel: h('section', { class: 'panel hex-panel', 'aria-label': 'Hex' }),
    ordersPanel: h('section', { class: 'panel orders-panel', 'aria-label': 'Orders' }),
    actionsPanel: h('section', { class: 'panel actions-panel' }),
    gamePanels: h('div', { class: 'game-panels' }),
    vpPanel: h('section', { class: 'panel vp-panel' }),
    logPanel: h('section', { class: 'panel log-panel' }),
  };
  side.append(el.hexPanel, el.ordersPanel, el.actionsPanel, el.gamePanels, el.vpPanel, el.logPanel);

  let toastTimer = 0;
  const ctx: PlayContext = {
    id,
    token,
    view,
    game,
    data,
    map,
    sides: view.sides.map((s) => s.name),
    places: new Set([...map.areas.map((a) => a.id), ...map.boxes.map((b) => b.id)]),
    scenario: title?.scenarios?.find((s) => s.id === view.scenario),
    stacks: [],
    events: [],
    unitActions: new Map(),
    unitAsked: new Set(),
    sel: { hex: null, unit: null, cursor: null, pendingMove: null, combatTarget: null },
    mv: undefined as unknown as MapView,
    el,
    render,
    renderTop: () => renderTop(ctx),
    renderHexPanel: (hex) => renderHexPanel(ctx, hex),
    applyView: (v) => applyView(ctx, v),
    act: (text) => act(ctx, text),
    showToast(text, kind = 'info') {
      toast.textContent = text;
      toast.className = `toast ${kind}`;
      toast.removeAttribute('hidden');
      clearTimeout(toastTimer);
      toastTimer = window.setTimeout(() => toast.setAttribute('hidden', ''), kind === 'error' ? 7000 : 4000);
    },
  };
  ctx.mv = new MapView(mapBox, map, { onHexClick: (hex) => clickHex(ctx, hex), onHexHover: (hex) => hover(ctx, hex) });

  function render() {
    const { mv, sel } = ctx;
    renderTop(ctx);
    mv.setStacks(ctx.stacks, sel.unit ?? undefined);
    const controlled = game.controlledByFirst(ctx.view.observation ?? {}, ctx.sides);
    if (controlled) mv.setControl(controlled, 0);
    renderGamePanels(ctx);
    ensureUnitActions(ctx);
    ensureReach(ctx);
    mv.setOverlay({ ...overlayBase(ctx), path: sel.pendingMove ? movePath(ctx, sel.pendingMove) : undefined });
    renderHexPanel(ctx, sel.hex ?? sel.cursor);
    renderOrders(ctx);
    renderActions(ctx);
    renderLog(ctx);
  }

  attachKeyboard(ctx);
  // First paint, then live updates.
  const listen = await connect(ctx);
  ctx.applyView(view);
  renderVp(ctx);
  const own = ctx.stacks.find((s) => s.sideIndex === view.side);
  if (own && map.hexes.length > 120) {
    ctx.mv.zoom(0.45);
    ctx.mv.centreOn(own.hex);
  }
  listen();
}
