// Administration: dashboard, users, feedback, notifications, configuration, backups, logs, tracking.
import { api, query } from './api.js';
import { h, set, field, select, pager, empty, loading, action, formDialog, confirmDialog, promptDialog, toast, when, avatar, state, hooks } from './ui.js';
import { noticeDialog, noticeBody } from './notices.js';

const TABS = [
  ['dashboard', 'Dashboard', dashboard],
  ['users', 'Users', users],
  ['feedback', 'Feedback', feedback],
  ['notifications', 'Notifications', notifications],
  ['config', 'Configuration', config],
  ['backups', 'Backups', backups],
  ['logs', 'Logs', logs],
  ['track', 'Usage', track],
];
const PAGE_SIZE = 20;

export async function adminView(root, { params }) {
  const tab = TABS.find((t) => t[0] === params[0]) || TABS[0];
  const body = h('div');
  set(
    root,
    h('div.head', null, h('h1', null, `Admin · ${tab[1]}`)),
    h('nav.tabs', { 'aria-label': 'Admin sections' }, TABS.map(([key, label]) => h('a', { href: `/admin/${key}`, 'data-link': true, 'aria-selected': String(key === tab[0]) }, label))),
    body,
  );
  await tab[2](body);
}

const bytes = (n) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n ?? 0} B`);
const stat = (label, value) => h('div.figure', null, h('span.small.muted', null, label), h('strong', null, String(value ?? '—')));

async function dashboard(root) {
  const [d, health] = await Promise.all([
    api('/api/admin/dashboard'),
    api('/api/health', { public: true }).catch((e) => (e.body && e.body.status ? e.body : { status: 'unreachable', db: 'error' })),
  ]);
  set(
    root,
    h('section.card', null, h('h2', null, 'Service'), h('div.figures', null,
      h('div.figure', null, h('span.small.muted', null, 'Status'), h('strong', { class: health.status === 'ok' ? 'income' : 'expense' }, health.status)),
      stat('Database', health.db), stat('Version', health.version), stat('Up for', health.uptime_s !== undefined ? `${Math.floor(health.uptime_s / 3600)} h ${Math.floor((health.uptime_s % 3600) / 60)} min` : '—'))),
    h('section.card', null, h('h2', null, 'Users'), h('div.figures', null,
      stat('Total', d.users?.total), stat('Active', d.users?.active), stat('Disabled', d.users?.disabled), stat('Deleted', d.users?.deleted), stat('New today', d.users?.new_today))),
    h('section.card', null, h('h2', null, 'Activity'), h('div.figures', null,
      stat('Transactions', d.transactions?.total), stat('Transactions today', d.transactions?.today), stat('Groups', d.groups?.total),
      stat('Live groups', d.groups?.live), stat('Pending feedback', d.feedback?.pending))),
    h('p.small.muted', null, `Figures as of ${when(d.generated_at)} (cached for a minute).`),
  );
}

async function users(root) {
  let page = 1;
  const keyword = h('input', { type: 'search', name: 'keyword', placeholder: 'Nickname or id', maxlength: 100 });
  const status = select('status', [['all', 'All'], ['active', 'Active'], ['disabled', 'Disabled'], ['deleted', 'Deleted']], 'all');
  const form = h('form.row.wrap', null, keyword, status, h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    page = 1;
    load();
  });
  const list = h('div');
  set(root, form, list);

  async function load() {
    loading(list);
    const res = await api('/api/admin/users', { query: { keyword: keyword.value.trim(), status: status.value, page, pageSize: PAGE_SIZE } }).catch((e) => e);
    if (res instanceof Error) return set(list, h('p.error', null, res.message));
    set(
      list,
      res.list.length ? h('ul.items.card', null, res.list.map(row)) : empty('No users found.'),
      pager(res.total, page, PAGE_SIZE, (p) => ((page = p), load())),
    );
    return undefined;
  }

  const act = (fn, message) => action(async () => {
    await fn();
    toast(message);
    await load();
  });

  function row(u) {
    const deleted = !!u.deleted_at;
    const self = u.id === state.me.id;
    return h(
      'li',
      { class: deleted ? 'paused' : null },
      avatar(u.avatar_url, 'avatar.small'),
      h('div.grow', null, h('strong', null, u.nickname), ` #${u.id}`,
        h('div.small.muted', null, [u.role, deleted ? `deleted ${when(u.deleted_at)}` : u.status, u.is_demo ? 'demo' : null, u.created_at ? `since ${when(u.created_at)}` : null].filter(Boolean).join(' · '))),
      deleted
        ? h('button.small', { type: 'button', onclick: act(() => api(`/api/admin/users/${u.id}/restore`, { method: 'POST' }), 'User restored') }, 'Restore')
        : [
          h('button.small', { type: 'button', disabled: self, onclick: act(() => api(`/api/admin/users/${u.id}/status`, { method: 'PUT', body: { status: u.status === 'active' ? 'disabled' : 'active' } }), 'Status changed') },
            u.status === 'active' ? 'Disable' : 'Enable'),
          h('button.small', { type: 'button', onclick: act(() => api(`/api/admin/users/${u.id}/role`, { method: 'PUT', body: { role: u.role === 'admin' ? 'user' : 'admin' } }), 'Role changed') },
            u.role === 'admin' ? 'Make user' : 'Make admin'),
          h('button.small.danger', {
            type: 'button',
            disabled: self,
            onclick: action(async () => {
              const name = await promptDialog(`Delete ${u.nickname}`, 'Type the nickname to confirm', { hint: 'The account is soft-deleted: it can no longer sign in, and can be restored later.', maxlength: 100 });
              if (name === null) return;
              await api(`/api/admin/users/${u.id}`, { method: 'DELETE', body: { confirmName: name } });
              toast('User deleted');
              await load();
            }),
          }, 'Delete'),
        ],
    );
  }
  await load();
}

async function feedback(root) {
  let page = 1;
  const status = select('status', [['', 'All'], ['pending', 'Pending'], ['replied', 'Replied'], ['closed', 'Closed']], 'pending');
  status.addEventListener('change', () => ((page = 1), load()));
  const list = h('div');
  set(root, h('div.row', null, h('span.muted', null, 'Status'), status), list);

  async function load() {
    loading(list);
    const res = await api('/api/admin/feedback', { query: { status: status.value, page, pageSize: PAGE_SIZE } }).catch((e) => e);
    if (res instanceof Error) return set(list, h('p.error', null, res.message));
    set(
      list,
      res.list.length ? h('div.stack', null, res.list.map(item)) : empty('No feedback here.'),
      pager(res.total, page, PAGE_SIZE, (p) => ((page = p), load())),
    );
    return undefined;
  }

  function item(f) {
    const author = f.user || f.author || {};
    const next = select('status', [['pending', 'Pending'], ['replied', 'Replied'], ['closed', 'Closed']], f.status);
    next.addEventListener('change', action(async () => {
      await api(`/api/admin/feedback/${f.id}/status`, { method: 'PUT', body: { status: next.value } });
      toast('Status changed');
      await load();
    }));
    return h(
      'article.card',
      null,
      h('div.row.wrap', null, h('strong.grow', null, author.nickname || `User #${f.user_id ?? author.id ?? '?'}`), h('span.small.muted', null, when(f.created_at)), next),
      h('p.pre', null, f.content),
      f.contact ? h('p.small', null, `Contact: ${f.contact}`) : null,
      f.reply ? h('blockquote', null, h('strong', null, 'Reply'), h('span.small.muted', null, ` · ${when(f.replied_at)}`), h('p.pre', null, f.reply)) : null,
      f.status !== 'closed'
        ? h('button.small', {
          type: 'button',
          onclick: async () => {
            const reply = h('textarea', { name: 'reply', required: true, maxlength: 2000, rows: 5 }, f.reply || '');
            const ok = await formDialog('Reply to feedback', [h('p.pre.muted', null, f.content), field('Reply (sent to the author as a notification)', reply)],
              () => api(`/api/admin/feedback/${f.id}/reply`, { method: 'POST', body: { reply: reply.value.trim() } }), { submitLabel: 'Send reply' });
            if (ok) {
              toast('Reply sent');
              await load();
            }
          },
        }, f.reply ? 'Reply again' : 'Reply')
        : null,
    );
  }
  await load();
}

async function notifications(root) {
  let page = 1;
  const scope = select('scope', [['', 'All scopes'], ['system', 'System'], ['group', 'Group'], ['personal', 'Personal']], '');
  scope.addEventListener('change', () => ((page = 1), load()));
  const list = h('div');
  set(
    root,
    h('div.row.wrap', null, scope, h('span.grow'), h('button.primary', { type: 'button', onclick: async () => (await noticeDialog()) && load() }, '+ Publish')),
    list,
  );

  async function load() {
    loading(list);
    const res = await api('/api/admin/notifications', { query: { scope: scope.value, page, pageSize: PAGE_SIZE } }).catch((e) => e);
    if (res instanceof Error) return set(list, h('p.error', null, res.message));
    const now = Date.now();
    set(
      list,
      res.list.length
        ? h('div.stack', null, res.list.map((n) => {
          const scheduled = n.publish_at && Date.parse(n.publish_at) > now;
          const expired = n.expire_at && Date.parse(n.expire_at) <= now;
          return h('article.card.notice', null,
            h('div.row.wrap', null, h('h3.grow', null, n.title), h('span.pill', null, n.scope), n.pinned ? h('span.pill', null, 'pinned') : null,
              n.strong ? h('span.pill.warn', null, 'important') : null, scheduled ? h('span.pill', null, 'scheduled') : null, expired ? h('span.pill', null, 'expired') : null),
            noticeBody(n),
            h('p.small.muted', null, [`created ${when(n.created_at)}`, n.publish_at ? `publish ${when(n.publish_at)}` : null, n.expire_at ? `expires ${when(n.expire_at)}` : null,
              n.group_id ? `group #${n.group_id}` : null, n.user_id ? `user #${n.user_id}` : null].filter(Boolean).join(' · ')),
            h('div.row', null,
              h('button.small', { type: 'button', onclick: async () => (await noticeDialog({}, n)) && load() }, 'Edit'),
              h('button.small', { type: 'button', onclick: action(async () => (await api(`/api/notifications/${n.id}/pin`, { method: 'PUT', body: { pinned: !n.pinned } }), load())) }, n.pinned ? 'Unpin' : 'Pin'),
              h('button.small.danger', {
                type: 'button',
                onclick: action(async () => {
                  if (!(await confirmDialog(`Delete “${n.title}”?`, { label: 'Delete' }))) return;
                  await api(`/api/notifications/${n.id}`, { method: 'DELETE' });
                  toast('Deleted');
                  await load();
                }),
              }, 'Delete')));
        }))
        : empty('No notifications.'),
      pager(res.total, page, PAGE_SIZE, (p) => ((page = p), load())),
    );
    hooks.updateBadge();
    return undefined;
  }
  await load();
}

async function config(root) {
  const c = await api('/api/config', { public: true });
  const version = h('input', { name: 'app_version', required: true, maxlength: 50, value: c.app_version });
  const tagline = h('input', { name: 'tagline', maxlength: 200, value: c.tagline });
  const description = h('textarea', { name: 'description', rows: 5, maxlength: 5000 }, c.description);
  const form = h('form.card.stack', null, field('Displayed version', version), field('Tagline', tagline), field('Description (about dialog)', description),
    h('div.row.end', null, h('button.primary', { type: 'submit' }, 'Save')));
  form.addEventListener('submit', action(async (e) => {
    e.preventDefault();
    await api('/api/admin/config', { method: 'PUT', body: { app_version: version.value.trim(), tagline: tagline.value.trim(), description: description.value.trim() } });
    toast('Configuration saved');
  }));
  set(root, form);
}

async function backups(root) {
  let page = 1;
  let timer = null;
  const list = h('div');
  set(
    root,
    h('div.row', null, h('p.muted.grow', null, 'A backup holds every table of the database. Restore one with the command line (backup:restore).'),
      h('button', { type: 'button', onclick: () => load() }, 'Refresh'),
      h('button.primary', { type: 'button', onclick: action(async () => (await api('/api/backup', { method: 'POST' }), toast('Backup started'), load())) }, 'Create backup')),
    list,
  );
  async function load() {
    clearTimeout(timer);
    const res = await api('/api/backup', { query: { page, pageSize: PAGE_SIZE } }).catch((e) => e);
    if (res instanceof Error) return set(list, h('p.error', null, res.message));
    set(
      list,
      res.list.length
        ? h('ul.items.card', null, res.list.map((b) => h('li', null,
          h('div.grow', null, h('strong', null, b.name), h('div.small.muted', null, `${when(b.created_at)} · ${bytes(b.size)}`)),
          h('span.pill', { class: b.status === 'failed' ? 'warn' : null }, b.status),
          b.downloadToken ? h('a.button.small', { href: `/api/backup/${b.id}/download${query({ token: b.downloadToken })}`, download: b.name, rel: 'noreferrer' }, 'Download') : null,
          h('button.small.danger', {
            type: 'button',
            onclick: action(async () => {
              if (!(await confirmDialog(`Delete the backup ${b.name}?`, { label: 'Delete' }))) return;
              await api(`/api/backup/${b.id}`, { method: 'DELETE' });
              toast('Backup deleted');
              await load();
            }),
          }, 'Delete'))))
        : empty('No backups yet.'),
      pager(res.total, page, PAGE_SIZE, (p) => ((page = p), load())),
    );
    // A running backup finishes in the background: look again shortly while this page is shown.
    if (res.list.some((b) => b.status === 'pending')) timer = setTimeout(() => root.isConnected && load(), 3000);
    return undefined;
  }
  await load();
}

async function logs(root) {
  let page = 1;
  const [files, stats] = await Promise.all([
    api('/api/logs/files').catch(() => ({ list: [] })),
    api('/api/logs/stats', { query: { days: 7 } }).catch(() => ({ list: [] })),
  ]);
  const date = h('input', { type: 'date', name: 'date', value: stats.list[0]?.date || '' });
  const level = select('level', [['', 'Any level'], ...['trace', 'debug', 'info', 'warn', 'error', 'fatal'].map((l) => [l, l])], '');
  const keyword = h('input', { type: 'search', name: 'keyword', placeholder: 'Keyword', maxlength: 100 });
  const form = h('form.row.wrap', null, date, level, keyword, h('button.primary', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    page = 1;
    load();
  });
  const list = h('div');
  set(
    root,
    h('section.card', null, h('h2', null, 'Last 7 days'),
      stats.list.length
        ? h('table.compare', null, h('thead', null, h('tr', null, ['Day', 'Total', 'Warn', 'Error', 'Fatal'].map((x) => h('th', null, x)))),
          h('tbody', null, stats.list.map((s) => h('tr', null, h('td', null, s.date), h('td', null, String(s.total)), h('td', null, String(s.levels?.warn ?? 0)),
            h('td', { class: s.levels?.error ? 'expense' : null }, String(s.levels?.error ?? 0)), h('td', null, String(s.levels?.fatal ?? 0))))))
        : empty('No log statistics.'),
      h('p.small.muted', null, `${files.list.length} log file(s): ${files.list.slice(0, 10).map((f) => `${f.name} (${bytes(f.size)})`).join(', ')}`)),
    h('section.card', null, h('h2', null, 'Query'), form, list),
  );
  async function load() {
    loading(list);
    const res = await api('/api/logs/query', { query: { date: date.value, level: level.value, keyword: keyword.value.trim(), page, pageSize: PAGE_SIZE } }).catch((e) => e);
    if (res instanceof Error) return set(list, h('p.error', null, res.message));
    set(
      list,
      res.list.length
        ? h('ul.logs', null, res.list.map((entry) => {
          const { time, level: lv, msg, ...rest } = entry;
          return h('li', null, h('div.row', null, h('span.pill', { class: lv === 'error' || lv === 'fatal' ? 'warn' : null }, String(lv)),
            h('span.small.muted', null, typeof time === 'number' ? new Date(time).toLocaleString() : when(time)), h('span.grow', null, String(msg ?? ''))),
          Object.keys(rest).length ? h('details', null, h('summary.small.muted', null, logHint(rest)), h('pre', null, JSON.stringify(rest, null, 2))) : null);
        }))
        : empty('No entries.'),
      pager(res.total, page, PAGE_SIZE, (p) => ((page = p), load())),
    );
    return undefined;
  }
  await load();
}

/** A one-line hint of a log entry's extra fields (request line, status, error). */
function logHint(rest) {
  const parts = [];
  if (rest.req && typeof rest.req === 'object') parts.push(`${rest.req.method ?? ''} ${rest.req.url ?? ''}`.trim());
  if (rest.res && typeof rest.res === 'object' && rest.res.statusCode) parts.push(String(rest.res.statusCode));
  if (rest.responseTime !== undefined) parts.push(`${Math.round(Number(rest.responseTime))} ms`);
  if (rest.err && typeof rest.err === 'object' && rest.err.message) parts.push(String(rest.err.message));
  return parts.filter(Boolean).join(' · ') || 'details';
}

async function track(root) {
  let page = 1;
  const s = await api('/api/logs/track/stats');
  const max = Math.max(1, ...(s.trend || []).map((d) => d.events));
  const type = h('input', { type: 'search', name: 'event_type', placeholder: 'Event type', maxlength: 100 });
  const form = h('form.row.wrap', null, type, h('button', { type: 'submit' }, 'Filter'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    page = 1;
    load();
  });
  const list = h('div');
  set(
    root,
    h('div.figures', null, stat('Events today', s.today?.events), stat('Users today', s.today?.users)),
    h('div.cols', null,
      h('section.card', null, h('h2', null, 'Last 7 days'), h('div.trend', null, (s.trend || []).map((d) =>
        h('div.col', { title: `${d.date}: ${d.events} events, ${d.users} users` }, h('div.track', null, h('i', { style: { height: `${Math.round((d.events / max) * 100)}%` } })), h('span', null, d.date.slice(5)))))),
      h('section.card', null, h('h2', null, 'Popular events'), (s.popular || []).length
        ? h('ul.items', null, s.popular.map((p) => h('li', null, h('span.grow', null, p.event_type), h('strong', null, String(p.count)))))
        : empty('No events yet.'))),
    h('section.card', null, h('h2', null, 'Events'), form, list),
  );
  async function load() {
    loading(list);
    const res = await api('/api/logs/track/list', { query: { event_type: type.value.trim(), page, pageSize: PAGE_SIZE } }).catch((e) => e);
    if (res instanceof Error) return set(list, h('p.error', null, res.message));
    set(
      list,
      res.list.length
        ? h('ul.items', null, res.list.map((e) => h('li', null, h('span.pill', null, String(e.event_type)), h('span.grow', null, String(e.page ?? '')),
          h('span.small.muted', null, `${e.user_id ? `user #${e.user_id} · ` : ''}${when(e.created_at)}`))))
        : empty('No events.'),
      pager(res.total, page, PAGE_SIZE, (p) => ((page = p), load())),
    );
    return undefined;
  }
  await load();
}
