import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { Category, Tag } from '../../api/types';

const api = vi.hoisted(() => ({
  createCategory: vi.fn(),
  updateCategory: vi.fn(),
  sortCategories: vi.fn(),
  deleteCategory: vi.fn(),
  createTag: vi.fn(),
  updateTag: vi.fn(),
  deleteTag: vi.fn(),
}));
const session = vi.hoisted(() => ({ categories: vi.fn(), tags: vi.fn(), invalidateLists: vi.fn() }));
vi.mock('./api', () => api);
vi.mock('../../stores/session', () => session);

const { useCategoriesStore } = await import('./store');

const cat = (id: number, name: string) => ({ id, name, kind: 'expense', color: '#000000' }) as Category;

beforeEach(() => {
  setActivePinia(createPinia());
  vi.resetAllMocks();
  session.tags.mockResolvedValue([] as Tag[]);
});

describe('the categories store', () => {
  it('reads both lists past the shared cache, and again after a change', async () => {
    session.categories.mockResolvedValueOnce([cat(1, 'Food')]).mockResolvedValueOnce([cat(1, 'Meals')]);
    const store = useCategoriesStore();
    await store.load();
    expect(store.lists.categories[0]?.name).toBe('Food');
    await store.update('category', 1, { name: 'Meals' });
    expect(api.updateCategory).toHaveBeenCalledWith(1, { name: 'Meals' });
    expect(session.invalidateLists).toHaveBeenCalledTimes(2);
    expect(store.lists.categories[0]?.name).toBe('Meals');
  });

  it('sends a tag without a kind, and a category with one', async () => {
    session.categories.mockResolvedValue([]);
    const store = useCategoriesStore();
    await store.create('tag', { name: 'trip', color: '#111111', kind: 'expense' });
    expect(api.createTag).toHaveBeenCalledWith({ name: 'trip', color: '#111111' });
    await store.create('category', { name: 'Pay', color: '#222222', kind: 'income' });
    expect(api.createCategory).toHaveBeenCalledWith({ name: 'Pay', color: '#222222', kind: 'income' });
  });

  it('passes a refused deletion on and keeps the lists as they were', async () => {
    session.categories.mockResolvedValue([cat(1, 'Food')]);
    api.deleteCategory.mockRejectedValue(new Error('in use'));
    const store = useCategoriesStore();
    await store.load();
    await expect(store.removeCategory(1, null)).rejects.toThrow('in use');
    expect(session.categories).toHaveBeenCalledTimes(1);
    expect(store.lists.categories).toHaveLength(1);
  });
});
