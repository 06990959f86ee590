// Reading accounts: the list with the net worth, one account, its ledger page and its balance over time.
import { addMonthsClamped } from '../../lib/dates.ts';
import { toMajorUnits } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { loadTransactionViews } from '../transactions/index.ts';
import { checkDate, snapshot, today, viewOf, type AccountDeps } from './accounts.deps.ts';
import type { AccountList, AccountView, BalanceSeries, Ledger } from './accounts.schemas.ts';
import { majorIn, netWorthOf, toAccountView } from './accounts.views.ts';

/** The accounts (archived ones when asked) with balances as of `date`, and the net worth of all of them. */
export async function listAccounts(
  deps: AccountDeps,
  userId: number,
  q: { include_archived?: boolean; date?: string },
): Promise<AccountList> {
  if (q.date !== undefined) checkDate(q.date, 'date');
  const { rows, base, rates } = await snapshot(deps, userId, q.date);
  const worth = netWorthOf(rows, base, (c) => rates.get(c));
  return {
    list: rows.filter((r) => q.include_archived || !r.archived).map((r) => toAccountView(r, base, rates)),
    base_currency: base.code,
    net_worth: toMajorUnits(worth.minor, base),
    missing_rates: worth.missing,
  };
}

/** One account with its balance as of `date` (all rows when omitted). */
export async function getAccount(deps: AccountDeps, userId: number, id: number, date?: string): Promise<AccountView> {
  if (date !== undefined) checkDate(date, 'date');
  return viewOf(deps, userId, id, date);
}

/** A page of the account's rows, each with its change to the account and the balance after it. */
export async function accountLedger(
  deps: AccountDeps,
  userId: number,
  id: number,
  q: { page?: number; pageSize?: number },
): Promise<Ledger> {
  const { db, repo } = deps;
  const account = await repo.findAccount(db, userId, id);
  if (!account) throw Errors.notFound('account');
  const { limit, offset } = pageOf(q);
  const { rows, total } = await repo.ledgerPage(db, userId, account, limit, offset);
  const views = await loadTransactionViews(
    db,
    rows.map((r) => r.id),
  );
  const byId = new Map(views.map((v) => [v.id, v]));
  const list = rows.flatMap((r) => {
    const v = byId.get(r.id);
    return v
      ? [{ ...v, delta: majorIn(r.delta, account.currency), balance: majorIn(r.balance, account.currency) }]
      : [];
  });
  return { list, total, account: await viewOf(deps, userId, id) };
}

/** The account's balance at the end of each day it changed over the last `months` months. */
export async function balanceSeries(deps: AccountDeps, userId: number, id: number, months = 6): Promise<BalanceSeries> {
  const { db, repo } = deps;
  const account = await repo.findAccount(db, userId, id);
  if (!account) throw Errors.notFound('account');
  const to = await today(deps, userId);
  const from = addMonthsClamped(to, -months);
  const { before, days } = await repo.dailyChanges(db, userId, account, from, to);
  const points = [{ date: from, minor: before }];
  let balance = before;
  for (const d of days) {
    balance += d.delta;
    if (d.date === from) points[0]!.minor = balance;
    else points.push({ date: d.date, minor: balance });
  }
  if (points[points.length - 1]!.date !== to) points.push({ date: to, minor: balance });
  return {
    currency: account.currency,
    list: points.map((p) => ({ date: p.date, balance: majorIn(p.minor, account.currency) })),
  };
}
