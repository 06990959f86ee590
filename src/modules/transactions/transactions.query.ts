import { checkDate } from '../../lib/dates.ts';
import { requireCurrency, toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { jsonText, type JsonText } from '../../lib/json-text.ts';
import { parseAmountBound } from '../../lib/money.ts';
import { pageOf } from '../../lib/pagination.ts';
import { requireGroupMember } from '../books/index.ts';
import { groupCurrency } from '../splits/index.ts';
import type { TransactionDeps } from './transactions.deps.ts';
import type { ListFilter, ListScope } from './transactions.repo.ts';
import type { TransactionList, TransactionListQuery, TransactionView } from './transactions.schemas.ts';

/** more ids than anyone can own (200 categories) in one comma list */
export const MAX_FILTER_IDS = 200;
const INT_MAX = 2147483647;

/** startDate <= endDate when both are given (ranges are inclusive). */
export function checkDateRange(startDate: string | undefined, endDate: string | undefined): void {
  if (startDate !== undefined) checkDate(startDate, 'startDate');
  if (endDate !== undefined) checkDate(endDate, 'endDate');
  if (startDate !== undefined && endDate !== undefined && startDate > endDate)
    throw Errors.field('startDate', 'must not be after endDate');
}

/** Amount bounds in minor units (0 is a valid bound); min <= max when both are given. */
export function parseBounds(min: unknown, max: unknown): { minMinor?: number; maxMinor?: number } {
  const minMinor = min === undefined ? undefined : parseAmountBound(min, 'min_amount');
  const maxMinor = max === undefined ? undefined : parseAmountBound(max, 'max_amount');
  if (minMinor !== undefined && maxMinor !== undefined && minMinor > maxMinor)
    throw Errors.field('min_amount', 'must not be greater than max_amount');
  return { minMinor, maxMinor };
}

/** A comma list of positive integer ids ("3,5,8"), or 40001. */
export function parseIdList(value: string, field: string): number[] {
  const parts = value.split(',').map((p) => p.trim());
  const ids: number[] = [];
  for (const p of parts) {
    if (!/^[1-9]\d{0,9}$/.test(p) || Number(p) > INT_MAX)
      throw Errors.field(field, 'must be a comma-separated list of ids');
    ids.push(Number(p));
  }
  if (ids.length > MAX_FILTER_IDS) throw Errors.field(field, `must hold at most ${MAX_FILTER_IDS} ids`);
  return [...new Set(ids)];
}

/** Checks a list query and turns it into a repository filter (without its scope). */
export function parseListQuery(q: TransactionListQuery): Omit<ListFilter, 'scope'> {
  checkDateRange(q.startDate, q.endDate);
  const f: Omit<ListFilter, 'scope'> = { ...parseBounds(q.min_amount, q.max_amount) };
  if (q.startDate !== undefined) f.startDate = q.startDate;
  if (q.endDate !== undefined) f.endDate = q.endDate;
  if (q.kind && q.kind !== 'all') f.kind = q.kind;
  if (q.category_ids !== undefined) f.categoryIds = parseIdList(q.category_ids, 'category_ids');
  if (q.tag_ids !== undefined) f.tagIds = parseIdList(q.tag_ids, 'tag_ids');
  const keyword = q.keyword?.trim();
  if (keyword) f.keyword = keyword;
  return f;
}

/** The caller's own transaction, or one of a group they belong to; anything else 40401. */
export async function getTransaction(
  { db, repo }: TransactionDeps,
  userId: number,
  id: number,
): Promise<TransactionView> {
  const row = await repo.findVisibleView(db, userId, id);
  if (!row) throw Errors.notFound('transaction');
  const [v] = await repo.withTags(db, [row]);
  return v!;
}

/**
 * A page of the caller's transactions (or a group's) with the sums of everything the filter finds,
 * as the JSON text of `TransactionList`: the page's rows arrive from PostgreSQL already written.
 */
export async function listTransactions(
  { db, repo }: TransactionDeps,
  userId: number,
  q: TransactionListQuery,
): Promise<JsonText<TransactionList>> {
  const parsed = parseListQuery(q);
  if (q.user_id !== undefined && q.group_id === undefined)
    throw Errors.field('user_id', 'is only allowed with group_id (group view)');
  let scope: ListScope = { userId };
  // the sums are in the base currency (a group's: its currency), with that currency's decimals;
  // the totals' statement reads the base currency, so a personal list needs no statement before them
  let groupSumCurrency: CurrencyInfo | undefined;
  if (q.group_id !== undefined) {
    const group = await requireGroupMember(db, q.group_id, userId);
    scope = { groupId: q.group_id, memberId: q.user_id };
    groupSumCurrency = groupCurrency(group);
  }
  const filter: ListFilter = { ...parsed, scope };
  const { limit, offset } = pageOf(q);
  // the page's ids, then its items, beside the totals
  const [items, totals] = await Promise.all([
    repo.listPageIds(db, filter, q.sort ?? 'date_desc', limit, offset).then((ids) => repo.listItems(db, ids)),
    repo.listTotals(db, filter),
  ]);
  const sumCurrency = groupSumCurrency ?? requireCurrency(totals.baseCurrency ?? 'CNY');
  const major = (minor: number) => toMajorUnits(minor, sumCurrency);
  const sums: TransactionList['sums'] = {
    income: major(totals.incomeMinor),
    expense: major(totals.expenseMinor),
    balance: major(totals.incomeMinor - totals.expenseMinor),
    count: totals.count,
  };
  // the keys in the schema's order: list, total, sums (income, expense, balance, count)
  return jsonText(`{"list":[${items.join(',')}],"total":${totals.count},"sums":${JSON.stringify(sums)}}`);
}
