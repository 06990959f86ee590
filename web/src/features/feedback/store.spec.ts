import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { Feedback } from '../../api/types';

const api = vi.hoisted(() => ({ mine: vi.fn(), send: vi.fn() }));
vi.mock('./api', () => ({ feedbackApi: api }));

import { useFeedbackStore } from './store';

const item = (id: number) => ({ id }) as Feedback;

describe('the feedback store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.resetAllMocks();
  });

  it('sends trimmed feedback and shows the first page again', async () => {
    api.mine
      .mockResolvedValueOnce({ list: [item(1)], total: 21 })
      .mockResolvedValueOnce({ list: [item(2), item(1)], total: 22 });
    const store = useFeedbackStore();
    await store.goTo(2);
    await store.send('  slow on phones ', '  ');
    expect(api.send).toHaveBeenCalledWith('slow on phones', '');
    expect(api.mine).toHaveBeenLastCalledWith(1, 20);
    expect(store.page).toBe(1);
    expect(store.list.map((f) => f.id)).toEqual([2, 1]);
  });

  it('leaves a refused message to its caller and keeps the list', async () => {
    api.mine.mockResolvedValueOnce({ list: [item(1)], total: 1 });
    const store = useFeedbackStore();
    await store.load();
    api.send.mockRejectedValueOnce(new Error('refused'));
    await expect(store.send('x', '')).rejects.toThrow('refused');
    expect(api.mine).toHaveBeenCalledTimes(1);
    expect(store.total).toBe(1);
  });
});
