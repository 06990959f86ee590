import { and, asc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { oidcFlows, oidcIdentities } from '../../db/schema/index.ts';

export type OidcFlowRow = typeof oidcFlows.$inferSelect;
export type OidcIdentityRow = typeof oidcIdentities.$inferSelect;

export async function insertFlow(db: Executor, values: typeof oidcFlows.$inferInsert): Promise<void> {
  await db.insert(oidcFlows).values(values);
}

/** Takes the flow of a state: the row is deleted as it is read, so a state is good for one answer only. */
export async function takeFlow(db: Executor, stateHash: string): Promise<OidcFlowRow | undefined> {
  const [row] = await db.delete(oidcFlows).where(eq(oidcFlows.stateHash, stateHash)).returning();
  return row;
}

export async function purgeExpiredFlows(db: Executor, at: Date): Promise<void> {
  await db.delete(oidcFlows).where(lt(oidcFlows.expiresAt, at));
}

export async function findIdentity(
  db: Executor,
  issuer: string,
  subject: string,
): Promise<OidcIdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(oidcIdentities)
    .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, subject)));
  return row;
}

export async function insertIdentity(
  db: Executor,
  values: typeof oidcIdentities.$inferInsert,
): Promise<OidcIdentityRow> {
  const [row] = await db.insert(oidcIdentities).values(values).returning();
  return row!;
}

export async function touchIdentity(db: Executor, id: number, at: Date, email: string | null): Promise<void> {
  await db.update(oidcIdentities).set({ lastUsedAt: at, email }).where(eq(oidcIdentities.id, id));
}

export async function listOwn(db: Executor, userId: number): Promise<OidcIdentityRow[]> {
  return db
    .select()
    .from(oidcIdentities)
    .where(eq(oidcIdentities.userId, userId))
    .orderBy(asc(oidcIdentities.createdAt), asc(oidcIdentities.id));
}

export async function countOwn(db: Executor, userId: number): Promise<number> {
  return (await db.select({ id: oidcIdentities.id }).from(oidcIdentities).where(eq(oidcIdentities.userId, userId)))
    .length;
}

export async function deleteOwn(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(oidcIdentities)
    .where(and(eq(oidcIdentities.id, id), eq(oidcIdentities.userId, userId)))
    .returning({ id: oidcIdentities.id });
  return rows.length > 0;
}
