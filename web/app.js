// Entry point: sign-in screen, application shell, client-side routing (history API).
import { api, getTokens, onSignedOut, signIn, signOut } from './api.js';
import { h, set, field, toast, errorText, showError, infoDialog, state, loadGroups, setGroup, when, hooks } from './ui.js';
import { booksView } from './books.js';
import { statsView } from './stats.js';
import { budgetView } from './budget.js';
import { categoriesView } from './categories.js';
import { groupsView } from './groups.js';
import { notificationsView, feedbackView, noticeBody } from './notices.js';
import { profileView, recurringView, dataView } from './profile.js';
import { adminView } from './admin.js';

const ROUTES = [
  { path: 'books', label: 'Books', view: booksView, grouped: true },
  { path: 'stats', label: 'Statistics', view: statsView, grouped: true },
  { path: 'budget', label: 'Budget', view: budgetView, grouped: true },
  { path: 'recurring', label: 'Recurring', view: recurringView },
  { path: 'categories', label: 'Categories & tags', view: categoriesView },
  { path: 'groups', label: 'Groups', view: groupsView },
  { path: 'notifications', label: 'Notifications', view: notificationsView },
  { path: 'feedback', label: 'Feedback', view: feedbackView },
  { path: 'data', label: 'Import & export', view: dataView },
  { path: 'profile', label: 'Profile', view: profileView },
  { path: 'admin', label: 'Admin', view: adminView, admin: true },
];

const app = document.getElementById('app');
let shell = null;
let badgeTimer = null;
const shownStrong = new Set();

function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  render();
}


document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', () => render());

onSignedOut((body) => {
  stopShell();
  // a disabled or deleted account (40104) is told why; any other ending is a plain expiry
  showSignIn(body && body.code === 40104 ? body.message : 'Your session has ended. Please sign in again.');
});

function stopShell() {
  shell = null;
  state.me = null;
  state.groups = [];
  state.cache.clear();
  if (badgeTimer) clearInterval(badgeTimer);
  badgeTimer = null;
}

// ---------- sign-in ----------

async function showSignIn(message) {
  document.title = 'Sign in · Ledger';
  const note = h('p.error', { hidden: !message }, message || '');
  const tagline = h('p.muted');
  const demo = h('button.primary.big', { type: 'button' }, 'Try the demo');
  const code = h('input', { name: 'code', required: true, maxlength: 128, pattern: '[A-Za-z0-9_\\-]{1,128}', autocomplete: 'off', placeholder: 'Login code' });
  const form = h('form.stack', null, field('Sign in with a login code', code), h('button', { type: 'submit' }, 'Sign in'));
  const start = async (path, body, btn) => {
    btn.disabled = true;
    note.hidden = true;
    try {
      await signIn(path, body);
      await render();
    } catch (err) {
      note.textContent = errorText(err);
      note.hidden = false;
    } finally {
      btn.disabled = false;
    }
  };
  demo.addEventListener('click', () => start('/api/auth/demo-login', undefined, demo));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    start('/api/auth/login', { code: code.value.trim() }, form.querySelector('button'));
  });
  set(
    app,
    h('section.signin.card', null, h('h1', null, 'Ledger'), tagline, note, demo, h('p.muted.small', null, 'The demo creates a private account with a month of sample data. It is removed after 24 hours.'), h('hr'), form),
  );
  api('/api/config', { public: true })
    .then((c) => {
      tagline.textContent = c.tagline;
    })
    .catch(() => {});
}

// ---------- shell ----------

function buildShell() {
  const badge = h('span.badge', { hidden: true });
  const groupSel = h('select', { 'aria-label': 'Books to show' });
  groupSel.addEventListener('change', () => {
    setGroup(groupSel.value);
    render();
  });
  const nav = h('nav.side', { 'aria-label': 'Sections' });
  const main = h('main', { id: 'view' });
  const header = h(
    'header.top',
    null,
    h('a.brand', { href: '/books', 'data-link': true }, 'Ledger'),
    h('label.groupsel', null, h('span.small.muted', null, 'View'), groupSel),
    h('span.grow'),
    h('a.bell', { href: '/notifications', 'data-link': true, title: 'Notifications' }, 'Inbox', badge),
    h('button.link', { type: 'button', onclick: about }, 'About'),
    h('button.link', { type: 'button', onclick: logout }, 'Sign out'),
  );
  set(app, h('div.shell', null, header, nav, main));
  shell = { badge, groupSel, nav, main };
}

function fillShell(active) {
  const { nav, groupSel } = shell;
  set(
    nav,
    ...ROUTES.filter((r) => !r.admin || state.me.role === 'admin').map((r) =>
      h('a', { href: `/${r.path}`, 'data-link': true, 'aria-current': r === active ? 'page' : null }, r.label),
    ),
  );
  set(
    groupSel,
    h('option', { value: '' }, 'Personal books'),
    ...state.groups.map((g) => h('option', { value: String(g.id), selected: g.id === state.groupId }, `Group: ${g.name}`)),
  );
  groupSel.disabled = !active.grouped;
  groupSel.parentElement.hidden = !state.groups.length;
}

async function updateBadge() {
  if (!shell) return;
  try {
    const res = await api('/api/notifications/unread-count');
    shell.badge.textContent = res.count > 99 ? '99+' : String(res.count);
    shell.badge.hidden = !res.count;
    const strong = (res.strong || []).filter((n) => !shownStrong.has(n.id));
    if (strong.length) showStrong(strong);
  } catch {
    // the badge is a convenience; failures show up on the notifications page itself
  }
}

function showStrong(list) {
  for (const n of list) shownStrong.add(n.id);
  const dialog = infoDialog(
    'Important',
    list.map((n) => h('article.notice', null, h('h3', null, n.title), noticeBody(n), h('p.small.muted', null, when(n.publish_at || n.created_at)))),
  );
  dialog.addEventListener('close', async () => {
    await Promise.all(list.map((n) => api(`/api/notifications/${n.id}/read`, { method: 'POST' }).catch(() => {})));
    updateBadge();
  });
}

async function about() {
  try {
    const c = await api('/api/config', { public: true });
    infoDialog(`About Ledger`, h('p', null, h('strong', null, c.tagline)), h('p.pre', null, c.description), h('p.muted', null, `Version ${c.app_version}`));
  } catch (err) {
    showError(err);
  }
}

async function logout() {
  stopShell();
  await signOut();
  history.replaceState(null, '', '/');
  showSignIn('You have signed out.');
}

// ---------- routing ----------

let renderSeq = 0;

async function render() {
  const seq = ++renderSeq;
  if (!getTokens()) return showSignIn();
  try {
    if (!state.me) {
      state.me = await api('/api/me');
      await loadGroups().catch(() => {});
    }
  } catch (err) {
    if (!getTokens()) return undefined;
    set(app, h('section.card.signin', null, h('p.error', null, errorText(err)), h('button', { type: 'button', onclick: () => render() }, 'Retry')));
    return undefined;
  }
  if (seq !== renderSeq) return undefined;
  const segments = location.pathname.split('/').filter(Boolean);
  let route = ROUTES.find((r) => r.path === segments[0] && (!r.admin || state.me.role === 'admin'));
  if (!route) {
    route = ROUTES[0];
    history.replaceState(null, '', '/books');
  }
  if (!shell) {
    buildShell();
    badgeTimer = setInterval(updateBadge, 60_000);
    updateBadge();
  }
  fillShell(route);
  document.title = `${route.label} · Ledger`;
  const main = h('div.view');
  set(shell.main, main);
  api('/api/track', { method: 'POST', body: { event_type: 'page_view', page: `/${route.path}`, data: {} } }).catch(() => {});
  try {
    await route.view(main, { params: segments.slice(1) });
    // a view may have changed the groups (create, join, leave): keep the selector in step
    if (seq === renderSeq && shell) fillShell(route);
  } catch (err) {
    if (err && err.status === 401) return undefined;
    set(main, h('p.error', null, errorText(err)));
  }
  return undefined;
}

Object.assign(hooks, { navigate, refresh: () => render(), updateBadge });
render().catch((err) => toast(errorText(err), 'error'));
