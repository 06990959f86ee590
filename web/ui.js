// DOM helpers. Every piece of text goes in through text nodes or attributes, never as markup.
import { api } from './api.js';

const Node = globalThis.Node;
const PROPS = new Set(['value', 'checked', 'disabled', 'selected', 'hidden', 'multiple', 'required', 'open']);

/** h('tag.class', {attr, onclick}, ...children): builds an element; strings become text nodes. */
export function h(tag, props, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.classList.add(...String(v).split(/\s+/).filter(Boolean));
      else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
      else if (PROPS.has(k)) el[k] = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  add(el, children);
  return el;
}

/** Replaces an element's content; like h(), it skips null/false children instead of printing them. */
export function set(el, ...children) {
  el.replaceChildren();
  add(el, children);
  return el;
}

function add(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) add(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}


/** Links from data are used only when they are http(s) or an in-app path with a single slash. */
export function safeLink(url) {
  if (typeof url !== 'string') return null;
  if (/^https?:\/\//i.test(url)) return url;
  if (/^\/(?![/\\])/.test(url)) return url;
  return null;
}

const moneyFmt = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const money = (n) => (n === null || n === undefined ? '—' : moneyFmt.format(Number(n)));
export const pct = (n) => (n === null || n === undefined ? '—' : `${n > 0 ? '+' : ''}${n}%`);
export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');

/** A positive amount with at most 2 decimals and 12 integer digits, sent as the typed string. */
export function validAmount(s) {
  return /^\d{1,12}(\.\d{1,2})?$/.test(String(s).trim()) && Number(s) > 0;
}

export function todayIn(tz) {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: tz || undefined, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  }
}

export function shiftDate(date, { days = 0, months = 0 }) {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1 + months, months ? Math.min(d, 28) : d + days));
  return t.toISOString().slice(0, 10);
}

// ---------- feedback to the user ----------

export function toast(message, kind = 'info') {
  const box = document.getElementById('toasts');
  const el = h('div.toast', { class: kind, role: kind === 'error' ? 'alert' : 'status' }, message);
  box.append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3000);
}

export function errorText(err) {
  if (!err) return 'Something went wrong';
  const details = Array.isArray(err.body?.details) ? err.body.details.map((d) => `${d.field} ${d.message}`) : [];
  const main = err.message || 'Something went wrong';
  return details.length && !details.some((d) => main.includes(d)) ? `${main} (${details.join('; ')})` : main;
}

export function showError(err) {
  if (err && err.status === 401) return;
  toast(errorText(err), 'error');
}

/** Runs an async action from a button, disabling it meanwhile and reporting errors. */
export function action(fn, okMessage) {
  return async (event) => {
    const target = event && event.currentTarget;
    // a form's submit button stands for the form, so a second submit cannot start meanwhile
    const btn = target && target.tagName === 'FORM' ? target.querySelector('[type=submit]') : target;
    if (btn) btn.disabled = true;
    try {
      await fn(event);
      if (okMessage) toast(okMessage);
    } catch (err) {
      showError(err);
    } finally {
      if (btn) btn.disabled = false;
    }
  };
}

// ---------- dialogs ----------

/**
 * A modal form. fields: elements placed in the form. onSubmit(formData, form) may throw: its
 * message is shown inside the dialog. Resolves with onSubmit's result, or null when cancelled.
 */
export function formDialog(title, fields, onSubmit, { submitLabel = 'Save', danger = false } = {}) {
  return new Promise((resolve) => {
    const error = h('p.error', { hidden: true });
    const submit = h('button', { type: 'submit', class: danger ? 'danger' : 'primary' }, submitLabel);
    const cancel = h('button', { type: 'button', onclick: () => dialog.close() }, 'Cancel');
    let result = null;
    const form = h('form.stack', { method: 'dialog' }, h('h2', null, title), fields, error, h('div.row.end', null, cancel, submit));
    const dialog = h('dialog', null, form);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      submit.disabled = true;
      error.hidden = true;
      try {
        result = (await onSubmit(new FormData(form), form)) ?? true;
        dialog.close();
      } catch (err) {
        error.textContent = errorText(err);
        error.hidden = false;
      } finally {
        submit.disabled = false;
      }
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

export function confirmDialog(message, { title = 'Please confirm', label = 'OK', danger = true } = {}) {
  return formDialog(title, h('p', null, message), async () => true, { submitLabel: label, danger });
}

export async function promptDialog(title, label, { value = '', maxlength, required = true, type = 'text', hint } = {}) {
  let out = null;
  const ok = await formDialog(title, [hint ? h('p.muted', null, hint) : null, field(label, h('input', { name: 'v', type, value, maxlength, required, autofocus: true }))], async (fd) => {
    out = String(fd.get('v') ?? '').trim();
  });
  return ok ? out : null;
}

export function infoDialog(title, ...content) {
  const dialog = h('dialog', null, h('div.stack', null, h('h2', null, title), content, h('div.row.end', null, h('button.primary', { type: 'button', onclick: () => dialog.close() }, 'Close'))));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

// ---------- form pieces ----------

export function field(label, input, hint) {
  return h('label.field', null, h('span', null, label), input, hint ? h('small.muted', null, hint) : null);
}

export function select(name, options, value, props = {}) {
  return h(
    'select',
    { name, ...props },
    options.map(([v, text]) => h('option', { value: String(v), selected: String(v) === String(value ?? '') }, text)),
  );
}

/** Toggle chips for a multi-choice (categories, tags); returns {el, values()}. */
export function chips(items, chosen = [], { max } = {}) {
  const picked = new Set(chosen.map(Number));
  const el = h('div.chips');
  for (const it of items) {
    const b = h('button.chip', { type: 'button', 'aria-pressed': String(picked.has(it.id)), style: it.color ? { '--c': it.color } : null }, it.name);
    b.addEventListener('click', () => {
      if (picked.has(it.id)) picked.delete(it.id);
      else if (!max || picked.size < max) picked.add(it.id);
      else return toast(`At most ${max}`, 'error');
      b.setAttribute('aria-pressed', String(picked.has(it.id)));
    });
    el.append(b);
  }
  if (!items.length) el.append(h('span.muted', null, 'None yet'));
  return { el, values: () => [...picked] };
}

export function pager(total, page, pageSize, go) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return h('p.muted.small', null, `${total} item${total === 1 ? '' : 's'}`);
  return h(
    'nav.pager',
    { 'aria-label': 'Pages' },
    h('button', { type: 'button', disabled: page <= 1, onclick: () => go(page - 1) }, '‹ Prev'),
    h('span', null, `Page ${page} of ${pages} · ${total} items`),
    h('button', { type: 'button', disabled: page >= pages, onclick: () => go(page + 1) }, 'Next ›'),
  );
}

export function swatch(color) {
  return h('span.swatch', { style: { background: /^#[0-9a-f]{6}$/i.test(color || '') ? color : '#999999' } });
}

export function avatar(url, cls = 'avatar') {
  const src = safeLink(url);
  return src ? h(`img.${cls}`, { src, alt: '' }) : h(`span.${cls}.placeholder`, { 'aria-hidden': 'true' });
}

export function empty(text) {
  return h('p.empty', null, text);
}

export function loading(root) {
  set(root, h('p.muted', null, 'Loading…'));
}

// ---------- session state shared by the views ----------

/** Set by the shell: page navigation, re-render of the current page, notification badge. */
export const hooks = { navigate: () => {}, refresh: () => {}, updateBadge: () => {} };

export const state = {
  me: null,
  groups: [],
  groupId: null,
  cache: new Map(),
};

/** The selected group, or null for the personal books. */
export function currentGroup() {
  return state.groups.find((g) => g.id === state.groupId) || null;
}

export function setGroup(id) {
  state.groupId = id ? Number(id) : null;
  if (state.groupId) localStorage.setItem('ledger.group', String(state.groupId));
  else localStorage.removeItem('ledger.group');
}

export async function loadGroups() {
  const res = await api('/api/groups');
  state.groups = res.list || [];
  const saved = Number(localStorage.getItem('ledger.group')) || null;
  setGroup(state.groups.some((g) => g.id === saved) ? saved : null);
  return state.groups;
}

/** Categories and tags change rarely; views share one cached copy until they are edited. */
export async function categories(kind) {
  if (!state.cache.has('categories')) state.cache.set('categories', api('/api/categories').then((r) => r.list || []));
  try {
    const all = await state.cache.get('categories');
    return kind ? all.filter((c) => c.kind === kind) : all;
  } catch (err) {
    state.cache.delete('categories');
    throw err;
  }
}

export async function tags() {
  if (!state.cache.has('tags')) state.cache.set('tags', api('/api/tags').then((r) => r.list || []));
  try {
    return await state.cache.get('tags');
  } catch (err) {
    state.cache.delete('tags');
    throw err;
  }
}

export function invalidate(...keys) {
  for (const k of keys) state.cache.delete(k);
}

export function today() {
  return todayIn(state.me && state.me.timezone);
}
