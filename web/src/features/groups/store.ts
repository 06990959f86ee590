// The groups screens. The caller's groups are the session's list (the group picker shows them too),
// read again after every change here; members are read for the groups whose list is open; a
// group's settings and its balances are read for the group on screen, an answer for a group left
// behind being dropped.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Group, Member } from '../../api/types';
import { createLoader } from '../../lib/loader';
import { loadGroups, selectGroup, session } from '../../stores/session';
import * as api from './api';

export const useGroupsStore = defineStore('groups', () => {
  /** the members of the groups whose list is open */
  const members = ref<Record<number, Member[]>>({});

  async function after<T>(change: Promise<T>): Promise<T> {
    const out = await change;
    await loadGroups();
    return out;
  }

  async function showMembers(id: number): Promise<Member[]> {
    const list = await api.fetchMembers(id);
    members.value = { ...members.value, [id]: list };
    return list;
  }

  async function removeMember(id: number, userId: number): Promise<void> {
    await api.removeMember(id, userId);
    await Promise.all([showMembers(id), loadGroups()]);
  }

  /** Leaves a group; it stops being the one on screen at once, before anything else asks for its books. */
  async function leave(id: number): Promise<void> {
    await api.leaveGroup(id);
    if (session.groupId === id) selectGroup(null);
    await loadGroups();
  }

  // ---- one group's settings ----
  let settingsOf = 0;
  const settings = createLoader(() => api.fetchGroup(settingsOf), null as Group | null);
  function openSettings(id: number): Promise<void> {
    settingsOf = id;
    settings.data.value = null;
    settings.error.value = null;
    return settings.load();
  }
  async function saveSettings(body: api.GroupChange): Promise<Group> {
    const g = await after(api.updateGroup(settingsOf, body));
    settings.data.value = g;
    return g;
  }

  return {
    members,
    create: (name: string, splitCosts: boolean) => after(api.createGroup(name, splitCosts)),
    join: (code: string) => after(api.joinGroup(code)),
    refreshCode: (id: number) => after(api.refreshCode(id)),
    dissolve: (id: number, force: boolean) => after(api.dissolveGroup(id, force)),
    showMembers,
    removeMember,
    leave,
    settings: settings.data,
    settingsError: settings.error,
    openSettings,
    saveSettings,
  };
});

/** Who owes whom in one group, the payments that would settle it, and the payments made. */
export const useBalancesStore = defineStore('balances', () => {
  let groupId = 0;
  const page = createLoader(
    async () => {
      const id = groupId;
      const [balances, suggested, history] = await Promise.all([
        api.fetchBalances(id),
        api.fetchSuggested(id),
        api.fetchSettlements(id),
      ]);
      return { balances, suggested, history };
    },
    null as { balances: api.Balances; suggested: api.Suggested[]; history: api.Settlement[] } | null,
  );

  function show(id: number): Promise<void> {
    if (id !== groupId) {
      page.data.value = null;
      page.error.value = null;
    }
    groupId = id;
    return page.load();
  }

  async function after(change: Promise<void>): Promise<void> {
    await change;
    await page.load();
  }

  return {
    balances: computed(() => page.data.value?.balances ?? null),
    suggested: computed(() => page.data.value?.suggested ?? []),
    history: computed(() => page.data.value?.history ?? []),
    error: page.error,
    loaded: page.loaded,
    show,
    record: (body: api.Payment) => after(api.recordPayment(groupId, body)),
    confirm: (settlementId: number) => after(api.confirmPayment(settlementId)),
    takeBack: (settlementId: number) => after(api.takeBackPayment(settlementId)),
  };
});
