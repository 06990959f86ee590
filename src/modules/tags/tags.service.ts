import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';

/** 1 to 20 characters; "|" joins a transaction's tags in the CSV export, so a name cannot hold it. */
function tagName(value: string): string {
  const name = cleanText(value, 'name', 1, 20);
  if (name.includes('|')) throw Errors.field('name', 'must not contain "|"');
  return name;
}
import * as tagsRepo from './tags.repo.ts';
import type { TagCreateBody, TagList, TagUpdateBody, TagView } from './tags.schemas.ts';

export function toTag(row: tagsRepo.TagRow): TagView {
  return { id: row.id, name: row.name, color: row.color, created_at: row.createdAt.toISOString() };
}

const duplicate = () => Errors.conflict('you already have a tag with that name');

export interface TagServiceDeps {
  db: Db;
  clock: Clock;
  repo?: typeof tagsRepo;
}

export function createTagService({ db, repo = tagsRepo }: TagServiceDeps) {
  return {
    async list(userId: number): Promise<TagList> {
      return { list: (await repo.listTags(db, userId)).map(toTag) };
    },

    async create(userId: number, body: TagCreateBody): Promise<TagView> {
      const name = tagName(body.name);
      const row = await repo.insertTag(db, { userId, name, color: body.color ?? null });
      if (!row) throw duplicate();
      return toTag(row);
    },

    async update(userId: number, id: number, body: TagUpdateBody): Promise<TagView> {
      const patch: { name?: string; color?: string | null } = {};
      if (body.name !== undefined) patch.name = tagName(body.name);
      if (body.color !== undefined) patch.color = body.color;
      const current = await repo.findTag(db, userId, id);
      if (!current) throw Errors.notFound('tag');
      if (!Object.keys(patch).length) return toTag(current);
      if (patch.name !== undefined && (await repo.nameTaken(db, userId, patch.name, id))) throw duplicate();
      try {
        const row = await repo.updateTag(db, userId, id, patch);
        if (!row) throw Errors.notFound('tag');
        return toTag(row);
      } catch (err) {
        // a concurrent rename to the same name loses on the unique index
        if (isUniqueViolation(err)) throw duplicate();
        throw err;
      }
    },

    /** Deletes the tag, detaches it from every transaction, and drops it from recurring rules and saved filters. */
    async remove(userId: number, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await repo.deleteTag(tx, userId, id))) throw Errors.notFound('tag');
        await repo.forgetTag(tx, userId, id);
      });
    },
  };
}
