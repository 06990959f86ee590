// Groups ("record together"): create, join by code, members, and the owner's controls.
import { api } from './api.js';
import { h, set, field, empty, avatar, action, confirmDialog, toast, when, state, loadGroups, setGroup, hooks } from './ui.js';
import { noticeDialog } from './notices.js';

export async function groupsView(root) {
  await loadGroups();
  const reload = () => hooks.refresh();

  const name = h('input', { name: 'name', required: true, maxlength: 30, placeholder: 'e.g. Family' });
  const create = h('form.row.wrap', null, field('New group', name), h('button.primary', { type: 'submit' }, 'Create'));
  create.addEventListener('submit', action(async (e) => {
    e.preventDefault();
    await api('/api/groups', { method: 'POST', body: { name: name.value.trim() } });
    toast('Group created');
    reload();
  }));
  const code = h('input', { name: 'invite_code', required: true, maxlength: 8, minlength: 8, placeholder: '8 characters', autocomplete: 'off', style: { textTransform: 'uppercase' } });
  const join = h('form.row.wrap', null, field('Join with an invite code', code), h('button', { type: 'submit' }, 'Join'));
  join.addEventListener('submit', action(async (e) => {
    e.preventDefault();
    const g = await api('/api/groups/join', { method: 'POST', body: { invite_code: code.value.trim().toUpperCase() } });
    toast(`You are in “${g.name}”`);
    reload();
  }));

  set(
    root,
    h('div.head', null, h('h1', null, 'Groups')),
    h('p.muted', null, 'Record together: members of a group see each other’s transactions recorded in it, its statistics and its budget. Pick a group in “View” at the top to switch your books to it.'),
    h('section.card.cols', null, create, join),
    state.groups.length ? h('div.stack', null, state.groups.map(groupCard)) : empty('You are not in any group yet.'),
  );

  function groupCard(g) {
    const owner = g.role === 'owner' || g.owner_id === state.me.id;
    const members = h('div');
    const showMembers = action(async () => {
      const res = await api(`/api/groups/${g.id}/members`);
      set(
        members,
        h(
          'ul.items',
          null,
          res.list.map((m) =>
            h(
              'li',
              null,
              avatar(m.avatar_url, 'avatar.small'),
              h('span.grow', null, m.nickname, m.user_id === state.me.id ? ' (you)' : ''),
              h('span.pill', null, m.role),
              h('span.small.muted', null, `joined ${when(m.joined_at)}`),
              owner && m.user_id !== state.me.id
                ? h('button.small.danger', {
                  type: 'button',
                  onclick: action(async () => {
                    if (!(await confirmDialog(`Remove ${m.nickname} from “${g.name}”? Their transactions stay in the group.`, { label: 'Remove' }))) return;
                    await api(`/api/groups/${g.id}/remove-member`, { method: 'POST', body: { user_id: m.user_id } });
                    toast('Member removed');
                    reload();
                  }),
                }, 'Remove')
                : null,
            ),
          ),
        ),
      );
    });
    const codeEl = h('code.invite', null, g.invite_code || '—');
    return h(
      'section.card',
      null,
      h('div.row.wrap', null, h('h2.grow', null, g.name), h('span.pill', null, owner ? 'owner' : 'member'), h('span.muted', null, `${g.member_count} member${g.member_count === 1 ? '' : 's'}`)),
      h(
        'div.row.wrap',
        null,
        h('span', null, 'Invite code: '),
        codeEl,
        h('button.small', {
          type: 'button',
          onclick: action(async () => {
            await navigator.clipboard.writeText(codeEl.textContent);
            toast('Invite code copied');
          }),
        }, 'Copy'),
        owner
          ? h('button.small', {
            type: 'button',
            onclick: action(async () => {
              if (!(await confirmDialog('Make a new invite code? The current one stops working.', { label: 'New code', danger: false }))) return;
              const res = await api(`/api/groups/${g.id}/refresh-code`, { method: 'POST' });
              codeEl.textContent = res.invite_code;
              toast('New invite code ready');
            }),
          }, 'New code')
          : null,
      ),
      h(
        'div.row.wrap',
        null,
        h('button.primary', { type: 'button', onclick: () => (setGroup(g.id), hooks.navigate('/books')) }, 'Open its books'),
        h('button', { type: 'button', onclick: showMembers }, 'Members'),
        owner ? h('button', { type: 'button', onclick: () => noticeDialog({ scope: 'group', group_id: g.id }) }, 'Post a notice') : null,
        owner
          ? h('button.danger', {
            type: 'button',
            onclick: action(async () => {
              if (!(await confirmDialog(`Dissolve “${g.name}”? Its transactions are kept, but nobody can record into it or join it any more.`, { label: 'Dissolve' }))) return;
              await api(`/api/groups/${g.id}/dissolve`, { method: 'POST' });
              toast('Group dissolved');
              reload();
            }),
          }, 'Dissolve')
          : h('button.danger', {
            type: 'button',
            onclick: action(async () => {
              if (!(await confirmDialog(`Leave “${g.name}”? Your transactions keep their group.`, { label: 'Leave' }))) return;
              await api(`/api/groups/${g.id}/leave`, { method: 'POST' });
              toast('You left the group');
              reload();
            }),
          }, 'Leave'),
      ),
      members,
    );
  }
}
