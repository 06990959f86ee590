// The books' filters live in the page address, so that a chart click, a saved filter or a
// shared link opens the same list. The current month is the default and does not count as a filter.
import type { LocationQuery, LocationQueryRaw } from 'vue-router';
import type { Criteria, TransactionQuery } from '../../api/types';
import { monthRange, isDate } from '../../lib/dates';

export type Sort = NonNullable<TransactionQuery['sort']>;
export type KindFilter = 'all' | 'expense' | 'income';

export interface Filters {
  /** null: no date limit */
  startDate: string | null;
  endDate: string | null;
  kind: KindFilter;
  category_ids: number[];
  tag_ids: number[];
  min_amount: string;
  max_amount: string;
  keyword: string;
  sort: Sort;
  user_id: number | null;
}

const SORTS: Sort[] = ['date_desc', 'date_asc', 'amount_desc', 'amount_asc'];
const one = (v: LocationQuery[string] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
const ids = (v: LocationQuery[string] | undefined) =>
  String(one(v))
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

export function defaultFilters(today: string): Filters {
  const { start, end } = monthRange(today);
  return {
    startDate: start,
    endDate: end,
    kind: 'all',
    category_ids: [],
    tag_ids: [],
    min_amount: '',
    max_amount: '',
    keyword: '',
    sort: 'date_desc',
    user_id: null,
  };
}

export function filtersFromQuery(q: LocationQuery, today: string): Filters {
  const f = defaultFilters(today);
  if (one(q.all) === '1') {
    f.startDate = null;
    f.endDate = null;
  }
  const start = one(q.startDate);
  const end = one(q.endDate);
  if (isDate(start) || isDate(end)) {
    f.startDate = isDate(start) ? start : null;
    f.endDate = isDate(end) ? end : null;
  }
  const kind = one(q.kind);
  if (kind === 'expense' || kind === 'income') f.kind = kind;
  f.category_ids = ids(q.category_ids);
  f.tag_ids = ids(q.tag_ids);
  f.min_amount = String(one(q.min_amount));
  f.max_amount = String(one(q.max_amount));
  f.keyword = String(one(q.keyword));
  const sort = one(q.sort) as Sort;
  if (SORTS.includes(sort)) f.sort = sort;
  const user = Number(one(q.user_id));
  f.user_id = Number.isInteger(user) && user > 0 ? user : null;
  return f;
}

/** the address key naming the saved filter applied (its old name, so that links kept still mark it) */
export const SAVED_FILTER_KEY = 'scheme';

export function filtersToQuery(f: Filters, today: string, savedFilter?: number | null): LocationQueryRaw {
  const d = defaultFilters(today);
  const q: LocationQueryRaw = {};
  if (f.startDate === null && f.endDate === null) q.all = '1';
  else if (f.startDate !== d.startDate || f.endDate !== d.endDate) {
    if (f.startDate) q.startDate = f.startDate;
    if (f.endDate) q.endDate = f.endDate;
  }
  if (f.kind !== 'all') q.kind = f.kind;
  if (f.category_ids.length) q.category_ids = f.category_ids.join(',');
  if (f.tag_ids.length) q.tag_ids = f.tag_ids.join(',');
  if (f.min_amount) q.min_amount = f.min_amount;
  if (f.max_amount) q.max_amount = f.max_amount;
  if (f.keyword) q.keyword = f.keyword;
  if (f.sort !== 'date_desc') q.sort = f.sort;
  if (f.user_id) q.user_id = String(f.user_id);
  if (savedFilter) q[SAVED_FILTER_KEY] = String(savedFilter);
  return q;
}

/** How many filters differ from the defaults (the current month and the default sort are not filters). */
export function activeCount(f: Filters, today: string): number {
  const d = defaultFilters(today);
  let n = 0;
  if (f.startDate !== d.startDate || f.endDate !== d.endDate) n++;
  if (f.kind !== 'all') n++;
  if (f.category_ids.length) n++;
  if (f.tag_ids.length) n++;
  if (f.min_amount) n++;
  if (f.max_amount) n++;
  if (f.keyword) n++;
  if (f.user_id) n++;
  return n;
}

/** Rows in a page of the books. */
export const PAGE_SIZE = 20;

export function listQuery(f: Filters, groupId: number | null, page: number, pageSize: number): TransactionQuery {
  return {
    ...(f.startDate ? { startDate: f.startDate } : {}),
    ...(f.endDate ? { endDate: f.endDate } : {}),
    kind: f.kind,
    ...(f.category_ids.length ? { category_ids: f.category_ids.join(',') } : {}),
    ...(f.tag_ids.length ? { tag_ids: f.tag_ids.join(',') } : {}),
    ...(f.min_amount ? { min_amount: f.min_amount } : {}),
    ...(f.max_amount ? { max_amount: f.max_amount } : {}),
    ...(f.keyword ? { keyword: f.keyword } : {}),
    sort: f.sort,
    ...(groupId ? { group_id: groupId } : {}),
    ...(groupId && f.user_id ? { user_id: f.user_id } : {}),
    page,
    pageSize,
  };
}

/** A saved filter stores id lists as number arrays and amount bounds as numbers. */
export function criteriaOf(f: Filters): Criteria {
  const c: Record<string, unknown> = { kind: f.kind, sort: f.sort };
  if (f.startDate) c.startDate = f.startDate;
  if (f.endDate) c.endDate = f.endDate;
  if (f.keyword) c.keyword = f.keyword;
  if (f.category_ids.length) c.category_ids = f.category_ids;
  if (f.tag_ids.length) c.tag_ids = f.tag_ids;
  if (f.min_amount) c.min_amount = Number(f.min_amount);
  if (f.max_amount) c.max_amount = Number(f.max_amount);
  return c as Criteria;
}

export function filtersOfCriteria(c: Record<string, unknown>, today: string): Filters {
  const list = (v: unknown) =>
    (Array.isArray(v) ? v : String(v ?? '').split(',')).map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const f = defaultFilters(today);
  f.startDate = isDate(c.startDate) ? c.startDate : null;
  f.endDate = isDate(c.endDate) ? c.endDate : null;
  if (c.kind === 'expense' || c.kind === 'income') f.kind = c.kind;
  f.category_ids = list(c.category_ids);
  f.tag_ids = list(c.tag_ids);
  f.min_amount = c.min_amount === undefined || c.min_amount === null ? '' : String(c.min_amount);
  f.max_amount = c.max_amount === undefined || c.max_amount === null ? '' : String(c.max_amount);
  f.keyword = typeof c.keyword === 'string' ? c.keyword : '';
  if (SORTS.includes(c.sort as Sort)) f.sort = c.sort as Sort;
  return f;
}

export function sameFilters(a: Filters, b: Filters): boolean {
  return JSON.stringify({ ...a, user_id: null }) === JSON.stringify({ ...b, user_id: null });
}
