import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { parseBookedMinor, type CurrencyInfo } from '../../lib/currency.ts';
import { todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { parseAmount } from '../../lib/money.ts';
import { userTimezone } from '../books/index.ts';
import { lineInForce, type LineKey } from './budgets.lines.ts';
import type * as budgetsRepo from './budgets.repo.ts';
import type { LegacyPersonalBudget, PersonalBudget } from './budgets.schemas.ts';

/** What the budget use cases are built from. */
export interface BudgetDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appTimezone'>;
  repo: typeof budgetsRepo;
}

/** This month (YYYY-MM) in the user's time zone. */
export async function thisMonth({ db, clock, config }: BudgetDeps, userId: number): Promise<string> {
  return todayIn(await userTimezone(db, userId, config.appTimezone), clock.now()).slice(0, 7);
}

/** The personal answer of GET/PUT /api/budget, unchanged since before category lines existed. */
export const legacy = (b: PersonalBudget): LegacyPersonalBudget => ({
  month: b.month,
  amount: b.amount,
  spent: b.spent,
  remaining: b.remaining,
});

/** A personal amount in minor units of the base currency; null clears. */
export const personalAmountOf = (value: unknown, base: CurrencyInfo, field = 'amount'): number | null =>
  value === null ? null : parseBookedMinor(value, base, field);

/** The pattern admits year 0000, which the database's dates do not have (40001). */
export const checkMonth = (month: string): string => {
  if (month < '0001-01') throw Errors.field('month', 'must be from the year 0001 on');
  return month;
};

/** null clears; anything else must be a valid amount (40001). */
export const amountOf = (value: unknown): number | null => (value === null ? null : parseAmount(value, 'amount'));

/** One line set in `month`, for that month alone unless `repeat`; a personal total keeps its carry-over. */
export async function write(
  { db, repo }: BudgetDeps,
  key: LineKey,
  month: string,
  minor: number | null,
  repeat = false,
): Promise<void> {
  const carryOver = minor !== null && (lineInForce(await repo.readLine(db, key, month), month)?.carryOver ?? false);
  await repo.writeLine(db, key, month, { amount: minor, carryOver, repeat });
}
