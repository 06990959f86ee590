// The category and tag calls, through the typed client. The lists themselves are read through the
// session's shared cache (stores/session.ts), which every picker uses.
import { client, ok } from '../../api/client';
import type { Kind } from '../../api/types';

export interface Look {
  name?: string;
  color?: string;
}

export async function createCategory(body: { name: string; color: string; kind: Kind }): Promise<void> {
  await ok(client.POST('/api/categories', { body }));
}

export async function updateCategory(id: number, body: Look): Promise<void> {
  await ok(client.PUT('/api/categories/{id}', { params: { path: { id } }, body }));
}

/** Puts the categories of one kind in this order. */
export async function sortCategories(ids: number[]): Promise<void> {
  await ok(client.PUT('/api/categories/sort', { body: { ids } }));
}

/** Deletes a category, first moving what uses it to `migrateTo` when given. */
export async function deleteCategory(id: number, migrateTo: number | null): Promise<void> {
  await ok(
    client.DELETE('/api/categories/{id}', {
      params: { path: { id }, query: migrateTo ? { migrate_to: migrateTo } : {} },
    }),
  );
}

export async function createTag(body: { name: string; color: string }): Promise<void> {
  await ok(client.POST('/api/tags', { body }));
}

export async function updateTag(id: number, body: Look): Promise<void> {
  await ok(client.PUT('/api/tags/{id}', { params: { path: { id } }, body }));
}

export async function deleteTag(id: number): Promise<void> {
  await ok(client.DELETE('/api/tags/{id}', { params: { path: { id } } }));
}
