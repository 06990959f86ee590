import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accounts, importAccountMaps, transactions } from '../../db/schema/index.ts';

/** The person's live accounts and the payment methods their bill imports mapped to accounts. */
export async function accountsAndMaps(db: Executor, userId: number) {
  const [own, maps] = await Promise.all([
    db
      .select({ id: accounts.id, name: accounts.name, isDefault: accounts.isDefault })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.archived, false))),
    db
      .select({ method: importAccountMaps.method, accountId: importAccountMaps.accountId })
      .from(importAccountMaps)
      .where(eq(importAccountMaps.userId, userId)),
  ]);
  return { own, maps };
}

/** A transaction of the person's booked from a WeChat or Alipay bill (or a screenshot) under this order id. */
export async function bookedOrder(db: Executor, userId: number, orderId: string): Promise<number | null> {
  const [row] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        inArray(transactions.source, ['wechat', 'alipay']),
        eq(transactions.externalId, orderId),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}
