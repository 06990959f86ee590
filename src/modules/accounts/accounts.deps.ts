import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isValidDate, todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { baseCurrencyOf, userTimezone } from '../books/index.ts';
import { latestRates as ratesRepoLatestRates } from '../rates/index.ts';
import type * as accountsRepo from './accounts.repo.ts';
import type { AccountView } from './accounts.schemas.ts';
import { toAccountView } from './accounts.views.ts';

/** What the account use cases are built from. */
export interface AccountDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appTimezone'>;
  repo: typeof accountsRepo;
}

export const duplicateDefault = () => Errors.conflict('the default account changed meanwhile; try again');

/** Today in the user's time zone. */
export async function today({ db, clock, config }: AccountDeps, userId: number): Promise<string> {
  return todayIn(await userTimezone(db, userId, config.appTimezone), clock.now());
}

export function checkDate(value: string, field: string): string {
  if (!isValidDate(value)) throw Errors.field(field, 'must be a valid calendar date (YYYY-MM-DD)');
  return value;
}

/**
 * Every account (archived included) with balances as of `date` (all rows when omitted), the base currency and the
 * rates of that day.
 */
export async function snapshot(deps: AccountDeps, userId: number, date?: string) {
  const { db, repo } = deps;
  const asOf = date ?? (await today(deps, userId));
  const [rows, base, rates] = await Promise.all([
    repo.listWithBalances(db, userId, date),
    baseCurrencyOf(db, userId),
    ratesRepoLatestRates(db, userId, asOf),
  ]);
  return { rows, base, rates };
}

/** One account as the API shows it, with its balance as of `date`, or 40401. */
export async function viewOf(deps: AccountDeps, userId: number, id: number, date?: string): Promise<AccountView> {
  const { rows, base, rates } = await snapshot(deps, userId, date);
  const row = rows.find((r) => r.id === id);
  if (!row) throw Errors.notFound('account');
  return toAccountView(row, base, rates);
}
