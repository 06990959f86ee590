import { and, eq, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { accounts, users } from '../../db/schema/index.ts';
import { Errors } from '../../lib/errors.ts';

/**
 * Makes `base` the base currency, while the person has no transactions and no exchange rates
 * (42201 otherwise: their base amounts and rates are in the current one); the accounts still
 * empty in the old base currency follow it.
 */
export async function switchBaseCurrency(tx: Executor, userId: number, base: string, at: Date): Promise<void> {
  const [u] = await tx.select({ base: users.baseCurrency }).from(users).where(eq(users.id, userId)).for('update');
  if (!u || u.base === base) return;
  const [used] = await query<{ tx: boolean; rates: boolean }>(
    tx,
    sql`select exists (select 1 from transactions where user_id = ${userId}) as tx, exists (select 1 from exchange_rates where user_id = ${userId}) as rates`,
  );
  if (used?.tx || used?.rates) {
    throw Errors.rule(
      'the base currency can only change while you have no transactions and no exchange rates: their base amounts ' +
        'and rates are in the current one',
    );
  }
  await tx.update(users).set({ baseCurrency: base, updatedAt: at }).where(eq(users.id, userId));
  await tx
    .update(accounts)
    .set({ currency: base, updatedAt: at })
    .where(and(eq(accounts.userId, userId), eq(accounts.currency, u.base), eq(accounts.openingBalance, 0)));
}
