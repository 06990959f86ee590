import { and, asc, eq, gt, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { recurringRules, users } from '../../db/schema/index.ts';

export type RuleRow = typeof recurringRules.$inferSelect;
export type RuleInsert = Omit<typeof recurringRules.$inferInsert, 'id' | 'userId' | 'createdAt' | 'updatedAt'>;

export async function listRules(db: Executor, userId: number): Promise<RuleRow[]> {
  return db.select().from(recurringRules).where(eq(recurringRules.userId, userId)).orderBy(asc(recurringRules.id));
}

/** The caller's rule, locked for the rest of the transaction when `lock` is set. */
export async function findRule(db: Executor, userId: number, id: number, lock = false): Promise<RuleRow | null> {
  const q = db
    .select()
    .from(recurringRules)
    .where(and(eq(recurringRules.id, id), eq(recurringRules.userId, userId)));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function insertRule(db: Executor, userId: number, values: RuleInsert): Promise<RuleRow> {
  const [row] = await db
    .insert(recurringRules)
    .values({ ...values, userId })
    .returning();
  return row!;
}

export async function updateRule(
  db: Executor,
  userId: number,
  id: number,
  patch: Partial<RuleInsert>,
): Promise<RuleRow | null> {
  const [row] = await db
    .update(recurringRules)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(recurringRules.id, id), eq(recurringRules.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteRule(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(recurringRules)
    .where(and(eq(recurringRules.id, id), eq(recurringRules.userId, userId)))
    .returning({ id: recurringRules.id });
  return rows.length > 0;
}

// ---- generation ----

export interface DueCandidate {
  id: number;
  nextDate: string;
  timezone: string | null;
}

/**
 * Active rules with a next date on or before `horizon` whose owner is neither deleted nor
 * disabled, by id after `afterId`. Read without locks: each one is locked and re-checked later.
 */
export async function dueCandidates(
  db: Executor,
  horizon: string,
  afterId: number,
  limit: number,
): Promise<DueCandidate[]> {
  return db
    .select({ id: recurringRules.id, nextDate: sql<string>`${recurringRules.nextDate}`, timezone: users.timezone })
    .from(recurringRules)
    .innerJoin(users, eq(users.id, recurringRules.userId))
    .where(
      and(
        eq(recurringRules.active, true),
        isNotNull(recurringRules.nextDate),
        lte(recurringRules.nextDate, horizon),
        gt(recurringRules.id, afterId),
        sql`${users.deletedAt} is null`,
        eq(users.status, 'active'),
      ),
    )
    .orderBy(asc(recurringRules.id))
    .limit(limit);
}

/**
 * Locks a rule that is still due on `today`; null when another process holds it (SKIP LOCKED) or
 * it is no longer due (already advanced, paused, or its owner was deleted or disabled meanwhile).
 */
export async function lockDueRule(tx: Executor, id: number, today: string): Promise<RuleRow | null> {
  const [row] = await tx
    .select()
    .from(recurringRules)
    .where(
      and(
        eq(recurringRules.id, id),
        eq(recurringRules.active, true),
        lte(recurringRules.nextDate, today),
        sql`exists (select 1 from ${users} where ${users.id} = ${recurringRules.userId} and ${users.deletedAt} is null and ${users.status} = 'active')`,
      ),
    )
    .for('update', { skipLocked: true });
  return row ?? null;
}

export async function setNextDate(tx: Executor, userId: number, id: number, nextDate: string | null): Promise<void> {
  await tx
    .update(recurringRules)
    .set({ nextDate, updatedAt: new Date() })
    .where(and(eq(recurringRules.id, id), eq(recurringRules.userId, userId)));
}

// ---- accounts that go away ----

/** How many of the owner's rules book into or out of `accountId`. */
export async function countRulesOfAccount(db: Executor, userId: number, accountId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(recurringRules)
    .where(
      and(
        eq(recurringRules.userId, userId),
        or(eq(recurringRules.accountId, accountId), eq(recurringRules.toAccountId, accountId)),
      ),
    );
  return row?.n ?? 0;
}

/**
 * An account merged into another: its rules book into the other from now on. A transfer rule
 * between the two would move money from an account to itself: it goes, as the merge removes the
 * transfers between them.
 */
export async function moveRulesToAccount(tx: Executor, userId: number, fromId: number, toId: number): Promise<void> {
  const r = recurringRules;
  await tx
    .delete(r)
    .where(
      and(
        eq(r.userId, userId),
        eq(r.kind, 'transfer'),
        or(
          and(eq(r.accountId, fromId), eq(r.toAccountId, toId)),
          and(eq(r.accountId, toId), eq(r.toAccountId, fromId)),
        ),
      ),
    );
  await tx
    .update(r)
    .set({ accountId: toId, updatedAt: new Date() })
    .where(and(eq(r.userId, userId), eq(r.accountId, fromId)));
  await tx
    .update(r)
    .set({ toAccountId: toId, updatedAt: new Date() })
    .where(and(eq(r.userId, userId), eq(r.toAccountId, fromId)));
}
