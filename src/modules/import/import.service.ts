import type { Executor } from '../../db/client.ts';
import { allocateIds, baseCurrencyOf, rateOn, type BookedRow } from '../books/index.ts';
import { AppError } from '../../lib/errors.ts';
import { convertMinor, currencyInfo, parseMinor, parseRate, type CurrencyInfo } from '../../lib/currency.ts';
import type { CategoryKind } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import { checkSignal } from './import.signal.ts';
import { duplicateCounter } from './import.duplicates.ts';
import { fitToAccount, writePage } from './import.writer.ts';
import * as repo from './import.repo.ts';
import { recordEvent } from '../webhooks/index.ts';
import type { ImportResult } from './import.schemas.ts';
import { categoryRefused, MAX_CATEGORIES, WRITE_PAGE } from './import.rows.ts';
import { readLedgerFile, validateRecords, type ImportRow, type RowError } from './ledger.read.ts';

/*
 * POST /api/import: our own export, all or nothing, in one database transaction. The file is read
 * by the same reader as the preview's ledger format (ledger.read.ts), duplicates are counted by
 * the same rule and query as a preview's rows without an id, the user's imports are serialized by
 * the same lock, and the rows are written a page at a time through the books writer as a
 * preview's commit writes them. It keeps no preview: nothing is stored before the one
 * transaction that writes, and the money columns (accounts by name, currencies, rates, transfer
 * amounts) that only this path reads are planned here.
 */

const catKey = (kind: string, name: string) => `${kind}\u0000${name}`;

/** An account a row names: one of the user's (id) or one the import creates (id null until then). */
interface AccountPlan {
  id: number | null;
  name: string;
  currency: CurrencyInfo;
  /** the earliest date of a row in it: a new account opens then */
  firstDate: string;
}

/** A row's money once its accounts are known: amounts in minor units of their accounts' currencies. */
interface Money {
  account: AccountPlan;
  minor: number;
  baseAmount: number;
  rate: string | null;
  to: AccountPlan | null;
  toMinor: number | null;
}

interface Plan {
  toImport: ImportRow[];
  /** the money of each row of toImport, same order */
  money: Money[];
  skipped: number;
  /** categories to create, in order of first use */
  newCategories: { kind: CategoryKind; name: string }[];
  /** accounts to create, in order of first use */
  newAccounts: AccountPlan[];
  errors: RowError[];
  categoryIds: Map<string, number>;
  categories: repo.CategoryRef[];
  liveGroups: Set<number>;
}

const isCategorized = (r: ImportRow): r is ImportRow & { kind: CategoryKind } =>
  r.kind === 'expense' || r.kind === 'income';

/**
 * The account each row goes to by name: the user's own (the first of a name, in their order), the
 * default one for a row naming none, or a new one the import creates (in the row's currency, else
 * the base); a reason when the row's currency is not its account's.
 */
function accountPlanner(own: Awaited<ReturnType<typeof repo.userAccounts>>, base: CurrencyInfo) {
  const byName = new Map<string, AccountPlan>();
  let fallback: AccountPlan | null = null;
  for (const a of own) {
    const plan: AccountPlan = { id: a.id, name: a.name, currency: currencyInfo(a.currency) ?? base, firstDate: '' };
    // names are not unique: the first one in the user's order wins
    if (!byName.has(a.name)) byName.set(a.name, plan);
    if (a.isDefault) fallback = plan;
  }
  const newAccounts: AccountPlan[] = [];
  const accountOf = (name: string | undefined, currency: string | undefined, date: string): AccountPlan | string => {
    if (name === undefined) {
      if (!fallback) return 'there is no default account';
      if (currency !== undefined && currency !== fallback.currency.code)
        return `currency ${currency} is not the default account's (${fallback.currency.code}): name the account`;
      return fallback;
    }
    let a = byName.get(name);
    if (!a) {
      a = {
        id: null,
        name,
        currency: (currency !== undefined ? currencyInfo(currency) : undefined) ?? base,
        firstDate: date,
      };
      byName.set(name, a);
      newAccounts.push(a);
    }
    if (currency !== undefined && currency !== a.currency.code)
      return `account "${name}" holds ${a.currency.code}, not ${currency}`;
    if (a.id === null && date < a.firstDate) a.firstDate = date;
    return a;
  };

  return { accountOf, newAccounts };
}

/**
 * The accounts and amounts of every row. A row without `account` goes to the user's default
 * account; an account name the user does not have is created by the import (type "other", in the
 * row's `currency`, else the base currency, opening balance 0 on its first row's date). A
 * `currency` that differs from its account's, an amount with more decimals than the account's
 * currency has, or a foreign amount without a rate (neither in the file nor in the user's rates on
 * or before the row's date) is an error of that row.
 */
async function planMoney(
  ex: Executor,
  userId: number,
  rows: ImportRow[],
  errors: RowError[],
): Promise<{ money: (Money | null)[]; newAccounts: AccountPlan[] }> {
  const base = await baseCurrencyOf(ex, userId);
  const own = await repo.userAccounts(ex, userId);
  const { accountOf, newAccounts } = accountPlanner(own, base);
  const rates = new Map<string, string | null>();
  const rateFor = async (currency: string, date: string): Promise<string | null> => {
    const key = `${currency} ${date}`;
    if (!rates.has(key)) rates.set(key, await rateOn(ex, userId, currency, date));
    return rates.get(key)!;
  };

  const money: (Money | null)[] = [];
  for (const r of rows) {
    const problems: string[] = [];
    const account = accountOf(r.account, r.currency, r.date);
    if (typeof account === 'string') problems.push(account);
    let to: AccountPlan | null = null;
    if (r.kind === 'transfer') {
      // the receiving account of a new name gets the base currency
      const t = accountOf(r.toAccount, undefined, r.date);
      if (typeof t === 'string') problems.push(t);
      else to = t;
      if (typeof account !== 'string' && to !== null && to === account)
        problems.push('a transfer needs two different accounts');
    }
    if (typeof account === 'string' || problems.length) {
      errors.push({ row: r.row, message: problems.join('; ') });
      money.push(null);
      continue;
    }
    // without a currency cell the amount was read in hundredths: fitted to the account's decimals
    let minor = r.amountMinor;
    if (r.currency === undefined) {
      // the books' rule, as a preview's commit fits the amounts of a file that names no currency
      const fitted = fitToAccount(r.amountMinor, account.currency);
      if (typeof fitted === 'string') problems.push(fitted);
      else minor = fitted;
    }
    let baseAmount = minor;
    let rate: string | null = null;
    if (account.currency.code !== base.code) {
      rate = r.rate ?? (await rateFor(account.currency.code, r.date));
      if (rate === null)
        problems.push(
          `rate is needed: there is no ${account.currency.code} to ${base.code} rate on or before ${r.date}`,
        );
      else baseAmount = convertMinor(minor, account.currency, base, parseRate(rate));
    }
    let toMinor: number | null = null;
    if (to) {
      if (r.toAmount !== undefined) {
        try {
          toMinor = parseMinor(r.toAmount, to.currency, 'to_amount');
        } catch (err) {
          problems.push(err instanceof AppError ? err.message : 'to_amount is invalid');
        }
      } else if (to.currency.code === account.currency.code) toMinor = minor;
      else
        problems.push(
          `to_amount is needed: a transfer from ${account.currency.code} to ${to.currency.code} carries both amounts`,
        );
    }
    if (problems.length) {
      errors.push({ row: r.row, message: problems.join('; ') });
      money.push(null);
    } else money.push({ account, minor, baseAmount, rate, to, toMinor });
  }
  return { money, newAccounts };
}

/**
 * Decides which rows are duplicates: for each (date, kind, amount, category, note, account) the
 * first "existing count" rows of the file are skipped and the rest imported, so that importing a
 * file twice, or one's own export, adds nothing. Also finds the categories and accounts to create
 * and refuses rows that would take the user past the category limit.
 */
async function planImport(ex: Executor, userId: number, allRows: ImportRow[]): Promise<Plan> {
  const categories = await repo.userCategories(ex, userId);
  const categoryIds = new Map(categories.map((c) => [catKey(c.kind, c.name), c.id]));
  const liveGroups = new Set(await repo.liveGroupIds(ex, userId));
  const errors: RowError[] = [];
  const planned = await planMoney(ex, userId, allRows, errors);
  const rows = allRows.filter((_, i) => planned.money[i] !== null);
  const rowMoney = planned.money.filter((m): m is Money => m !== null);

  const duplicate = await duplicateCounter(
    ex,
    userId,
  )(
    rows.map((r, i) => {
      const m = rowMoney[i]!;
      const categoryId = isCategorized(r) ? categoryIds.get(catKey(r.kind, r.category)) : null;
      // a category or an account the import creates: nothing of it can exist yet
      if (categoryId === undefined || m.account.id === null) return null;
      return { date: r.date, kind: r.kind, amountMinor: m.minor, categoryId, note: r.note, accountId: m.account.id };
    }),
  );

  const toImport: ImportRow[] = [];
  const money: Money[] = [];
  let skipped = 0;
  rows.forEach((r, i) => {
    if (duplicate[i]) skipped++;
    else {
      toImport.push(r);
      money.push(rowMoney[i]!);
    }
  });
  const used = new Set(money.flatMap((m) => [m.account, ...(m.to ? [m.to] : [])]));
  const newAccounts = planned.newAccounts.filter((a) => used.has(a));

  const newCategories: { kind: CategoryKind; name: string }[] = [];
  const seen = new Set<string>();
  for (const r of toImport) {
    if (!isCategorized(r)) continue;
    const k = catKey(r.kind, r.category);
    if (!categoryIds.has(k) && !seen.has(k)) {
      seen.add(k);
      newCategories.push({ kind: r.kind, name: r.category });
    }
  }
  const room = Math.max(0, MAX_CATEGORIES - categories.length);
  if (newCategories.length > room) {
    const refused = new Set(newCategories.slice(room).map((c) => catKey(c.kind, c.name)));
    for (const r of toImport) {
      if (refused.has(catKey(r.kind, r.category))) {
        errors.push(categoryRefused(r.row, r.category));
      }
    }
  }
  return {
    toImport,
    money,
    skipped,
    newCategories: newCategories.slice(0, room),
    newAccounts,
    errors,
    categoryIds,
    categories,
    liveGroups,
  };
}

async function write(tx: Executor, userId: number, plan: Plan, signal?: AbortSignal): Promise<void> {
  // categories: appended after the user's own, in each kind's order
  if (plan.newCategories.length) {
    const nextSort = { expense: 0, income: 0 };
    for (const c of plan.categories) nextSort[c.kind] = Math.max(nextSort[c.kind], c.sort + 1);
    await repo.insertCategories(
      tx,
      userId,
      plan.newCategories.map((c) => ({ ...c, sort: nextSort[c.kind]++ })),
    );
    for (const c of await repo.userCategories(tx, userId)) plan.categoryIds.set(catKey(c.kind, c.name), c.id);
  }

  const wanted = new Set(plan.toImport.flatMap((r) => r.tags));
  let tagIds = new Map<string, number>();
  if (wanted.size) {
    tagIds = new Map((await repo.userTags(tx, userId)).map((t) => [t.name, t.id]));
    const missing = [...wanted].filter((n) => !tagIds.has(n));
    if (missing.length) {
      await repo.insertTags(tx, userId, missing);
      tagIds = new Map((await repo.userTags(tx, userId)).map((t) => [t.name, t.id]));
    }
  }

  // accounts: appended after the user's own
  if (plan.newAccounts.length) {
    const created = await repo.insertAccounts(
      tx,
      userId,
      plan.newAccounts.map((a) => ({ name: a.name, currency: a.currency.code, openingDate: a.firstDate })),
    );
    plan.newAccounts.forEach((a, i) => (a.id = created[i]!));
  }

  const ids = await allocateIds(tx, plan.toImport.length);
  for (let start = 0; start < plan.toImport.length; start += WRITE_PAGE) {
    const part = plan.toImport.slice(start, start + WRITE_PAGE);
    const links: { transactionId: number; tagId: number }[] = [];
    const rows = part.map((r, i): BookedRow => {
      const id = ids[start + i]!;
      const m = plan.money[start + i]!;
      for (const t of r.tags) links.push({ transactionId: id, tagId: tagIds.get(t)! });
      return {
        id,
        kind: r.kind,
        amount: m.minor,
        categoryId: isCategorized(r) ? plan.categoryIds.get(catKey(r.kind, r.category))! : null,
        accountId: m.account.id!,
        currency: m.account.currency.code,
        baseAmount: m.baseAmount,
        rate: m.rate,
        toAccountId: m.to ? m.to.id! : null,
        toAmount: m.toMinor,
        toCurrency: m.to ? m.to.currency.code : null,
        note: r.note,
        date: r.date,
        // a group the caller is not (or no longer) in, or that was dissolved: imported as personal
        groupId: r.groupId !== null && plan.liveGroups.has(r.groupId) ? r.groupId : null,
        createdAt: r.createdAt,
      };
    });
    // the client went away: the error ends the transaction, nothing is kept
    await writePage(tx, userId, rows, links, signal);
  }
}

const byRow = (a: RowError, b: RowError) => a.row - b.row;

const createdOf = (plan: Plan) =>
  plan.newAccounts.length ? { accounts_created: plan.newAccounts.map((a) => a.name) } : {};

/**
 * Imports a CSV or JSON file, all or nothing, in one database transaction. Any invalid row: 42203
 * listing every bad row, nothing written. A dry run answers what a real run would do and writes
 * nothing: with invalid rows that is nothing imported and the errors. When `signal` aborts (the
 * client went away) the work stops between batches and nothing is written (40001).
 */
export async function importFile(
  db: Executor,
  userId: number,
  file: Uint8Array,
  dryRun: boolean,
  signal?: AbortSignal,
): Promise<ImportResult> {
  const { rows, errors } = validateRecords(await readLedgerFile(file, signal));
  checkSignal(signal);
  if (dryRun) {
    const plan = await planImport(db, userId, rows);
    const all = [...errors, ...plan.errors].sort(byRow);
    if (all.length) return { imported: 0, skipped: 0, errors: all };
    return { imported: plan.toImport.length, skipped: plan.skipped, errors: [], ...createdOf(plan) };
  }
  if (errors.length) {
    // every bad row is listed, those refused by the category limit included
    const plan = await planImport(db, userId, rows);
    throw Errors.importRejected([...errors, ...plan.errors].sort(byRow));
  }
  return db.transaction(async (tx) => {
    await repo.lockUserImports(tx, userId);
    const plan = await planImport(tx, userId, rows);
    if (plan.errors.length) throw Errors.importRejected(plan.errors.sort(byRow));
    checkSignal(signal);
    await write(tx, userId, plan, signal);
    checkSignal(signal);
    const result = { imported: plan.toImport.length, skipped: plan.skipped, errors: [], ...createdOf(plan) };
    await recordEvent(tx, userId, 'import.committed', {
      source: 'file',
      imported: result.imported,
      skipped: result.skipped,
    });
    return result;
  });
}
