// The categories and tags screen: both lists read fresh (and the session's shared cache with them,
// so that every picker sees a change), and read again after each change.
import { defineStore } from 'pinia';
import type { Category, Kind, Tag } from '../../api/types';
import { categories, invalidateLists, tags } from '../../stores/session';
import { createLoader } from '../../lib/loader';
import * as api from './api';

export type Item = 'category' | 'tag';

export const useCategoriesStore = defineStore('categories', () => {
  const lists = createLoader(
    async () => {
      invalidateLists();
      const [c, t] = await Promise.all([categories(), tags()]);
      return { categories: c, tags: t };
    },
    { categories: [] as Category[], tags: [] as Tag[] },
  );

  async function after<T>(change: Promise<T>): Promise<T> {
    const out = await change;
    await lists.load();
    return out;
  }

  return {
    lists: lists.data,
    error: lists.error,
    load: lists.load,
    create: (what: Item, body: { name: string; color: string; kind: Kind }) =>
      after(what === 'category' ? api.createCategory(body) : api.createTag({ name: body.name, color: body.color })),
    update: (what: Item, id: number, look: api.Look) =>
      after(what === 'category' ? api.updateCategory(id, look) : api.updateTag(id, look)),
    sort: (ids: number[]) => after(api.sortCategories(ids)),
    removeCategory: (id: number, migrateTo: number | null) => after(api.deleteCategory(id, migrateTo)),
    removeTag: (id: number) => after(api.deleteTag(id)),
  };
});
