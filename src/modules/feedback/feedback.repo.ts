import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { feedback, users } from '../../db/schema/index.ts';
import type { FeedbackStatus } from './feedback.schemas.ts';

export type FeedbackRow = typeof feedback.$inferSelect;
export type AuthorRow = { id: number; nickname: string; avatarUrl: string | null };
export type FeedbackWithAuthor = FeedbackRow & { author: AuthorRow };

const total = sql<number>`count(*)::int`.mapWith(Number);
const newestFirst = [desc(feedback.createdAt), desc(feedback.id)];

export async function insertFeedback(
  db: Executor,
  userId: number,
  content: string,
  contact: string | null,
): Promise<FeedbackRow> {
  const [row] = await db.insert(feedback).values({ userId, content, contact }).returning();
  return row!;
}

/** A page of one user's own feedback, newest first. */
export async function listOfUser(db: Executor, userId: number, limit: number, offset: number) {
  const where = eq(feedback.userId, userId);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(feedback)
      .where(where)
      .orderBy(...newestFirst)
      .limit(limit)
      .offset(offset),
    db.select({ total }).from(feedback).where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

const withAuthor = { row: feedback, author: { id: users.id, nickname: users.nickname, avatarUrl: users.avatarUrl } };

/** A page of every user's feedback (administration), newest first. */
export async function listAll(db: Executor, status: FeedbackStatus | undefined, limit: number, offset: number) {
  const where: SQL | undefined = status ? eq(feedback.status, status) : undefined;
  const [rows, [count]] = await Promise.all([
    db
      .select(withAuthor)
      .from(feedback)
      .innerJoin(users, eq(users.id, feedback.userId))
      .where(where)
      .orderBy(...newestFirst)
      .limit(limit)
      .offset(offset),
    db.select({ total }).from(feedback).where(where),
  ]);
  return { rows: rows.map((r): FeedbackWithAuthor => ({ ...r.row, author: r.author })), total: count?.total ?? 0 };
}

/** One feedback by id for an administrator, locked until the end of the transaction. */
export async function lockFeedback(db: Executor, id: number): Promise<FeedbackRow | null> {
  const [row] = await db.select().from(feedback).where(eq(feedback.id, id)).for('update');
  return row ?? null;
}

export async function findWithAuthor(db: Executor, id: number): Promise<FeedbackWithAuthor | null> {
  const [r] = await db
    .select(withAuthor)
    .from(feedback)
    .innerJoin(users, eq(users.id, feedback.userId))
    .where(eq(feedback.id, id));
  return r ? { ...r.row, author: r.author } : null;
}

export async function updateFeedback(
  db: Executor,
  id: number,
  expected: FeedbackStatus,
  patch: Partial<Pick<FeedbackRow, 'status' | 'reply' | 'repliedAt' | 'repliedBy'>>,
): Promise<FeedbackRow | null> {
  const [row] = await db
    .update(feedback)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(feedback.id, id), eq(feedback.status, expected)))
    .returning();
  return row ?? null;
}
