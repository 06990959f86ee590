// Notifications (read, mark read, publish form) and the user's feedback.
import { api } from './api.js';
import { h, set, field, select, pager, empty, loading, action, formDialog, toast, when, safeLink, hooks } from './ui.js';

const PAGE_SIZE = 20;

export function noticeBody(n) {
  const link = safeLink(n.link_url);
  const image = safeLink(n.image_url);
  return [
    h('p.pre', null, n.content),
    image ? h('img.notice-img', { src: image, alt: '', loading: 'lazy', referrerpolicy: 'no-referrer' }) : null,
    link ? h('p', null, h('a', { href: link, rel: 'noopener noreferrer', target: link.startsWith('/') ? null : '_blank', 'data-link': link.startsWith('/') && !link.startsWith('/api/') ? true : null }, link)) : null,
  ];
}

export async function notificationsView(root) {
  let page = 1;
  let scope = '';
  const body = h('div');
  const scopeSel = select('scope', [['', 'All'], ['system', 'Announcements'], ['group', 'Group notices'], ['personal', 'Personal']], scope);
  scopeSel.addEventListener('change', () => {
    scope = scopeSel.value;
    page = 1;
    load();
  });
  set(
    root,
    h(
      'div.head',
      null,
      h('h1', null, 'Notifications'),
      h('span.grow'),
      scopeSel,
      h('button', {
        type: 'button',
        onclick: action(async () => {
          const res = await api('/api/notifications/read-all', { method: 'POST' });
          toast(`${res?.updated ?? 0} marked as read`);
          hooks.updateBadge();
          await load();
        }),
      }, 'Mark all read'),
    ),
    body,
  );

  async function load() {
    loading(body);
    const res = await api('/api/notifications', { query: { scope, page, pageSize: PAGE_SIZE } }).catch((e) => e);
    if (res instanceof Error) return set(body, h('p.error', null, res.message));
    set(
      body,
      res.list.length ? h('div.stack', null, res.list.map(item)) : empty('No notifications.'),
      pager(res.total, page, PAGE_SIZE, (p) => ((page = p), load())),
    );
    return undefined;
  }

  function item(n) {
    const el = h(
      'article.card.notice',
      { class: n.read ? 'read' : 'unread' },
      h(
        'div.row.wrap',
        null,
        n.read ? null : h('span.dot', { title: 'Unread' }),
        h('h3.grow', null, n.title),
        n.pinned ? h('span.pill', null, 'pinned') : null,
        n.strong ? h('span.pill.warn', null, 'important') : null,
        h('span.pill', null, n.scope),
      ),
      noticeBody(n),
      h(
        'div.row',
        null,
        h('span.small.muted.grow', null, when(n.publish_at || n.created_at)),
        n.read
          ? null
          : h('button.small', {
            type: 'button',
            onclick: action(async () => {
              await api(`/api/notifications/${n.id}/read`, { method: 'POST' });
              hooks.updateBadge();
              await load();
            }),
          }, 'Mark read'),
      ),
    );
    return el;
  }

  await load();
}

function toLocalInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

/**
 * Publish (or edit, when `existing` is given) a notification. preset fixes fields such as
 * {scope:'group', group_id} for a group owner. Resolves true when saved.
 */
export async function noticeDialog(preset = {}, existing = null) {
  const n = { scope: 'system', pinned: false, strong: false, ...existing, ...preset };
  const scope = select('scope', [['system', 'System announcement'], ['group', 'Group notice'], ['personal', 'Personal reminder']], n.scope, { disabled: !!preset.scope });
  const title = h('input', { name: 'title', required: true, maxlength: 100, value: n.title || '' });
  const content = h('textarea', { name: 'content', required: true, maxlength: 5000, rows: 5 }, n.content || '');
  const link = h('input', { name: 'link_url', value: n.link_url || '', placeholder: 'https://… or /books' });
  const image = h('input', { name: 'image_url', value: n.image_url || '', placeholder: 'https://…' });
  const pinned = h('input', { type: 'checkbox', name: 'pinned', checked: !!n.pinned });
  const strong = h('input', { type: 'checkbox', name: 'strong', checked: !!n.strong });
  const publishAt = h('input', { type: 'datetime-local', name: 'publish_at', value: toLocalInput(n.publish_at) });
  const expireAt = h('input', { type: 'datetime-local', name: 'expire_at', value: toLocalInput(n.expire_at) });
  const groupId = h('input', { type: 'number', name: 'group_id', min: 1, value: n.group_id ?? '', disabled: !!preset.group_id });
  const userId = h('input', { type: 'number', name: 'user_id', min: 1, value: n.user_id ?? '' });
  const groupField = field('Group id', groupId);
  const userField = field('User id', userId);
  const sync = () => {
    groupField.hidden = scope.value !== 'group';
    userField.hidden = scope.value !== 'personal';
  };
  scope.addEventListener('change', sync);
  sync();
  const saved = await formDialog(existing ? 'Edit notification' : 'Publish a notification', [
    field('Scope', scope), groupField, userField, field('Title', title), field('Content', content),
    h('div.grid2', null, field('Link (optional)', link), field('Image URL (optional)', image)),
    h('div.grid2', null, field('Publish at (empty: now)', publishAt), field('Expires at (empty: never)', expireAt)),
    h('div.row', null, h('label.check', null, pinned, ' Pinned'), h('label.check', null, strong, ' Important (pops up)')),
  ], async () => {
    for (const [input, label] of [[link, 'Link'], [image, 'Image URL']]) {
      if (input.value.trim() && !safeLink(input.value.trim())) throw new Error(`${label} must start with https://, http:// or a single /`);
    }
    const body = {
      scope: scope.value, title: title.value.trim(), content: content.value.trim(), pinned: pinned.checked, strong: strong.checked,
      link_url: link.value.trim(), image_url: image.value.trim(),
      publish_at: publishAt.value ? new Date(publishAt.value).toISOString() : '',
      expire_at: expireAt.value ? new Date(expireAt.value).toISOString() : '',
    };
    // An empty optional field is left out, or cleared with null when an edit removes a value.
    for (const k of ['link_url', 'image_url', 'publish_at', 'expire_at']) {
      if (body[k]) continue;
      if (existing && existing[k]) body[k] = null;
      else delete body[k];
    }
    if (body.scope === 'group') body.group_id = Number(groupId.value) || undefined;
    if (body.scope === 'personal') body.user_id = Number(userId.value) || undefined;
    if (existing) return api(`/api/notifications/${existing.id}`, { method: 'PUT', body });
    return api('/api/notifications', { method: 'POST', body });
  }, { submitLabel: existing ? 'Save' : 'Publish' });
  if (saved) toast(existing ? 'Notification saved' : 'Notification published');
  return !!saved;
}

export async function feedbackView(root) {
  let page = 1;
  const list = h('div');
  const content = h('textarea', { name: 'content', required: true, maxlength: 2000, rows: 4, placeholder: 'What works, what does not, what you miss…' });
  const contact = h('input', { name: 'contact', maxlength: 100, placeholder: 'Optional: how to reach you' });
  const form = h('form.card.stack', null, h('h2', null, 'Send feedback'), field('Message', content), field('Contact', contact), h('div.row.end', null, h('button.primary', { type: 'submit' }, 'Send')));
  form.addEventListener('submit', action(async (e) => {
    e.preventDefault();
    const body = { content: content.value.trim() };
    if (contact.value.trim()) body.contact = contact.value.trim();
    await api('/api/feedback', { method: 'POST', body });
    form.reset();
    toast('Thank you! Your feedback was sent.');
    page = 1;
    await load();
  }));
  set(root, h('div.head', null, h('h1', null, 'Feedback')), form, h('h2', null, 'Your feedback'), list);

  async function load() {
    loading(list);
    const res = await api('/api/feedback/mine', { query: { page, pageSize: PAGE_SIZE } }).catch((e) => e);
    if (res instanceof Error) return set(list, h('p.error', null, res.message));
    set(
      list,
      res.list.length
        ? h('div.stack', null, res.list.map((f) =>
          h('article.card', null,
            h('div.row', null, h('span.small.muted.grow', null, when(f.created_at)), h('span.pill', { class: f.status }, f.status)),
            h('p.pre', null, f.content),
            f.reply ? h('blockquote', null, h('strong', null, 'Reply'), h('span.small.muted', null, ` · ${when(f.replied_at)}`), h('p.pre', null, f.reply)) : null,
          )))
        : empty('You have not sent any feedback yet.'),
      pager(res.total, page, PAGE_SIZE, (p) => ((page = p), load())),
    );
    return undefined;
  }
  await load();
}
