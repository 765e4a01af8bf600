// The start page: a new game (game, scenario with its description, who plays each side)
// and the join links it gives, plus the games on this server.
import { api, CatalogGame, SeatInfo } from './api';
import { h } from './svg';

export async function renderHome(app: HTMLElement) {
  const page = h('div', { class: 'home' });
  app.append(page);
  page.append(
    h('header', { class: 'home-head' }, h('h1', {}, 'Steppe'), h('p', { class: 'tagline' }, 'Eastern Front wargames, rules enforced.')),
  );
  const form = h('section', { class: 'card new-game', 'aria-labelledby': 'new-game-h' }, h('h2', { id: 'new-game-h' }, 'New game'));
  const created = h('section', { class: 'card created', hidden: '' });
  const list = h('section', { class: 'card games' }, h('h2', {}, 'Games on this server'));
  page.append(h('div', { class: 'home-grid' }, form, h('div', {}, created, list)));

  let catalog: CatalogGame[] = [];
  let agents: string[] = ['random'];
  try {
    const c = await api.catalog();
    catalog = c.games;
    if (c.agents?.length) agents = c.agents;
  } catch (e) {
    form.append(h('p', { class: 'error' }, `Cannot reach the server: ${(e as Error).message}`));
    return;
  }
  const playable = catalog.filter((g) => g.available);
  if (!playable.length) {
    form.append(h('p', { class: 'empty', id: 'no-games' }, 'No game is installed on this server yet.'));
    for (const g of catalog.filter((x) => !x.available)) form.append(h('p', { class: 'error' }, `${g.name}: ${g.error}`));
  } else {
    buildForm(form, playable, agents, created);
  }
  await fillList(list);
}

// The scenario id the server takes: the optional rules ride on it with '+'
// ("grand-campaign+kiev-vp"), in the order the scenario lists them.
export function scenarioWithOptions(scenario: string, options: string[]): string {
  return [scenario, ...options].join('+');
}

// A readable name for an agent spec the server offers ("mcts:easy" -> "Computer (search, easy)").
export function agentLabel(spec: string): string {
  if (spec === 'random') return 'Computer (random)';
  const [name, ...opts] = spec.split(':');
  const kind = name === 'mcts' ? 'search' : name;
  return `Computer (${[kind, ...opts].join(', ')})`;
}

function buildForm(form: HTMLElement, games: CatalogGame[], agents: string[], created: HTMLElement) {
  const gameSel = h('select', { id: 'game', name: 'game' });
  for (const g of games) gameSel.append(h('option', { value: g.id }, g.name));
  const scenSel = h('select', { id: 'scenario', name: 'scenario' });
  const desc = h('p', { class: 'scenario-desc', id: 'scenario-desc' });
  const rules = h('fieldset', { class: 'optional-rules', id: 'optional-rules' });
  const seats = h('div', { class: 'seats' });
  const seed = h('input', { id: 'seed', type: 'number', min: '0', placeholder: 'random' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'create' }, 'Create game');
  const err = h('p', { class: 'error', role: 'alert' });
  const f = h(
    'form',
    {},
    h('label', { for: 'game' }, 'Game'),
    gameSel,
    h('label', { for: 'scenario' }, 'Scenario'),
    scenSel,
    desc,
    rules,
    h('fieldset', {}, h('legend', {}, 'Sides'), seats),
    h('details', {}, h('summary', {}, 'Options'), h('label', { for: 'seed' }, 'Seed'), seed),
    submit,
    err,
  );
  form.append(f);
  const current = () => games.find((g) => g.id === gameSel.value)!;
  const fillScenarios = () => {
    const g = current();
    scenSel.replaceChildren(...(g.scenarios ?? []).filter((s) => s.id !== 'empty').concat((g.scenarios ?? []).filter((s) => s.id === 'empty')).map((s) => h('option', { value: s.id }, s.name)));
    seats.replaceChildren(
      ...(g.sides ?? []).map((name, i) =>
        h(
          'div',
          { class: 'seat-row' },
          h('span', { class: `side-chip side-${i}` }, name),
          (() => {
            const sel = h('select', { 'data-side': String(i), 'aria-label': `${name} played by` });
            sel.append(h('option', { value: 'human' }, 'Human'), ...agents.map((a) => h('option', { value: `agent:${a}` }, agentLabel(a))));
            return sel;
          })(),
        ),
      ),
    );
    fillDesc();
  };
  const fillDesc = () => {
    const s = current().scenarios?.find((x) => x.id === scenSel.value);
    desc.textContent = s ? `${s.description} Turns ${s.first_turn}–${s.last_turn}.` : '';
    // The scenario's optional rules, as check boxes (none ticked: the standard game).
    const opts = s?.options ?? [];
    rules.replaceChildren(
      ...(opts.length ? [h('legend', {}, 'Optional rules')] : []),
      ...opts.map((o) => h('label', { class: 'option-row' }, h('input', { type: 'checkbox', 'data-option': o.id }), ` ${o.name} (${o.rule})`)),
    );
    if (opts.length) rules.removeAttribute('hidden');
    else rules.setAttribute('hidden', '');
  };
  gameSel.addEventListener('change', fillScenarios);
  scenSel.addEventListener('change', fillDesc);
  fillScenarios();
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const seatReq = [...seats.querySelectorAll('select')].map((s) =>
      s.value === 'human' ? { kind: 'human' } : { kind: 'agent', agent: s.value.slice('agent:'.length) },
    );
    const chosen = [...rules.querySelectorAll<HTMLInputElement>('input[data-option]')].filter((x) => x.checked).map((x) => x.dataset.option!);
    const req: any = { game: gameSel.value, scenario: scenarioWithOptions(scenSel.value, chosen), seats: seatReq };
    if (seed.value !== '') req.seed = Number(seed.value);
    submit.setAttribute('disabled', '');
    try {
      const r = await api.create(req);
      showCreated(created, r.game.id, r.game.game_name, r.game.scenario_name, r.seats);
    } catch (x) {
      err.textContent = (x as Error).message;
    } finally {
      submit.removeAttribute('disabled');
    }
  });
}

function showCreated(box: HTMLElement, id: string, game: string, scenario: string, seats: SeatInfo[]) {
  box.removeAttribute('hidden');
  box.replaceChildren(h('h2', {}, 'Game created'), h('p', {}, `${game}: ${scenario}. Each link below is the secret seat of one side: keep yours, send the other to your opponent.`));
  const ul = h('ul', { class: 'join-links' });
  for (const s of seats) {
    if (!s.join_path) {
      ul.append(h('li', {}, h('span', { class: `side-chip side-${s.side}` }, s.name), ` computer (${s.agent})`));
      continue;
    }
    const url = `${location.origin}${s.join_path}`;
    const input = h('input', { type: 'text', readonly: '', value: url, 'aria-label': `Join link for ${s.name}`, class: 'join-url', 'data-side': String(s.side) });
    const copy = h('button', { type: 'button' }, 'Copy');
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = 'Copied';
      } catch {
        input.select();
      }
    });
    ul.append(h('li', {}, h('span', { class: `side-chip side-${s.side}` }, s.name), input, copy, h('a', { href: s.join_path, class: 'button primary', 'data-play-side': String(s.side) }, `Play ${s.name}`)));
  }
  box.append(ul, h('p', { class: 'hint' }, `Game id ${id}.`));
}

async function fillList(list: HTMLElement) {
  try {
    const games = await api.games();
    if (!games.length) {
      list.append(h('p', { class: 'empty' }, 'No games yet.'));
      return;
    }
    const t = h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Scenario'), h('th', {}, 'Sides'), h('th', {}, 'Moves'), h('th', {}, 'Status'))));
    const tb = h('tbody');
    for (const g of games.slice().reverse())
      tb.append(
        h('tr', {}, h('td', {}, g.game_name), h('td', {}, g.scenario_name), h('td', {}, g.sides.map((s) => `${s.name}: ${s.kind === 'agent' ? s.agent : 'human'}`).join(', ')), h('td', {}, String(g.actions_count)), h('td', {}, g.status + (g.current_side && g.status === 'active' ? ` (${g.current_side} to move)` : ''))),
      );
    t.append(tb);
    list.append(t, h('p', { class: 'hint' }, 'To take a seat you need its join link.'));
  } catch (e) {
    list.append(h('p', { class: 'error' }, (e as Error).message));
  }
}
