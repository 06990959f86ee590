import { isUniqueViolation } from '../../db/errors.ts';
import { notYours } from '../../lib/access.ts';
import { accountCurrency, baseCurrencyOf, mergeAccountRows, parseAmountIn, userTimezone, writeDraft } from '../books/index.ts';
import { countRulesOfAccount, moveRulesToAccount } from '../recurring/index.ts';
import { convertMinor, currencyInfo, parseRate, requireCurrency, toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import { eachMonth, isValidDate, monthOf, monthRange, todayIn, addMonthsClamped } from '../../lib/dates.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import type { ServiceDeps } from '../service.ts';
import { cleanOptionalText, cleanText } from '../../lib/text.ts';
import { loadTransactionViews } from '../transactions/index.ts';
import { latestRates as ratesRepoLatestRates, ratesByCurrency as ratesRepoRatesByCurrency } from '../rates/index.ts';
import * as accountsRepo from './accounts.repo.ts';
import type { AccountRow, AccountWithBalance } from './accounts.repo.ts';
import {
  MAX_ACCOUNTS_PER_USER,
  type AccountCreateBody,
  type AccountList,
  type AccountUpdateBody,
  type AccountView,
  type Ledger,
  type NetWorthHistory,
  type ReconcileBody,
} from './accounts.schemas.ts';
import type { TransactionView } from '../transactions/index.ts';

/**
 * Net worth: each account's balance (integer minor units of its currency) converted into the base
 * currency at the user's latest rate dated on or before the day asked for (today by default),
 * rounded once per account half away from zero to the base currency's minor unit, then summed.
 * An account in a currency without such a rate is left out and its currency listed in `missing_rates`.
 */
export function balanceInBase(balance: number, currency: string, base: CurrencyInfo, rate: string | undefined): number | null {
  if (currency === base.code) return balance;
  const from = currencyInfo(currency);
  if (!from || rate === undefined) return null;
  try {
    return convertMinor(balance, from, base, parseRate(rate));
  } catch (err) {
    // a stored rate outside today's bounds, or a balance too large once converted: this account
    // shows as unconverted (listed with the missing rates) rather than failing the whole page
    if (err instanceof AppError && err.status === 400) return null;
    throw err;
  }
}

function majorIn(minor: number, code: string): number {
  const info = currencyInfo(code);
  return info ? toMajorUnits(minor, info) : minor / 100;
}

export function toAccountView(row: AccountWithBalance, base: CurrencyInfo, rates: Map<string, string>): AccountView {
  const inBase = balanceInBase(row.balance, row.currency, base, rates.get(row.currency));
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    currency: row.currency,
    opening_balance: majorIn(row.openingBalance, row.currency),
    opening_date: row.openingDate,
    balance: majorIn(row.balance, row.currency),
    balance_in_base: inBase === null ? null : toMajorUnits(inBase, base),
    archived: row.archived,
    is_default: row.isDefault,
    sort: row.sort,
    color: row.color,
    icon: row.icon,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

/** Net worth in base minor units of accounts with balances, and the currencies that had no rate. */
export function netWorthOf(rows: { balance: number; currency: string }[], base: CurrencyInfo, rateOf: (currency: string) => string | undefined): { minor: number; missing: string[] } {
  let minor = 0;
  const missing = new Set<string>();
  for (const r of rows) {
    const v = balanceInBase(r.balance, r.currency, base, rateOf(r.currency));
    if (v === null) missing.add(r.currency);
    else minor += v;
  }
  return { minor, missing: [...missing].sort() };
}

const duplicateDefault = () => Errors.conflict('the default account changed meanwhile; try again');

export type AccountServiceDeps = ServiceDeps<typeof accountsRepo, 'appTimezone'>;

export function createAccountService({ db, clock, config, repo = accountsRepo }: AccountServiceDeps) {
  async function today(userId: number): Promise<string> {
    return todayIn(await userTimezone(db, userId, config.appTimezone), clock.now());
  }

  function checkDate(value: string, field: string): string {
    if (!isValidDate(value)) throw Errors.field(field, 'must be a valid calendar date (YYYY-MM-DD)');
    return value;
  }

  /** Every account (archived included) with balances as of `date` (all rows when omitted), the base currency and the rates of that day. */
  async function snapshot(userId: number, date?: string) {
    const asOf = date ?? (await today(userId));
    const [rows, base, rates] = await Promise.all([repo.listWithBalances(db, userId, date), baseCurrencyOf(db, userId), ratesRepoLatestRates(db, userId, asOf)]);
    return { rows, base, rates };
  }

  async function viewOf(userId: number, id: number, date?: string): Promise<AccountView> {
    const { rows, base, rates } = await snapshot(userId, date);
    const row = rows.find((r) => r.id === id);
    if (!row) throw Errors.notFound('account');
    return toAccountView(row, base, rates);
  }

  return {
    async list(userId: number, q: { include_archived?: boolean; date?: string }): Promise<AccountList> {
      if (q.date !== undefined) checkDate(q.date, 'date');
      const { rows, base, rates } = await snapshot(userId, q.date);
      const worth = netWorthOf(rows, base, (c) => rates.get(c));
      return {
        list: rows.filter((r) => q.include_archived || !r.archived).map((r) => toAccountView(r, base, rates)),
        base_currency: base.code,
        net_worth: toMajorUnits(worth.minor, base),
        missing_rates: worth.missing,
      };
    },

    async get(userId: number, id: number, date?: string): Promise<AccountView> {
      if (date !== undefined) checkDate(date, 'date');
      return viewOf(userId, id, date);
    },

    async create(userId: number, body: AccountCreateBody): Promise<AccountView> {
      const name = cleanText(body.name, 'name', 1, 30);
      const note = cleanOptionalText(body.note, 'note', 200);
      const icon = body.icon === undefined ? '' : cleanText(body.icon, 'icon', 0, 50);
      const base = await baseCurrencyOf(db, userId);
      const currency = body.currency === undefined ? base : requireCurrency(body.currency);
      const openingBalance = body.opening_balance === undefined ? 0 : parseAmountIn(body.opening_balance, currency, 'opening_balance', { allowNegative: true, allowZero: true });
      const openingDate = body.opening_date === undefined ? await today(userId) : checkDate(body.opening_date, 'opening_date');
      const id = await db
        .transaction(async (tx) => {
          await repo.lockOwner(tx, userId);
          if ((await repo.countAccounts(tx, userId)) >= MAX_ACCOUNTS_PER_USER) throw Errors.rule(`at most ${MAX_ACCOUNTS_PER_USER} accounts per user`);
          if (body.is_default) await repo.clearDefault(tx, userId);
          const row = await repo.insertAccount(tx, {
            userId,
            name,
            type: body.type,
            currency: currency.code,
            openingBalance,
            openingDate,
            color: (body.color ?? '#9B9B9B').toUpperCase(),
            icon,
            note,
            isDefault: body.is_default === true,
            sort: await repo.nextSort(tx, userId),
          });
          return row.id;
        })
        .catch((err: unknown) => {
          if (isUniqueViolation(err)) throw duplicateDefault();
          throw err;
        });
      return viewOf(userId, id);
    },

    async update(userId: number, id: number, body: AccountUpdateBody): Promise<AccountView> {
      const patch: Partial<AccountRow> = {};
      if (body.name !== undefined) patch.name = cleanText(body.name, 'name', 1, 30);
      if (body.type !== undefined) patch.type = body.type;
      if (body.color !== undefined) patch.color = body.color.toUpperCase();
      if (body.icon !== undefined) patch.icon = cleanText(body.icon, 'icon', 0, 50);
      if (body.note !== undefined) patch.note = cleanText(body.note, 'note', 0, 200);
      if (body.opening_date !== undefined) patch.openingDate = checkDate(body.opening_date, 'opening_date');
      const newCurrency = body.currency === undefined ? undefined : requireCurrency(body.currency);
      await db
        .transaction(async (tx) => {
          await repo.lockOwner(tx, userId);
          const cur = await repo.lockAccount(tx, userId, id);
          if (!cur) throw Errors.notFound('account');
          if (newCurrency && newCurrency.code !== cur.currency) {
            if ((await repo.countRows(tx, id)) > 0) throw Errors.rule('the currency of an account with transactions cannot change: open a new account and transfer to it');
            patch.currency = newCurrency.code;
          }
          const currency = newCurrency ?? accountCurrency(cur, 'currency');
          if (body.opening_balance !== undefined) {
            patch.openingBalance = parseAmountIn(body.opening_balance, currency, 'opening_balance', { allowNegative: true, allowZero: true });
          } else if (patch.currency !== undefined && cur.openingBalance !== 0) {
            throw Errors.field('opening_balance', 'is required when the currency changes');
          }
          if (body.archived !== undefined) {
            if (body.archived && (cur.isDefault || body.is_default)) throw Errors.rule('the default account cannot be archived: make another account the default first');
            patch.archived = body.archived;
          }
          if (body.is_default && !cur.isDefault) {
            if (cur.archived && body.archived !== false) throw Errors.rule('an archived account cannot be the default: unarchive it first');
            await repo.clearDefault(tx, userId);
            patch.isDefault = true;
          }
          if (Object.keys(patch).length) await repo.updateAccount(tx, userId, id, { ...patch, updatedAt: clock.now() });
        })
        .catch((err: unknown) => {
          if (isUniqueViolation(err)) throw duplicateDefault();
          throw err;
        });
      return viewOf(userId, id);
    },

    async remove(userId: number, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        await repo.lockOwner(tx, userId);
        const cur = await repo.lockAccount(tx, userId, id);
        if (!cur) throw Errors.notFound('account');
        if (cur.isDefault) throw Errors.rule('the default account cannot be deleted: make another account the default first');
        if ((await repo.countRows(tx, id)) > 0) throw Errors.rule('the account has transactions: archive it, or merge it into another account of the same currency');
        if ((await countRulesOfAccount(tx, userId, id)) > 0) throw Errors.rule('recurring rules book into or out of this account: move them to another account or delete them first');
        await repo.deleteAccount(tx, userId, id);
      });
    },

    async sort(userId: number, ids: number[]): Promise<void> {
      if (new Set(ids).size !== ids.length) throw Errors.field('ids', 'must not repeat an id');
      await db.transaction(async (tx) => {
        await repo.lockOwner(tx, userId);
        const all = await repo.idsOf(tx, userId);
        const owned = new Set(all);
        if (!ids.every((i) => owned.has(i))) throw notYours.account('ids');
        if (ids.length !== all.length) throw Errors.field('ids', `must list all ${all.length} of your accounts`);
        await repo.applySort(tx, userId, ids);
      });
    },

    /**
     * Moves every row of account `id` into `targetId` (same currency, else 42201) and deletes `id`, in
     * one transaction: balances add up (opening balances too, opened at the earlier date); transfers
     * between the two are removed; a merged default account hands the default to the target.
     */
    async merge(userId: number, id: number, targetId: number) {
      const out = await db.transaction(async (tx) => {
        await repo.lockOwner(tx, userId);
        const source = await repo.lockAccount(tx, userId, id);
        if (!source) throw Errors.notFound('account');
        if (targetId === id) throw Errors.field('target_id', 'must be another account');
        const target = await repo.lockAccount(tx, userId, targetId);
        if (!target) throw notYours.account('target_id');
        if (target.currency !== source.currency) throw Errors.rule('accounts of different currencies cannot be merged');
        const counts = await mergeAccountRows(tx, userId, id, targetId);
        await moveRulesToAccount(tx, userId, id, targetId);
        await repo.deleteAccount(tx, userId, id);
        await repo.updateAccount(tx, userId, targetId, {
          openingBalance: target.openingBalance + source.openingBalance,
          openingDate: source.openingDate < target.openingDate ? source.openingDate : target.openingDate,
          ...(source.isDefault ? { isDefault: true, archived: false } : {}),
          updatedAt: clock.now(),
        });
        return counts;
      });
      return { moved: out.moved, removed_transfers: out.removedTransfers, account: await viewOf(userId, targetId) };
    },

    async ledger(userId: number, id: number, q: { page?: number; pageSize?: number }): Promise<Ledger> {
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
        return v ? [{ ...v, delta: majorIn(r.delta, account.currency), balance: majorIn(r.balance, account.currency) }] : [];
      });
      return { list, total, account: await viewOf(userId, id) };
    },

    /**
     * Records the balance the bank shows on `date` (today by default): the difference to the
     * computed balance of that day is booked as an `adjustment` row of the account (none when they
     * agree), converted to the base currency like any row.
     */
    async reconcile(userId: number, id: number, body: ReconcileBody): Promise<{ account: AccountView; adjustment: TransactionView | null }> {
      const date = body.date === undefined ? await today(userId) : checkDate(body.date, 'date');
      const noteIn = body.note === undefined ? undefined : cleanText(body.note, 'note', 0, 200);
      const adjustmentId = await db.transaction(async (tx) => {
        await repo.lockOwner(tx, userId);
        const account = await repo.lockAccount(tx, userId, id);
        if (!account) throw Errors.notFound('account');
        const currency = accountCurrency(account);
        const bank = parseAmountIn(body.balance, currency, 'balance', { allowNegative: true, allowZero: true });
        const [row] = (await repo.listWithBalances(tx, userId, date)).filter((r) => r.id === id);
        const diff = bank - (row?.balance ?? 0);
        if (diff === 0) return null;
        return writeDraft(tx, userId, { kind: 'adjustment', amount: { minor: diff }, account, categoryId: null, note: noteIn ?? '', date });
      });
      const [adjustment] = adjustmentId === null ? [null] : await loadTransactionViews(db, [adjustmentId]);
      return { account: await viewOf(userId, id), adjustment: adjustment ?? null };
    },

    /**
     * Net worth at the end of each of the last `months` months (today for the current one): each
     * account's balance then, converted at the latest rate dated on or before that day (when there
     * is none so early, the earliest rate known), rounded half away from zero per account.
     */
    async netWorthHistory(userId: number, months: number): Promise<NetWorthHistory> {
      const now = await today(userId);
      const first = monthOf(addMonthsClamped(`${monthOf(now)}-01`, -(months - 1)));
      const [accounts, deltas, base, rates] = await Promise.all([
        repo.listWithBalances(db, userId),
        repo.monthlyDeltas(db, userId),
        baseCurrencyOf(db, userId),
        ratesRepoRatesByCurrency(db, userId),
      ]);
      const byAccount = new Map<number, { month: string; delta: number }[]>();
      for (const d of deltas) {
        let l = byAccount.get(d.accountId);
        if (!l) byAccount.set(d.accountId, (l = []));
        l.push(d);
      }
      const rateOn = (currency: string, day: string): string | undefined => {
        const list = rates.get(currency);
        if (!list?.length) return undefined;
        let pick = list[0]!.rate;
        for (const r of list) {
          if (r.date > day) break;
          pick = r.rate;
        }
        return pick;
      };
      const list: NetWorthHistory['list'] = [];
      for (const month of eachMonth(`${first}-01`, now)) {
        const end = month === monthOf(now) ? now : monthRange(month).end;
        const balances = accounts.map((a) => {
          let balance = a.openingDate <= end ? a.openingBalance : 0;
          for (const d of byAccount.get(a.id) ?? []) if (d.month <= month) balance += d.delta;
          return { balance, currency: a.currency };
        });
        const worth = netWorthOf(balances, base, (c) => rateOn(c, end));
        list.push({ month, net_worth: toMajorUnits(worth.minor, base), missing_rates: worth.missing });
      }
      return { base_currency: base.code, list };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
