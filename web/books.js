// Books: the filtered, paginated transaction list with totals, the entry form and saved filters.
import { api, idempotencyKey } from './api.js';
import {
  h, set, field, select, chips, pager, swatch, empty, loading, money, action, formDialog, confirmDialog, promptDialog,
  toast, validAmount, state, currentGroup, categories, tags, today, shiftDate,
} from './ui.js';

export function monthRange(date) {
  const start = `${date.slice(0, 7)}-01`;
  return { start, end: shiftDate(shiftDate(start, { months: 1 }), { days: -1 }) };
}

const KINDS = [['expense', 'Expense'], ['income', 'Income']];
let filters = null;
let page = 1;
let shownGroup = null;
const PAGE_SIZE = 20;

function defaultFilters() {
  const { start, end } = monthRange(today());
  return { startDate: start, endDate: end, kind: 'all', category_ids: [], tag_ids: [], min_amount: '', max_amount: '', keyword: '', sort: 'date_desc', user_id: '' };
}

/**
 * The fields shared by a transaction and a recurring rule: kind, amount, category (with
 * suggestions from the note and amount), note, tags and group. read() validates and returns
 * the body fields.
 */
export async function entryFields(initial = {}) {
  const [allCats, allTags] = await Promise.all([categories(), tags()]);
  const kind = select('kind', KINDS, initial.kind || 'expense', { required: true });
  const amount = h('input', { name: 'amount', inputmode: 'decimal', required: true, value: initial.amount ?? '', placeholder: '0.00', autocomplete: 'off' });
  const category = h('select', { name: 'category_id', required: true });
  const note = h('input', { name: 'note', maxlength: 200, value: initial.note || '' });
  const suggest = h('div.chips.suggest');
  const tagIds = initial.tag_ids || (initial.tags || []).map((t) => t.id);
  const tagPick = chips(allTags, tagIds, { max: 10 });
  const groups = state.groups.map((g) => [g.id, g.name]);
  // a record of a group the user left or that was dissolved keeps its group unless changed
  if (initial.group_id && !state.groups.some((g) => g.id === initial.group_id)) groups.push([initial.group_id, `Group #${initial.group_id} (no longer active)`]);
  const groupVal = initial.id ? initial.group_id : (initial.group_id ?? state.groupId);
  const group = select('group_id', [['', 'Personal'], ...groups], groupVal ?? '');
  const fillCategories = () => {
    const list = allCats.filter((c) => c.kind === kind.value);
    const keep = category.value || initial.category_id;
    set(category, ...list.map((c) => h('option', { value: String(c.id), selected: String(c.id) === String(keep) }, c.name)));
  };
  fillCategories();
  kind.addEventListener('change', () => {
    category.value = '';
    fillCategories();
  });
  const loadSuggestions = async () => {
    if (!note.value.trim() && !validAmount(amount.value)) return suggest.replaceChildren();
    try {
      const res = await api('/api/categories/suggest', { query: { kind: kind.value, amount: validAmount(amount.value) ? amount.value.trim() : '', note: note.value.trim() } });
      set(
        suggest,
        ...(res.list || []).map((s) =>
          h('button.chip', { type: 'button', style: { '--c': s.color }, onclick: () => (category.value = String(s.category_id)) }, `Suggested: ${s.name}`),
        ),
      );
    } catch {
      suggest.replaceChildren();
    }
  };
  note.addEventListener('change', loadSuggestions);
  amount.addEventListener('change', loadSuggestions);
  const fields = [
    h('div.grid2', null, field('Kind', kind), field('Amount', amount)),
    field('Category', category),
    suggest,
    field('Note', note),
    h('div.field', null, h('span', null, 'Tags (up to 10)'), tagPick.el),
    groups.length ? field('Record in', group) : null,
  ];
  const read = () => {
    if (!validAmount(amount.value)) throw new Error('Amount must be a positive number with at most 2 decimals');
    if (!category.value) throw new Error('Choose a category (create one under Categories & tags)');
    return {
      kind: kind.value,
      amount: amount.value.trim(),
      category_id: Number(category.value),
      note: note.value.trim(),
      tag_ids: tagPick.values(),
      group_id: group.value ? Number(group.value) : null,
    };
  };
  return { fields, read };
}

export async function transactionDialog(tx, onDone) {
  const entry = await entryFields(tx || {});
  const date = h('input', { type: 'date', name: 'date', required: true, value: tx ? tx.date : today() });
  const key = idempotencyKey();
  const saved = await formDialog(tx ? 'Edit transaction' : 'New transaction', [...entry.fields, field('Date', date)], async () => {
    const body = { ...entry.read(), date: date.value };
    if (tx) {
      if (body.group_id === (tx.group_id ?? null)) delete body.group_id;
      return api(`/api/transactions/${tx.id}`, { method: 'PUT', body });
    }
    if (body.group_id === null) delete body.group_id;
    return api('/api/transactions', { method: 'POST', body, headers: { 'Idempotency-Key': key } });
  });
  if (saved) {
    toast(tx ? 'Transaction saved' : 'Transaction added');
    onDone();
  }
}

function listQuery() {
  const f = filters;
  return {
    startDate: f.startDate, endDate: f.endDate, kind: f.kind, category_ids: f.category_ids, tag_ids: f.tag_ids,
    min_amount: f.min_amount, max_amount: f.max_amount, keyword: f.keyword, sort: f.sort,
    group_id: state.groupId, user_id: state.groupId ? f.user_id : '', page, pageSize: PAGE_SIZE,
  };
}

/** Saved schemes store id lists as number arrays and amount bounds as numbers. */
function criteriaOf(f) {
  const c = {};
  for (const k of ['startDate', 'endDate', 'kind', 'keyword', 'sort']) if (f[k]) c[k] = f[k];
  for (const k of ['category_ids', 'tag_ids']) if (f[k].length) c[k] = f[k].map(Number);
  for (const k of ['min_amount', 'max_amount']) if (f[k] !== '') c[k] = Number(f[k]);
  return c;
}

function applyCriteria(c) {
  const base = { ...defaultFilters(), startDate: '', endDate: '' };
  const list = (v) => (Array.isArray(v) ? v : String(v || '').split(',')).map(Number).filter(Boolean);
  filters = {
    ...base,
    ...c,
    category_ids: list(c.category_ids),
    tag_ids: list(c.tag_ids),
    min_amount: c.min_amount ?? '',
    max_amount: c.max_amount ?? '',
    user_id: '',
  };
  page = 1;
}

export async function booksView(root) {
  if (!filters) filters = defaultFilters();
  if (shownGroup !== state.groupId) {
    // another book: start at its first page, for every member
    shownGroup = state.groupId;
    page = 1;
    filters.user_id = '';
  }
  const group = currentGroup();
  const [allCats, allTags, schemes, members] = await Promise.all([
    categories(),
    tags(),
    api('/api/filters').then((r) => r.list || []).catch(() => []),
    group ? api(`/api/groups/${group.id}/members`).then((r) => r.list || []).catch(() => []) : [],
  ]);

  const results = h('div.results');
  const reload = () => booksView(root);

  // ----- filter form -----
  const f = filters;
  const catPick = chips(allCats.map((c) => ({ ...c, name: `${c.name}${f.kind === 'all' ? (c.kind === 'income' ? ' (in)' : '') : ''}` })).filter((c) => f.kind === 'all' || c.kind === f.kind), f.category_ids);
  const tagPick = chips(allTags, f.tag_ids);
  const form = h(
    'form.filters',
    null,
    h(
      'div.grid4',
      null,
      field('From', h('input', { type: 'date', name: 'startDate', value: f.startDate })),
      field('To', h('input', { type: 'date', name: 'endDate', value: f.endDate })),
      field('Kind', select('kind', [['all', 'All'], ...KINDS], f.kind)),
      field('Sort', select('sort', [['date_desc', 'Newest first'], ['date_asc', 'Oldest first'], ['amount_desc', 'Largest first'], ['amount_asc', 'Smallest first']], f.sort)),
      field('Min amount', h('input', { name: 'min_amount', inputmode: 'decimal', value: f.min_amount })),
      field('Max amount', h('input', { name: 'max_amount', inputmode: 'decimal', value: f.max_amount })),
      field('Keyword in note', h('input', { name: 'keyword', type: 'search', value: f.keyword, maxlength: 100 })),
      group ? field('Member', select('user_id', [['', 'Everyone'], ...members.map((m) => [m.user_id, m.nickname])], f.user_id)) : null,
    ),
    h('div.field', null, h('span', null, 'Categories (any of)'), catPick.el),
    h('div.field', null, h('span', null, 'Tags (any of)'), tagPick.el),
    h(
      'div.row',
      null,
      h('button.primary', { type: 'submit' }, 'Apply'),
      h('button', { type: 'button', onclick: () => ((filters = defaultFilters()), (page = 1), reload()) }, 'This month'),
      h('button', { type: 'button', onclick: () => ((filters = { ...defaultFilters(), startDate: '', endDate: '' }), (page = 1), reload()) }, 'Clear all'),
      h('span.grow'),
      h('button', { type: 'button', onclick: action(saveScheme) }, 'Save as scheme…'),
    ),
  );
  form.kind.addEventListener('change', () => {
    filters = { ...readForm(), category_ids: [] };
    reload();
  });
  function readForm() {
    const fd = new FormData(form);
    const bound = (k) => String(fd.get(k) || '').trim();
    return {
      startDate: String(fd.get('startDate') || ''), endDate: String(fd.get('endDate') || ''), kind: String(fd.get('kind')),
      sort: String(fd.get('sort')), keyword: String(fd.get('keyword') || '').trim(), min_amount: bound('min_amount'),
      max_amount: bound('max_amount'), user_id: String(fd.get('user_id') || ''), category_ids: catPick.values(), tag_ids: tagPick.values(),
    };
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = readForm();
    for (const k of ['min_amount', 'max_amount']) {
      if (next[k] !== '' && !/^\d{1,12}(\.\d{1,2})?$/.test(next[k])) return toast(`${k.replace('_', ' ')} must be a number >= 0`, 'error');
    }
    filters = next;
    page = 1;
    return loadList();
  });
  async function saveScheme() {
    filters = readForm();
    const name = await promptDialog('Save filter scheme', 'Name', { maxlength: 30 });
    if (!name) return;
    await api('/api/filters', { method: 'POST', body: { name, criteria: criteriaOf(filters) } });
    toast('Filter scheme saved');
    reload();
  }

  const schemeSel = select('scheme', [['', schemes.length ? 'Saved schemes…' : 'No saved schemes'], ...schemes.map((s) => [s.id, s.name])], '');
  schemeSel.addEventListener('change', () => {
    const s = schemes.find((x) => String(x.id) === schemeSel.value);
    if (!s) return;
    applyCriteria(s.criteria || {});
    reload();
  });
  const delScheme = h('button', {
    type: 'button',
    onclick: action(async () => {
      const s = schemes.find((x) => String(x.id) === schemeSel.value);
      if (!s) return toast('Choose a scheme first', 'error');
      if (!(await confirmDialog(`Delete the filter scheme “${s.name}”?`, { label: 'Delete' }))) return undefined;
      await api(`/api/filters/${s.id}`, { method: 'DELETE' });
      toast('Scheme deleted');
      return reload();
    }),
  }, 'Delete scheme');

  const activeCount = criteriaOf(f);
  delete activeCount.sort;
  if (activeCount.kind === 'all') delete activeCount.kind;
  set(
    root,
    h(
      'div.head',
      null,
      h('h1', null, group ? `Books · ${group.name}` : 'Books'),
      h('span.grow'),
      h('button.primary', { type: 'button', onclick: () => transactionDialog(null, loadList) }, '+ Add transaction'),
    ),
    h('div.row.wrap', null, schemeSel, delScheme),
    h('details.card', { open: Object.keys(activeCount).length > 2 }, h('summary', null, `Filters (${Object.keys(activeCount).length} active)`), form),
    results,
  );

  async function loadList() {
    loading(results);
    const res = await api('/api/transactions', { query: listQuery() }).catch((err) => err);
    if (res instanceof Error) return set(results, h('p.error', null, res.message));
    const s = res.sums || {};
    set(
      results,
      h(
        'div.figures',
        null,
        figure('Income', money(s.income), 'income'),
        figure('Expense', money(s.expense), 'expense'),
        figure('Balance', money(s.balance)),
        figure('Count', String(s.count ?? res.total)),
      ),
      res.list.length ? h('ul.txlist', null, res.list.map(row)) : empty('No transactions match these filters.'),
      pager(res.total, page, PAGE_SIZE, (p) => {
        page = p;
        loadList();
      }),
    );
    return undefined;
  }

  function row(tx) {
    const mine = tx.user_id === state.me.id;
    const cat = tx.category || {};
    return h(
      'li.tx',
      null,
      h('div.txmain', null,
        h('div', null, swatch(cat.color), h('strong', null, cat.name || 'Uncategorised'), tx.recurring_id ? h('span.pill', null, 'recurring') : null),
        tx.note ? h('div.note', null, tx.note) : null,
        h('div.small.muted', null, tx.date, group && tx.owner ? ` · ${tx.owner.nickname}` : '', !group && tx.group_id ? ` · ${groupName(tx.group_id)}` : '',
          (tx.tags || []).map((t) => h('span.tag', null, `#${t.name}`))),
      ),
      h('div.txside', null,
        h('span.amount', { class: tx.kind }, `${tx.kind === 'expense' ? '−' : '+'}${money(tx.amount)}`),
        mine
          ? h('div.row', null,
            h('button.small', { type: 'button', onclick: () => transactionDialog(tx, loadList) }, 'Edit'),
            h('button.small.danger', {
              type: 'button',
              onclick: action(async () => {
                if (!(await confirmDialog(`Delete this ${tx.kind} of ${money(tx.amount)} on ${tx.date}?`, { label: 'Delete' }))) return;
                await api(`/api/transactions/${tx.id}`, { method: 'DELETE' });
                toast('Transaction deleted');
                await loadList();
              }),
            }, 'Delete'))
          : null,
      ),
    );
  }

  await loadList();
}

function groupName(id) {
  const g = state.groups.find((x) => x.id === id);
  return g ? g.name : `group #${id}`;
}

export function figure(label, value, cls) {
  return h('div.figure', null, h('span.small.muted', null, label), h('strong', { class: cls }, value));
}
