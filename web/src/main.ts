import './style.css';
import { renderHome } from './home';
import { renderPlay } from './play';
import { renderReplay } from './replay';

// Routes: /  (new game + list), /play/<id>?token=..., /replay/<id>?token=...
export function route() {
  const app = document.getElementById('app')!;
  app.replaceChildren();
  const parts = location.pathname.split('/').filter(Boolean);
  const token = new URLSearchParams(location.search).get('token') ?? '';
  if (parts[0] === 'play' && parts[1]) renderPlay(app, parts[1], token);
  else if (parts[0] === 'replay' && parts[1]) renderReplay(app, parts[1], token);
  else renderHome(app);
}

export function navigate(path: string) {
  history.pushState(null, '', path);
  route();
}

window.addEventListener('popstate', route);
route();
