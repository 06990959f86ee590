import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { deferred } from '../../lib/deferred';
import type { Group } from '../../api/types';
import type { Balances } from './api';

const api = vi.hoisted(() => ({
  fetchGroup: vi.fn(),
  fetchMembers: vi.fn(),
  createGroup: vi.fn(),
  joinGroup: vi.fn(),
  updateGroup: vi.fn(),
  removeMember: vi.fn(),
  refreshCode: vi.fn(),
  dissolveGroup: vi.fn(),
  leaveGroup: vi.fn(),
  fetchBalances: vi.fn(),
  fetchSuggested: vi.fn(),
  fetchSettlements: vi.fn(),
  recordPayment: vi.fn(),
  confirmPayment: vi.fn(),
  takeBackPayment: vi.fn(),
}));
const session = vi.hoisted(() => ({
  session: { groupId: null as number | null },
  loadGroups: vi.fn(),
  selectGroup: vi.fn(),
}));
vi.mock('./api', () => api);
vi.mock('../../stores/session', () => session);

const { useBalancesStore, useGroupsStore } = await import('./store');

const group = (id: number, name: string) => ({ id, name, split_costs: true }) as Group;
const balances = (nickname: string) => ({ split_costs: true, list: [{ user_id: 1, nickname }] }) as unknown as Balances;

beforeEach(() => {
  setActivePinia(createPinia());
  vi.resetAllMocks();
  session.session.groupId = null;
  api.fetchSuggested.mockResolvedValue([]);
  api.fetchSettlements.mockResolvedValue([]);
});

describe('the groups store', () => {
  it('reads the groups again after a change', async () => {
    api.joinGroup.mockResolvedValue(group(3, 'Family'));
    const store = useGroupsStore();
    expect((await store.join('ABCD1234')).name).toBe('Family');
    expect(api.joinGroup).toHaveBeenCalledWith('ABCD1234');
    expect(session.loadGroups).toHaveBeenCalledTimes(1);
  });

  it('reads neither the groups nor anything else when a change is refused', async () => {
    api.dissolveGroup.mockRejectedValue(new Error('unsettled'));
    const store = useGroupsStore();
    await expect(store.dissolve(3, false)).rejects.toThrow('unsettled');
    expect(session.loadGroups).not.toHaveBeenCalled();
  });

  it('stops showing a group one leaves before reading the groups again', async () => {
    session.session.groupId = 3;
    const order: string[] = [];
    session.selectGroup.mockImplementation(() => order.push('select'));
    session.loadGroups.mockImplementation(async () => order.push('groups'));
    await useGroupsStore().leave(3);
    expect(session.selectGroup).toHaveBeenCalledWith(null);
    expect(order).toEqual(['select', 'groups']);
  });

  it('reads the members and the groups again after removing a member', async () => {
    api.fetchMembers.mockResolvedValue([{ user_id: 2, nickname: 'Li' }]);
    const store = useGroupsStore();
    await store.removeMember(3, 4);
    expect(api.removeMember).toHaveBeenCalledWith(3, 4);
    expect(store.members[3]).toEqual([{ user_id: 2, nickname: 'Li' }]);
    expect(session.loadGroups).toHaveBeenCalled();
  });

  it('shows the settings of the group opened last, and the saved ones after a save', async () => {
    const first = deferred<Group>();
    const second = deferred<Group>();
    api.fetchGroup.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    api.updateGroup.mockResolvedValue(group(2, 'Renamed'));
    const store = useGroupsStore();
    const a = store.openSettings(1);
    const b = store.openSettings(2);
    second.resolve(group(2, 'Two'));
    await b;
    first.resolve(group(1, 'One'));
    await a;
    expect(store.settings?.name).toBe('Two');
    await store.saveSettings({ name: 'Renamed' });
    expect(api.updateGroup).toHaveBeenCalledWith(2, { name: 'Renamed' });
    expect(store.settings?.name).toBe('Renamed');
    expect(session.loadGroups).toHaveBeenCalled();
  });
});

describe('the balances store', () => {
  it('reads balances, suggestions and payments again after a payment is recorded', async () => {
    api.fetchBalances.mockResolvedValueOnce(balances('before')).mockResolvedValueOnce(balances('after'));
    const store = useBalancesStore();
    await store.show(5);
    await store.record({ from: 1, to: 2, amount: '3' });
    expect(api.recordPayment).toHaveBeenCalledWith(5, { from: 1, to: 2, amount: '3' });
    expect(store.balances?.list[0]?.nickname).toBe('after');
    expect(api.fetchSettlements).toHaveBeenCalledTimes(2);
  });

  it('drops the answer for a group left behind', async () => {
    const first = deferred<Balances>();
    api.fetchBalances.mockReturnValueOnce(first.promise).mockResolvedValueOnce(balances('second'));
    const store = useBalancesStore();
    const a = store.show(5);
    await store.show(6);
    first.resolve(balances('first'));
    await a;
    expect(store.balances?.list[0]?.nickname).toBe('second');
  });
});
