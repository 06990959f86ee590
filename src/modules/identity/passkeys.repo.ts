import { and, asc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { passkeys, webauthnChallenges } from '../../db/schema/index.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;

export async function listOwn(db: Executor, userId: number): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function countOwn(db: Executor, userId: number): Promise<number> {
  return (await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId))).length;
}

export async function findOwn(db: Executor, userId: number, id: number): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
  return row;
}

/** The credential a sign-in presents; whose it is comes from the row. */
export async function findByCredentialId(db: Executor, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row;
}

export async function insertPasskey(db: Executor, values: typeof passkeys.$inferInsert): Promise<PasskeyRow> {
  const [row] = await db.insert(passkeys).values(values).returning();
  return row!;
}

export async function renameOwn(
  db: Executor,
  userId: number,
  id: number,
  name: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  return row;
}

export async function deleteOwn(db: Executor, userId: number, id: number): Promise<void> {
  await db.delete(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
}

export async function markUsed(db: Executor, id: number, counter: number, at: Date): Promise<void> {
  await db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, id));
}

export async function insertChallenge(db: Executor, values: typeof webauthnChallenges.$inferInsert): Promise<void> {
  await db.insert(webauthnChallenges).values(values);
}

/**
 * Takes a challenge out of the table: it answers once, for one purpose (and one user for a
 * registration), before it expires. Two processes presenting it at once: only one gets the row.
 */
export async function consumeChallenge(
  db: Executor,
  challenge: string,
  purpose: 'register' | 'login',
  userId: number | null,
  at: Date,
): Promise<boolean> {
  const rows = await db.delete(webauthnChallenges).where(eq(webauthnChallenges.challenge, challenge)).returning();
  const row = rows[0];
  return Boolean(row && row.purpose === purpose && row.userId === userId && row.expiresAt > at);
}

export async function purgeExpiredChallenges(db: Executor, at: Date): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, at));
}
