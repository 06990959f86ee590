import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { recoveryCodes, totpFactors } from '../../db/schema/index.ts';

export type TotpFactorRow = typeof totpFactors.$inferSelect;

export async function findFactor(db: Executor, userId: number): Promise<TotpFactorRow | undefined> {
  const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId));
  return row;
}

/** Whether the person has a confirmed second factor (asked at password sign-in). */
export async function hasConfirmedFactor(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)));
  return row !== undefined;
}

/**
 * Starts a set-up afresh: an unconfirmed factor with this secret replaces an unconfirmed one;
 * false (nothing written) when the person's factor is already confirmed.
 */
export async function putPendingFactor(db: Executor, userId: number, secret: string, at: Date): Promise<boolean> {
  const rows = await db
    .insert(totpFactors)
    .values({ userId, secret, confirmedAt: null, lastStep: null, createdAt: at })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { secret, confirmedAt: null, lastStep: null, createdAt: at },
      where: isNull(totpFactors.confirmedAt),
    })
    .returning({ userId: totpFactors.userId });
  return rows.length === 1;
}

/**
 * Takes `step` as the last accepted one, only when it is later than the last: of two requests
 * with the same code, exactly one gets the row. `confirm` also confirms a pending factor.
 */
export async function acceptStep(
  db: Executor,
  userId: number,
  step: number,
  confirmAt: Date | null = null,
): Promise<boolean> {
  const rows = await db
    .update(totpFactors)
    .set(confirmAt ? { lastStep: step, confirmedAt: confirmAt } : { lastStep: step })
    .where(
      and(
        eq(totpFactors.userId, userId),
        confirmAt ? isNull(totpFactors.confirmedAt) : isNotNull(totpFactors.confirmedAt),
        or(isNull(totpFactors.lastStep), lt(totpFactors.lastStep, step)),
      ),
    )
    .returning({ userId: totpFactors.userId });
  return rows.length === 1;
}

export async function deleteFactor(db: Executor, userId: number): Promise<void> {
  await db.delete(totpFactors).where(eq(totpFactors.userId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Replaces every recovery code of the person with these hashes. */
export async function replaceRecoveryCodes(db: Executor, userId: number, hashes: string[], at: Date): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: at })));
}

/** Marks an unused recovery code used; false when there is none of that hash (or it was used). */
export async function useRecoveryCode(db: Executor, userId: number, codeHash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}
