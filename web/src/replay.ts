// Replay viewer: steps through a game's log as this seat saw it (its observation after
// each action and the events it was shown).
import { api, LogEvent, SeatView } from './api';
import { describeCounter } from './counters';
import { MapView } from './mapview';
import { gameUI } from './games/index';
import { announce, labelOf, loadMapAndCounters, vpText } from './play';
import { h } from './svg';
import { lossPlot, vpPlot } from './vpplot';

export async function renderReplay(app: HTMLElement, id: string, token: string) {
  const root = h('div', { class: 'play replay' });
  app.append(root);
  let view: SeatView;
  try {
    view = await api.view(id, token);
  } catch (e) {
    root.append(h('p', { class: 'error page-error' }, (e as Error).message));
    return;
  }
  const sides = view.sides.map((s) => s.name);
  const { map, counters } = await loadMapAndCounters(view.game, id);
  const total = view.actions_count;
  const top = h('header', { class: 'topbar' });
  const mapBox = h('div', { class: 'map-box', tabindex: '0' });
  const side = h('aside', { class: 'sidebar' });
  root.append(top, h('main', { class: 'play-main' }, mapBox, side));
  const mv = new MapView(mapBox, map);

  const slider = h('input', { type: 'range', min: '0', max: String(total), value: String(total), id: 'replay-step', 'aria-label': 'Step' });
  const stepLabel = h('span', { class: 'step-label', id: 'step-label' });
  const prev = h('button', { 'aria-label': 'Previous step' }, '◀');
  const next = h('button', { 'aria-label': 'Next step' }, '▶');
  const play = h('button', { class: 'primary', id: 'replay-play' }, 'Play');
  top.append(
    h('a', { href: '/', class: 'brand' }, 'Steppe'),
    h('div', { class: 'title' }, h('strong', {}, `Replay: ${view.game_name}`), h('span', {}, `${view.scenario_name}, seen by ${view.side_name}`)),
    h('div', { class: 'replay-controls' }, prev, slider, next, play, stepLabel),
    h('a', { class: 'button', href: `/play/${id}?token=${encodeURIComponent(token)}` }, 'Back to the game'),
  );
  const info = h('section', { class: 'panel' });
  const evPanel = h('section', { class: 'panel log-panel' });
  const vpPanel = h('section', { class: 'panel vp-panel' });
  side.append(info, vpPanel, evPanel);
  const points = await api.timeline(id, token).catch(() => []);

  let step = total;
  let timer = 0;
  let seq = 0;
  async function show(s: number) {
    step = Math.max(0, Math.min(total, s));
    slider.value = String(step);
    const my = ++seq;
    const r = await api.replay(id, token, step);
    if (my !== seq) return;
    const obs = r.observation ?? {};
    const stacks = gameUI(view.game).stacks(obs, sides, counters);
    mv.setStacks(stacks);
    if (Array.isArray(obs.german_controls)) mv.setControl(obs.german_controls, 0);
    mv.setOverlay({ battle: obs.battle?.target });
    stepLabel.textContent = `Step ${step} of ${total}` + (obs.turn !== undefined ? `, turn ${obs.turn}` : '') + (obs.phase ? `, ${String(obs.phase).replace(/-/g, ' ')}` : '') + (obs.vp !== undefined ? `, VP ${vpText(obs.vp)}` : '');
    info.replaceChildren(
      h('h3', {}, step === 0 ? 'Start of the game' : `Action ${step}`),
      step > 0 ? h('p', { id: 'replay-action' }, r.action ? `${sides[r.action_side]}: ${labelOf(r.action)}` : `${sides[r.action_side] ?? ''} acted`) : h('p', {}, 'Set-up.'),
      h('p', { class: 'hint' }, `${stacks.length} stacks on the map. ` + stacks.slice(0, 4).map((s) => `${s.hex}: ${s.units.map((u) => describeCounter(u)).join(', ')}`).join('; ')),
    );
    const ol = h('ol', { class: 'log', id: 'replay-events' });
    for (const e of r.events as LogEvent[]) ol.append(h('li', { class: `ev ev-${e.kind}` }, h('span', { class: 'kind' }, e.kind), ` ${e.text} `, e.rule ? h('span', { class: 'rule' }, `§${e.rule}`) : null));
    if (!r.events.length) ol.append(h('li', { class: 'hint' }, 'No events you could see.'));
    evPanel.replaceChildren(h('h3', {}, 'What happened'), ol);
    vpPanel.replaceChildren(h('h3', {}, 'Victory points'), vpPlot(points.slice(0, step + 1).length > 1 ? points : points));
    // Losses per turn up to the step shown (the game's eliminations, as the seat saw them).
    if (points.some((p) => p.losses)) vpPanel.append(h('h3', {}, 'Losses per turn (steps)'), lossPlot(points.slice(0, step + 1)));
    announce(stepLabel.textContent ?? '');
  }
  slider.addEventListener('input', () => show(Number(slider.value)));
  prev.addEventListener('click', () => show(step - 1));
  next.addEventListener('click', () => show(step + 1));
  play.addEventListener('click', () => {
    if (timer) {
      clearInterval(timer);
      timer = 0;
      play.textContent = 'Play';
      return;
    }
    if (step >= total) show(0);
    play.textContent = 'Pause';
    timer = window.setInterval(() => {
      if (step >= total) {
        clearInterval(timer);
        timer = 0;
        play.textContent = 'Play';
        return;
      }
      show(step + 1);
    }, 700);
  });
  mapBox.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') show(step + 1);
    if (e.key === 'ArrowLeft') show(step - 1);
  });
  await show(total);
}
