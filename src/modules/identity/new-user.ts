import type { Executor } from '../../db/client.ts';
import { createDefaultAccount } from '../accounts/index.ts';
import { createDefaultCategories, type Locale } from '../categories/index.ts';

/**
 * Everything a new user starts with, whichever way they arrived (WeChat, registration, demo, CLI):
 * the default categories and a cash account in their base currency, both named in their language.
 * `openingDate` is when the cash account starts (the demo's first sample day, else today).
 */
export async function setUpNewUser(
  db: Executor,
  user: { id: number; baseCurrency: string; createdAt: Date },
  locale: Locale = 'en',
  openingDate?: string,
): Promise<void> {
  await createDefaultCategories(db, user.id, locale);
  await createDefaultAccount(db, user.id, {
    locale,
    currency: user.baseCurrency,
    openingDate: openingDate ?? user.createdAt.toISOString().slice(0, 10),
  });
}
