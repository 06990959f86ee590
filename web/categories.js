// Categories (per kind, ordered, colored; delete with migration) and tags.
import { api, query } from './api.js';
import { h, set, field, select, swatch, empty, action, formDialog, confirmDialog, promptDialog, toast, categories, tags, invalidate } from './ui.js';

let kind = 'expense';
const PALETTE = ['#e4572e', '#f3a712', '#29335c', '#669bbc', '#4caf50', '#8e44ad', '#16a085', '#d35400'];

export async function categoriesView(root) {
  const [cats, allTags] = await Promise.all([categories(kind), tags()]);
  const reload = () => {
    invalidate('categories', 'tags');
    return categoriesView(root);
  };

  const move = (i, dir) =>
    action(async () => {
      const ids = cats.map((c) => c.id);
      const j = i + dir;
      [ids[i], ids[j]] = [ids[j], ids[i]];
      await api('/api/categories/sort', { method: 'PUT', body: { ids } });
      await reload();
    });

  const colorInput = (item, path) => {
    const input = h('input', { type: 'color', value: /^#[0-9a-f]{6}$/i.test(item.color || '') ? item.color : '#999999', 'aria-label': `Color of ${item.name}` });
    input.addEventListener('change', action(async () => {
      await api(`${path}/${item.id}`, { method: 'PUT', body: { color: input.value } });
      toast('Color saved');
      await reload();
    }));
    return input;
  };

  const rename = (item, path) =>
    action(async () => {
      const name = await promptDialog('Rename', 'Name', { value: item.name, maxlength: 20 });
      if (!name || name === item.name) return;
      await api(`${path}/${item.id}`, { method: 'PUT', body: { name } });
      toast('Renamed');
      await reload();
    });

  const removeCategory = (c) =>
    action(async () => {
      const others = cats.filter((x) => x.id !== c.id);
      const target = select('migrate_to', [['', 'Do not move (only if the category is unused)'], ...others.map((o) => [o.id, `Move them to ${o.name}`])], '');
      const done = await formDialog(`Delete “${c.name}”`, [
        h('p', null, 'Transactions, recurring bills and saved filters using this category can be moved to another category of the same kind first.'),
        field('Its transactions', target),
      ], async () => api(`/api/categories/${c.id}${query({ migrate_to: target.value })}`, { method: 'DELETE' }), { submitLabel: 'Delete', danger: true });
      if (done) {
        toast('Category deleted');
        await reload();
      }
    });

  const addCategory = async () => {
    const name = h('input', { name: 'name', required: true, maxlength: 20 });
    const color = h('input', { type: 'color', name: 'color', value: PALETTE[cats.length % PALETTE.length] });
    const k = select('kind', [['expense', 'Expense'], ['income', 'Income']], kind);
    const done = await formDialog('New category', [field('Name', name), h('div.grid2', null, field('Kind', k), field('Color', color))], async () =>
      api('/api/categories', { method: 'POST', body: { name: name.value.trim(), color: color.value, kind: k.value } }),
    );
    if (done) {
      kind = k.value;
      toast('Category added');
      await reload();
    }
  };

  const addTag = async () => {
    const name = h('input', { name: 'name', required: true, maxlength: 20 });
    const color = h('input', { type: 'color', name: 'color', value: PALETTE[allTags.length % PALETTE.length] });
    const done = await formDialog('New tag', [field('Name', name), field('Color', color)], async () =>
      api('/api/tags', { method: 'POST', body: { name: name.value.trim(), color: color.value } }),
    );
    if (done) {
      toast('Tag added');
      await reload();
    }
  };

  const tabs = h(
    'div.tabs',
    { role: 'tablist' },
    [['expense', 'Expense'], ['income', 'Income']].map(([k, label]) =>
      h('button', { type: 'button', role: 'tab', 'aria-selected': String(k === kind), onclick: () => ((kind = k), categoriesView(root)) }, label),
    ),
  );

  set(
    root,
    h('div.head', null, h('h1', null, 'Categories & tags')),
    h(
      'section.card',
      null,
      h('div.row', null, h('h2.grow', null, 'Categories'), h('button.primary', { type: 'button', onclick: addCategory }, '+ Category')),
      tabs,
      cats.length
        ? h(
          'ul.items',
          null,
          cats.map((c, i) =>
            h(
              'li',
              null,
              swatch(c.color),
              h('span.grow', null, c.name),
              h('button.small', { type: 'button', disabled: i === 0, onclick: move(i, -1), 'aria-label': `Move ${c.name} up` }, '↑'),
              h('button.small', { type: 'button', disabled: i === cats.length - 1, onclick: move(i, 1), 'aria-label': `Move ${c.name} down` }, '↓'),
              colorInput(c, '/api/categories'),
              h('button.small', { type: 'button', onclick: rename(c, '/api/categories') }, 'Rename'),
              h('button.small.danger', { type: 'button', onclick: removeCategory(c) }, 'Delete'),
            ),
          ),
        )
        : empty('No categories of this kind.'),
    ),
    h(
      'section.card',
      null,
      h('div.row', null, h('h2.grow', null, 'Tags'), h('button.primary', { type: 'button', onclick: addTag }, '+ Tag')),
      allTags.length
        ? h(
          'ul.items',
          null,
          allTags.map((t) =>
            h(
              'li',
              null,
              swatch(t.color),
              h('span.grow', null, `#${t.name}`),
              colorInput(t, '/api/tags'),
              h('button.small', { type: 'button', onclick: rename(t, '/api/tags') }, 'Rename'),
              h('button.small.danger', {
                type: 'button',
                onclick: action(async () => {
                  if (!(await confirmDialog(`Delete the tag #${t.name}? It is removed from its transactions.`, { label: 'Delete' }))) return;
                  await api(`/api/tags/${t.id}`, { method: 'DELETE' });
                  toast('Tag deleted');
                  await reload();
                }),
              }, 'Delete'),
            ),
          ),
        )
        : empty('No tags yet. Tags let you mark transactions across categories, e.g. #travel.'),
    ),
  );
}
