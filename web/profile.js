// Profile, recurring bills, and import/export.
import { api, idempotencyKey } from './api.js';
import { h, set, field, select, empty, action, formDialog, confirmDialog, toast, when, safeLink, avatar, money, state, categories, invalidate, today, hooks } from './ui.js';
import { entryFields, monthRange } from './books.js';

export async function profileView(root) {
  const me = (state.me = await api('/api/me'));
  const nickname = h('input', { name: 'nickname', required: true, maxlength: 30, value: me.nickname });
  const slogan = h('input', { name: 'slogan', maxlength: 60, value: me.slogan || '' });
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const timezone = h('input', { name: 'timezone', list: 'tz-list', value: me.timezone || '', placeholder: 'Server default', autocomplete: 'off' });
  const form = h(
    'form.card.stack',
    null,
    h('h2', null, 'Your details'),
    field('Nickname', nickname),
    field('Slogan', slogan),
    field('Time zone', timezone, 'Decides what “today” means for your books. Empty: the service default.'),
    h('datalist', { id: 'tz-list' }, zones.map((z) => h('option', { value: z }))),
    h('div.row.end', null, h('button.primary', { type: 'submit' }, 'Save')),
  );
  form.addEventListener('submit', action(async (e) => {
    e.preventDefault();
    state.me = await api('/api/me', { method: 'PUT', body: { nickname: nickname.value.trim(), slogan: slogan.value.trim(), timezone: timezone.value.trim() || null } });
    toast('Profile saved');
    hooks.refresh();
  }));

  const file = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/webp,image/gif', hidden: true });
  file.addEventListener('change', action(async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    if (f.size > 2 * 1024 * 1024) throw new Error('The image must be at most 2 MiB');
    const fd = new FormData();
    fd.append('file', f);
    const res = await api('/api/me/avatar', { method: 'POST', form: fd });
    state.me.avatar_url = res.avatar_url;
    toast('Avatar updated');
    hooks.refresh();
  }));

  set(
    root,
    h('div.head', null, h('h1', null, 'Profile')),
    h(
      'section.card.row.wrap',
      null,
      avatar(me.avatar_url, 'avatar.big'),
      h('div.grow', null, h('h2', null, me.nickname), me.slogan ? h('p.muted', null, me.slogan) : null,
        h('p.small.muted', null, `User #${me.id} · ${me.role}${me.is_demo ? ' · demo account' : ''} · since ${when(me.created_at)}`)),
      h('button', { type: 'button', onclick: () => file.click() }, 'Change avatar'),
      file,
    ),
    form,
  );
}

// ---------- recurring bills ----------

const FREQ = [['daily', 'day'], ['weekly', 'week'], ['monthly', 'month'], ['yearly', 'year']];

async function ruleDialog(rule, done) {
  const entry = await entryFields(rule || {});
  const frequency = select('frequency', FREQ.map(([v, u]) => [v, `Every … ${u}(s)`]), rule ? rule.frequency : 'monthly');
  const interval = h('input', { type: 'number', name: 'interval', min: 1, max: 365, required: true, value: rule ? rule.interval : 1 });
  const start = h('input', { type: 'date', name: 'start_date', required: true, value: rule ? rule.start_date : today() });
  const end = h('input', { type: 'date', name: 'end_date', value: rule?.end_date || '' });
  const saved = await formDialog(rule ? 'Edit recurring bill' : 'New recurring bill', [
    ...entry.fields,
    h('div.grid2', null, field('Repeat', frequency), field('Interval', interval)),
    h('div.grid2', null, field('First date', start), field('Last date (optional)', end)),
  ], async () => {
    const body = { ...entry.read(), frequency: frequency.value, interval: Number(interval.value), start_date: start.value };
    if (end.value) body.end_date = end.value;
    else if (rule && rule.end_date) body.end_date = null;
    if (body.group_id === null && !(rule && rule.group_id)) delete body.group_id;
    if (rule) return api(`/api/recurring/${rule.id}`, { method: 'PUT', body });
    return api('/api/recurring', { method: 'POST', body });
  });
  if (saved) {
    toast('Recurring bill saved');
    done();
  }
}

export async function recurringView(root) {
  const [res, cats] = await Promise.all([api('/api/recurring'), categories()]);
  const reload = () => recurringView(root);
  const catName = (id) => cats.find((c) => c.id === id)?.name || '';
  const unit = (r) => FREQ.find(([v]) => v === r.frequency)?.[1] || r.frequency;
  set(
    root,
    h('div.head', null, h('h1', null, 'Recurring bills'), h('span.grow'), h('button.primary', { type: 'button', onclick: () => ruleDialog(null, reload) }, '+ Add')),
    h('p.muted', null, 'Rent, subscriptions or salary: the transactions are created automatically on their dates. A paused bill skips the dates it was paused over.'),
    res.list.length
      ? h('ul.items.card', null, res.list.map((r) =>
        h('li', { class: r.active ? null : 'paused' },
          h('div.grow', null,
            h('strong', null, catName(r.category_id)), r.note ? ` · ${r.note}` : '',
            h('div.small.muted', null, `Every ${r.interval > 1 ? `${r.interval} ${unit(r)}s` : unit(r)} from ${r.start_date}${r.end_date ? ` to ${r.end_date}` : ''} · `,
              r.active ? `next ${r.next_date || '—'}` : 'paused'),
          ),
          h('span.amount', { class: r.kind }, `${r.kind === 'expense' ? '−' : '+'}${money(r.amount)}`),
          h('button.small', { type: 'button', onclick: () => ruleDialog(r, reload) }, 'Edit'),
          h('button.small', {
            type: 'button',
            onclick: action(async () => {
              await api(`/api/recurring/${r.id}`, { method: 'PUT', body: { active: !r.active } });
              toast(r.active ? 'Paused' : 'Resumed');
              await reload();
            }),
          }, r.active ? 'Pause' : 'Resume'),
          h('button.small.danger', {
            type: 'button',
            onclick: action(async () => {
              if (!(await confirmDialog('Delete this recurring bill? Transactions it already created stay.', { label: 'Delete' }))) return;
              await api(`/api/recurring/${r.id}`, { method: 'DELETE' });
              toast('Deleted');
              await reload();
            }),
          }, 'Delete'),
        )))
      : empty('No recurring bills yet.'),
  );
}

// ---------- import and export ----------

export async function dataView(root) {
  const { start, end } = monthRange(today());
  const from = h('input', { type: 'date', name: 'startDate', required: true, value: start });
  const to = h('input', { type: 'date', name: 'endDate', required: true, value: end });
  const type = select('type', [['all', 'All'], ['expense', 'Expenses'], ['income', 'Income']], 'all');
  const format = select('format', [['csv', 'CSV (opens in Excel)'], ['json', 'JSON']], 'csv');
  const exportForm = h('form.card.stack', null, h('h2', null, 'Export'), h('div.grid4', null, field('From', from), field('To', to), field('Kind', type), field('Format', format)),
    h('div.row.end', null, h('button.primary', { type: 'submit' }, 'Download')));
  exportForm.addEventListener('submit', action(async (e) => {
    e.preventDefault();
    const res = await api('/api/export/prepare', { method: 'POST', body: { startDate: from.value, endDate: to.value, type: type.value, format: format.value } });
    const url = safeLink(res.downloadUrl);
    if (!url) throw new Error('The service did not answer a download link');
    location.href = url;
  }));

  const file = h('input', { type: 'file', name: 'file', required: true, accept: '.csv,.json,text/csv,application/json' });
  const dry = h('input', { type: 'checkbox', name: 'dry_run', checked: true });
  const result = h('div');
  const importForm = h('form.card.stack', null, h('h2', null, 'Import'),
    h('p.muted.small', null, 'A CSV or JSON file as exported here (columns date, kind, amount, category, note, tags, group_id, created_at). Rows you already have are skipped; unknown categories are created. If any row is invalid, nothing is imported.'),
    field('File', file), h('label.check', null, dry, ' Check only (dry run), import nothing'),
    h('div.row.end', null, h('button.primary', { type: 'submit' }, 'Upload')), result);
  importForm.addEventListener('submit', action(async (e) => {
    e.preventDefault();
    const f = file.files && file.files[0];
    if (!f) throw new Error('Choose a file first');
    const fd = new FormData();
    fd.append('file', f);
    try {
      const res = await api('/api/import', { method: 'POST', form: fd, query: { dry_run: dry.checked ? 'true' : '' }, headers: dry.checked ? {} : { 'Idempotency-Key': idempotencyKey() } });
      showResult(res, dry.checked);
      if (!dry.checked) invalidate('categories');
    } catch (err) {
      if (err.code === 42203) return showResult({ imported: 0, skipped: 0, errors: err.body.errors || [] }, false, err.message);
      throw err;
    }
    return undefined;
  }));
  function showResult(r, dryRun, message) {
    const errors = r.errors || [];
    set(
      result,
      h('p', { class: errors.length ? 'error' : 'ok' }, message || (dryRun
        ? `Check complete: ${r.imported} row(s) would be imported, ${r.skipped} skipped as duplicates.`
        : `Imported ${r.imported} row(s); ${r.skipped} skipped as duplicates.`)),
      errors.length ? h('ul.errors', null, errors.slice(0, 200).map((x) => h('li', null, `Row ${x.row}: ${x.message}`))) : null,
      errors.length > 200 ? h('p.small.muted', null, `…and ${errors.length - 200} more`) : null,
    );
  }

  set(root, h('div.head', null, h('h1', null, 'Import & export')), exportForm, importForm);
}
