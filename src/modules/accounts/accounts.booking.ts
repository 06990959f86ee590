import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accounts } from '../../db/schema/index.ts';
import type { AccountType } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import * as repo from './accounts.repo.ts';
import { MAX_ACCOUNTS_PER_USER } from './accounts.schemas.ts';
import type { AccountRef } from '../books/index.ts';
import type { Locale } from '../categories/index.ts';

/**
 * A new user's first account. Where a transaction's money goes and what it is worth is decided by the books
 * (src/modules/books).
 */

/** A new user's account: cash in their base currency, named in their language, the default. */
export async function createDefaultAccount(
  db: Executor,
  userId: number,
  opts: { locale?: Locale; currency: string; openingDate: string },
): Promise<AccountRef> {
  const [row] = await db
    .insert(accounts)
    .values({
      userId,
      name: opts.locale === 'zh' ? '现金' : 'Cash',
      type: 'cash',
      currency: opts.currency,
      openingDate: opts.openingDate,
      color: '#F5A623',
      icon: 'cash',
      isDefault: true,
    })
    .returning({ id: accounts.id, currency: accounts.currency, archived: accounts.archived });
  return row!;
}

/** How the usual accounts look when the first-run setup opens them, by type. */
const LOOKS: Record<AccountType, { color: string; icon: string }> = {
  cash: { color: '#F5A623', icon: 'cash' },
  debit_card: { color: '#4A90E2', icon: 'card' },
  credit_card: { color: '#D0021B', icon: 'card' },
  e_wallet: { color: '#07C160', icon: 'wallet' },
  investment: { color: '#8B572A', icon: 'chart' },
  loan: { color: '#9013FE', icon: 'loan' },
  other: { color: '#9B9B9B', icon: '' },
};

/**
 * The accounts a person names in the first-run setup, with their opening balances (minor units of
 * `currency`): an account of that name already there (the cash account every new user has) takes
 * the balance; the others are opened on `openingDate`. Within the caller's transaction.
 */
export async function openUsualAccounts(
  tx: Executor,
  userId: number,
  list: { name: string; type: AccountType; openingMinor: number }[],
  currency: string,
  openingDate: string,
): Promise<void> {
  await repo.lockOwner(tx, userId);
  const existing = await tx
    .select({ id: accounts.id, name: accounts.name })
    .from(accounts)
    .where(eq(accounts.userId, userId));
  if ((await repo.countAccounts(tx, userId)) + list.length > MAX_ACCOUNTS_PER_USER)
    throw Errors.rule(`at most ${MAX_ACCOUNTS_PER_USER} accounts per user`);
  let sort = await repo.nextSort(tx, userId);
  for (const a of list) {
    const same = existing.find((e) => e.name.toLowerCase() === a.name.toLowerCase());
    if (same) {
      await repo.updateAccount(tx, userId, same.id, { openingBalance: a.openingMinor, updatedAt: new Date() });
      continue;
    }
    await repo.insertAccount(tx, {
      userId,
      name: a.name,
      type: a.type,
      currency,
      openingBalance: a.openingMinor,
      openingDate,
      ...LOOKS[a.type],
      sort: sort++,
    });
  }
}
