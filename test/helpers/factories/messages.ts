import type { Executor } from '../../../src/db/client.ts';
import { feedback, notificationReads, notifications } from '../../../src/db/schema/index.ts';
import { unique } from './seq.ts';

/** A notification (system-wide unless told), published now. */
export async function createNotification(db: Executor, overrides: Partial<typeof notifications.$inferInsert> = {}) {
  const n = unique();
  const [row] = await db
    .insert(notifications)
    .values({ scope: 'system', title: `notice${n}`, content: `content${n}`, ...overrides })
    .returning();
  return row!;
}

export async function markRead(db: Executor, notificationId: number, userId: number): Promise<void> {
  await db.insert(notificationReads).values({ notificationId, userId });
}

/** A feedback message from a user, pending unless told. */
export async function createFeedback(
  db: Executor,
  userId: number,
  overrides: Partial<typeof feedback.$inferInsert> = {},
) {
  const [row] = await db
    .insert(feedback)
    .values({ userId, content: `feedback${unique()}`, ...overrides })
    .returning();
  return row!;
}
