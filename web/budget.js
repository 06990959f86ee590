// Monthly budget: personal, or in group view the group's budget and the member's own amount.
import { api } from './api.js';
import { h, set, field, loading, money, action, toast, validAmount, state, currentGroup, today } from './ui.js';
import { figure } from './books.js';

let month = null;

export async function budgetView(root) {
  if (!month) month = today().slice(0, 7);
  const group = currentGroup();
  const body = h('div');
  const monthInput = h('input', { type: 'month', value: month, 'aria-label': 'Month' });
  monthInput.addEventListener('change', () => {
    if (/^\d{4}-\d{2}$/.test(monthInput.value)) {
      month = monthInput.value;
      load();
    }
  });
  set(root, h('div.head', null, h('h1', null, group ? `Budget · ${group.name}` : 'Budget'), h('span.grow'), monthInput), body);

  async function load() {
    loading(body);
    let b;
    try {
      b = await api('/api/budget', { query: { month, group_id: state.groupId } });
    } catch (err) {
      set(body, h('p.error', null, err.message));
      return;
    }
    if (!group) {
      set(
        body,
        card('Personal budget', b.amount, b.spent, (amount) => api('/api/budget', { method: 'PUT', body: { month, amount } }), true),
      );
      return;
    }
    const owner = group.role === 'owner' || group.owner_id === state.me.id;
    set(
      body,
      card('Group budget', b.amount, b.spent, (amount) => api('/api/budget', { method: 'PUT', body: { month, amount, group_id: group.id } }), owner,
        owner ? null : 'Only the group owner sets the group budget.'),
      card('My share in this group', b.myAmount, b.mySpent, (amount) => api('/api/budget/mine', { method: 'PUT', body: { month, amount, group_id: group.id } }), true),
    );
  }

  function card(title, amount, spent, save, editable, note) {
    const set = amount !== null && amount !== undefined;
    const ratio = set && Number(amount) > 0 ? Math.round((Number(spent || 0) / Number(amount)) * 100) : 0;
    const input = h('input', { name: 'amount', inputmode: 'decimal', value: set ? String(amount) : '', placeholder: 'Amount', 'aria-label': 'Budget amount' });
    const form = h(
      'form.row.wrap',
      null,
      field('Budget for the month', input),
      h('button.primary', { type: 'submit' }, 'Save'),
      set ? h('button', { type: 'button', onclick: action(async () => (await save(null), toast('Budget cleared'), load())) }, 'Clear') : null,
    );
    form.addEventListener('submit', action(async (e) => {
      e.preventDefault();
      if (!validAmount(input.value)) throw new Error('The budget must be a positive number with at most 2 decimals');
      await save(input.value.trim());
      toast('Budget saved');
      await load();
    }));
    return h(
      'section.card',
      null,
      h('h2', null, title),
      h(
        'div.figures',
        null,
        figure('Budget', set ? money(amount) : 'Not set'),
        figure('Spent', money(spent ?? 0), 'expense'),
        figure('Remaining', set ? money(Number(amount) - Number(spent || 0)) : '—', set && Number(spent) > Number(amount) ? 'expense' : 'income'),
      ),
      set ? h('div.bar.big', { title: `${ratio}% used` }, h('i', { class: ratio > 100 ? 'over' : ratio > 80 ? 'warn' : null, style: { width: `${Math.min(100, ratio)}%` } })) : null,
      set ? h('p.small.muted', null, `${ratio}% used`) : null,
      editable ? form : null,
      note ? h('p.small.muted', null, note) : null,
    );
  }

  await load();
}
