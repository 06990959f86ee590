// The net worth at the end of each of the last months, every account converted at the rate of that day.
import { toMajorUnits } from '../../lib/currency.ts';
import { addMonthsClamped, eachMonth, monthOf, monthRange } from '../../lib/dates.ts';
import { baseCurrencyOf } from '../books/index.ts';
import { ratesByCurrency as ratesRepoRatesByCurrency } from '../rates/index.ts';
import { today, type AccountDeps } from './accounts.deps.ts';
import type { NetWorthHistory } from './accounts.schemas.ts';
import { netWorthOf } from './accounts.views.ts';

type MonthDelta = { month: string; delta: number };

/**
 * Net worth at the end of each of the last `months` months (today for the current one): each
 * account's balance then, converted at the latest rate dated on or before that day (when there
 * is none so early, the earliest rate known), rounded half away from zero per account.
 */
export async function netWorthHistory(deps: AccountDeps, userId: number, months: number): Promise<NetWorthHistory> {
  const { db, repo } = deps;
  const now = await today(deps, userId);
  const first = monthOf(addMonthsClamped(`${monthOf(now)}-01`, -(months - 1)));
  const [accounts, deltas, base, rates] = await Promise.all([
    repo.listWithBalances(db, userId),
    repo.monthlyDeltas(db, userId),
    baseCurrencyOf(db, userId),
    ratesRepoRatesByCurrency(db, userId),
  ]);
  const byAccount = new Map<number, MonthDelta[]>();
  for (const d of deltas) {
    let l = byAccount.get(d.accountId);
    if (!l) byAccount.set(d.accountId, (l = []));
    l.push(d);
  }
  const list: NetWorthHistory['list'] = [];
  for (const month of eachMonth(`${first}-01`, now)) {
    const end = month === monthOf(now) ? now : monthRange(month).end;
    const balances = accounts.map((a) => {
      let balance = a.openingDate <= end ? a.openingBalance : 0;
      for (const d of byAccount.get(a.id) ?? []) if (d.month <= month) balance += d.delta;
      return { balance, currency: a.currency };
    });
    const worth = netWorthOf(balances, base, (c) => rateOn(rates, c, end));
    list.push({ month, net_worth: toMajorUnits(worth.minor, base), missing_rates: worth.missing });
  }
  return { base_currency: base.code, list };
}

/** The latest rate of `currency` dated on or before `day`, else its earliest one; none without rates. */
function rateOn(
  rates: Map<string, { date: string; rate: string }[]>,
  currency: string,
  day: string,
): string | undefined {
  const list = rates.get(currency);
  if (!list?.length) return undefined;
  let pick = list[0]!.rate;
  for (const r of list) {
    if (r.date > day) break;
    pick = r.rate;
  }
  return pick;
}
