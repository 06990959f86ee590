// Statistics: one summary request per view, drawn with plain CSS bars.
import { api } from './api.js';
import { h, set, select, swatch, empty, loading, money, pct, state, currentGroup, tags, today, shiftDate } from './ui.js';
import { figure } from './books.js';

const opts = { period: 'month', type: 'expense', date: null, tag_id: '' };

export async function statsView(root) {
  if (!opts.date) opts.date = today();
  const group = currentGroup();
  const allTags = await tags().catch(() => []);
  const body = h('div');
  const period = select('period', [['week', 'Week'], ['month', 'Month'], ['year', 'Year']], opts.period);
  const type = select('type', [['expense', 'Expenses'], ['income', 'Income']], opts.type);
  const tag = select('tag_id', [['', 'All tags'], ...allTags.map((t) => [t.id, `#${t.name}`])], opts.tag_id);
  const label = h('strong.period');
  const step = (dir) => {
    opts.date = opts.period === 'week' ? shiftDate(opts.date, { days: 7 * dir }) : shiftDate(opts.date, { months: (opts.period === 'year' ? 12 : 1) * dir });
    load();
  };
  for (const [el, key] of [[period, 'period'], [type, 'type'], [tag, 'tag_id']]) {
    el.addEventListener('change', () => {
      opts[key] = el.value;
      load();
    });
  }
  set(
    root,
    h('div.head', null, h('h1', null, group ? `Statistics · ${group.name}` : 'Statistics')),
    h(
      'div.row.wrap.card',
      null,
      period,
      type,
      allTags.length ? tag : null,
      h('span.grow'),
      h('button', { type: 'button', onclick: () => step(-1), 'aria-label': 'Previous period' }, '‹'),
      label,
      h('button', { type: 'button', onclick: () => step(1), 'aria-label': 'Next period' }, '›'),
      h('button', { type: 'button', onclick: () => ((opts.date = today()), load()) }, 'Today'),
    ),
    body,
  );

  async function load() {
    loading(body);
    let s;
    try {
      s = await api('/api/stats/summary', { query: { period: opts.period, type: opts.type, date: opts.date, group_id: state.groupId, tag_id: opts.tag_id } });
    } catch (err) {
      set(body, h('p.error', null, err.message));
      return;
    }
    const o = s.overview || {};
    label.textContent = `${o.start} – ${o.end}`;
    const typeName = opts.type === 'expense' ? 'expense' : 'income';
    set(
      body,
      h(
        'div.figures',
        null,
        figure('Income', money(o.income), 'income'),
        figure('Expense', money(o.expense), 'expense'),
        figure('Balance', money(o.balance)),
        figure('Transactions', String(o.count ?? 0)),
        figure(`Daily average ${typeName}`, money(o.daily_average)),
      ),
      h('div.cols', null, h('section.card', null, h('h2', null, `By category (${typeName})`), shareBars(s.category_share)), h('section.card', null, h('h2', null, 'Compared with the previous period'), compare(s.compare))),
      h('section.card', null, h('h2', null, `Trend (${typeName} per ${s.trend?.unit || 'day'})`), trendBars(s.trend)),
      h('section.card', null, h('h2', null, `Largest single ${typeName}`), maxTx(s.max)),
    );
  }
  await load();
}

function shareBars(share) {
  const list = (share && share.list) || [];
  if (!list.length) return empty('Nothing recorded in this period.');
  return h(
    'ul.bars',
    null,
    list.map((c) =>
      h(
        'li',
        null,
        h('div.row', null, swatch(c.color), h('span.grow', null, c.name), h('span', null, money(c.amount)), h('span.muted.small', null, `${c.percent}%`)),
        h('div.bar', null, h('i', { style: { width: `${Math.max(0, Math.min(100, Number(c.percent) || 0))}%`, background: c.color || 'var(--accent)' } })),
      ),
    ),
  );
}

function trendBars(trend) {
  const list = (trend && trend.list) || [];
  if (!list.length) return empty('No data.');
  const max = Math.max(...list.map((p) => Number(p.amount) || 0), 0);
  const every = Math.ceil(list.length / 8);
  return h(
    'div.trend',
    { role: 'img', 'aria-label': 'Trend chart' },
    list.map((p, i) =>
      h(
        'div.col',
        { title: `${p.date}: ${money(p.amount)} (${p.count})` },
        h('div.track', null, h('i', { style: { height: `${max ? Math.round(((Number(p.amount) || 0) / max) * 100) : 0}%` } })),
        h('span', null, i % every === 0 ? (trend.unit === 'month' ? p.date.slice(5) : p.date.slice(8)) : ''),
      ),
    ),
  );
}

function compare(c) {
  if (!c) return empty('No data.');
  const line = (name, key) =>
    h(
      'tr',
      null,
      h('th', null, name),
      h('td', null, money(c.previous?.[key])),
      h('td', null, money(c.current?.[key])),
      h('td', { class: changeClass(key, c.change?.[`${key}_percent`]) }, pct(c.change?.[`${key}_percent`])),
    );
  return h(
    'table.compare',
    null,
    h('thead', null, h('tr', null, h('th'), h('th', null, `${c.previous?.start} – ${c.previous?.end}`), h('th', null, 'This period'), h('th', null, 'Change'))),
    h('tbody', null, line('Income', 'income'), line('Expense', 'expense')),
  );
}

function changeClass(key, v) {
  if (v === null || v === undefined || v === 0) return null;
  return (key === 'expense') === v > 0 ? 'expense' : 'income';
}

function maxTx(max) {
  const tx = max && typeof max === 'object' && 'transaction' in max ? max.transaction : max;
  if (!tx) return empty('Nothing recorded in this period.');
  return h(
    'div.row',
    null,
    swatch(tx.category?.color),
    h('div.grow', null, h('strong', null, tx.category?.name || ''), h('div.small.muted', null, tx.date, tx.owner ? ` · ${tx.owner.nickname}` : '', tx.note ? ` · ${tx.note}` : '')),
    h('span.amount', { class: tx.kind }, money(tx.amount)),
  );
}
