import type { Executor } from '../../db/client.ts';
import { accounts } from '../../db/schema/index.ts';
import type { AccountRef } from '../books/index.ts';
import type { Locale } from '../categories/index.ts';

/** A new user's first account. Where a transaction's money goes and what it is worth is decided by the books (src/modules/books). */

/** A new user's account: cash in their base currency, named in their language, the default. */
export async function createDefaultAccount(db: Executor, userId: number, opts: { locale?: Locale; currency: string; openingDate: string }): Promise<AccountRef> {
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
