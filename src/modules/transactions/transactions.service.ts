import type { Db, Executor } from '../../db/client.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { requireCategory, requireGroupMember, requireTags, requireWritableGroup } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { isValidDate } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { parseAmount, parseAmountBound, toMajor } from '../../lib/money.ts';
import { pageOf } from '../../lib/pagination.ts';
import { cleanOptionalText, cleanText } from '../../lib/text.ts';
import * as transactionsRepo from './transactions.repo.ts';
import { transactions } from '../../db/schema/index.ts';
import { isCategoryKind } from '../../lib/domain.ts';
import { baseCurrencyOf, bookIn, defaultAccount, requireAccount, type AccountRef } from '../accounts/accounts.booking.ts';
import { createInsertBatcher } from './transactions.batcher.ts';
import type { CheckedInsert, ListFilter, ListScope } from './transactions.repo.ts';
import type { TransactionCreateBody, TransactionList, TransactionListQuery, TransactionUpdateBody, TransactionView } from './transactions.schemas.ts';

export const MAX_TAGS_PER_TRANSACTION = 10;
/** more ids than anyone can own (200 categories) in one comma list */
export const MAX_FILTER_IDS = 200;
const INT_MAX = 2147483647;

export function checkDate(value: string, field: string): string {
  if (!isValidDate(value)) throw Errors.field(field, 'must be a valid calendar date (YYYY-MM-DD)');
  return value;
}

/** startDate <= endDate when both are given (ranges are inclusive). */
export function checkDateRange(startDate: string | undefined, endDate: string | undefined): void {
  if (startDate !== undefined) checkDate(startDate, 'startDate');
  if (endDate !== undefined) checkDate(endDate, 'endDate');
  if (startDate !== undefined && endDate !== undefined && startDate > endDate) throw Errors.field('startDate', 'must not be after endDate');
}

/** Amount bounds in cents (0 is a valid bound); min <= max when both are given. */
export function parseBounds(min: unknown, max: unknown): { minCents?: number; maxCents?: number } {
  const minCents = min === undefined ? undefined : parseAmountBound(min, 'min_amount');
  const maxCents = max === undefined ? undefined : parseAmountBound(max, 'max_amount');
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents) throw Errors.field('min_amount', 'must not be greater than max_amount');
  return { minCents, maxCents };
}

/** A comma list of positive integer ids ("3,5,8"), or 40001. */
export function parseIdList(value: string, field: string): number[] {
  const parts = value.split(',').map((p) => p.trim());
  const ids: number[] = [];
  for (const p of parts) {
    if (!/^[1-9]\d{0,9}$/.test(p) || Number(p) > INT_MAX) throw Errors.field(field, 'must be a comma-separated list of ids');
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

export interface TransactionServiceDeps {
  db: Db;
  clock: Clock;
  repo?: typeof transactionsRepo;
}

export function createTransactionService({ db, clock, repo = transactionsRepo }: TransactionServiceDeps) {
  const batcher = createInsertBatcher(db);
  async function view(ex: Executor, id: number): Promise<TransactionView> {
    const [v] = await repo.loadTransactionViews(ex, [id]);
    if (!v) throw Errors.notFound('transaction');
    return v;
  }

  /** A row in a foreign-currency account: converted at the rate of its date, written with its tags in one transaction. */
  async function createConverted(ex: Executor, row: CheckedInsert, account: AccountRef, inTransaction: boolean): Promise<TransactionView> {
    const write = async (w: Executor) => {
      const booking = await bookIn(w, row.userId, account, row.amountCents, row.date);
      const [ins] = await w
        .insert(transactions)
        .values({ userId: row.userId, kind: row.kind, amountCents: row.amountCents, categoryId: row.categoryId, note: row.note, date: row.date, groupId: row.groupId, ...booking })
        .returning({ id: transactions.id });
      await repo.replaceTags(w, ins!.id, row.tagIds);
      return view(w, ins!.id);
    };
    return inTransaction ? write(ex) : db.transaction(write);
  }

  return {
    /** `tx`: an open transaction to write in (an idempotent request's); alone, rows recorded at the same moment share a statement */
    async create(userId: number, body: TransactionCreateBody, tx?: Executor): Promise<TransactionView> {
      const amountCents = parseAmount(body.amount);
      const date = checkDate(body.date, 'date');
      const note = cleanOptionalText(body.note, 'note', 200);
      const tagIds = [...new Set(body.tag_ids ?? [])];
      if (tagIds.length > MAX_TAGS_PER_TRANSACTION) throw Errors.field('tag_ids', `must hold at most ${MAX_TAGS_PER_TRANSACTION} tags`);
      const groupId = body.group_id ?? null;
      // the checks and the write are one statement; only a refusal pays for finding out which check failed
      const accountId = body.account_id ?? null;
      const row = { userId, kind: body.kind, amountCents, categoryId: body.category_id, note, date, groupId, tagIds, accountId };
      const ex = tx ?? db;
      // in a caller's transaction under a savepoint, so that a refused row leaves it usable for the checks below
      const created = await (tx ? tx.transaction((sp) => repo.insertChecked(sp, row)) : batcher.insert(row))
        // a category, tag or group deleted while the row was being written: answered like a failed check
        .catch((err: unknown) => {
          if (isForeignKeyViolation(err)) return null;
          throw err;
        });
      if (created) return created;
      await requireCategory(ex, userId, body.category_id, { kind: body.kind });
      await requireTags(ex, userId, tagIds);
      if (groupId !== null) await requireWritableGroup(ex, groupId, userId);
      const account = accountId === null ? await defaultAccount(ex, userId) : await requireAccount(ex, userId, accountId);
      // every check passed: the account is in another currency than the base, and the row is booked with a conversion
      if (account.currency !== (await baseCurrencyOf(ex, userId)).code) return createConverted(ex, row, account, tx !== undefined);
      throw Errors.conflict('the transaction could not be recorded because its category, tags or group changed meanwhile; try again');
    },

    /** The caller's own transaction, or one of a group they belong to; anything else 40401. */
    async get(userId: number, id: number): Promise<TransactionView> {
      const row = await repo.findVisibleView(db, userId, id);
      if (!row) throw Errors.notFound('transaction');
      const [v] = await repo.withTags(db, [row]);
      return v!;
    },

    async update(userId: number, id: number, body: TransactionUpdateBody): Promise<TransactionView> {
      const patch: Parameters<typeof transactionsRepo.updateOwn>[3] = {};
      if (body.amount !== undefined) patch.amountCents = parseAmount(body.amount);
      if (body.date !== undefined) patch.date = checkDate(body.date, 'date');
      if (body.note !== undefined) patch.note = cleanText(body.note, 'note', 0, 200);
      return db.transaction(async (tx) => {
        // only the owner may change it; everyone else learns nothing (40401)
        const cur = await repo.findOwn(tx, userId, id);
        if (!cur) throw Errors.notFound('transaction');
        if (body.kind !== undefined || body.category_id !== undefined) {
          const kind = body.kind ?? cur.kind;
          const categoryId = body.category_id ?? cur.categoryId;
          if (!isCategoryKind(kind) || categoryId === null) throw Errors.field('kind', 'a transfer or an adjustment has no category to change');
          await requireCategory(tx, userId, categoryId, { kind });
          patch.kind = kind;
          patch.categoryId = categoryId;
        }
        const tagIds = body.tag_ids === undefined ? undefined : await requireTags(tx, userId, body.tag_ids, { max: MAX_TAGS_PER_TRANSACTION });
        if (body.group_id !== undefined) {
          // moving into another group is a write into it; keeping the group it already has is not,
          // so a transaction of a dissolved group can still be corrected
          if (body.group_id !== null && body.group_id !== cur.groupId) await requireWritableGroup(tx, body.group_id, userId);
          patch.groupId = body.group_id;
        }
        if (Object.keys(patch).length || tagIds) {
          await repo.updateOwn(tx, userId, id, { ...patch, updatedAt: clock.now() });
        }
        if (tagIds) await repo.replaceTags(tx, id, tagIds);
        return view(tx, id);
      });
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.deleteOwn(db, userId, id))) throw Errors.notFound('transaction');
    },

    async list(userId: number, q: TransactionListQuery): Promise<TransactionList> {
      const parsed = parseListQuery(q);
      if (q.user_id !== undefined && q.group_id === undefined) throw Errors.field('user_id', 'is only allowed with group_id (group view)');
      let scope: ListScope = { userId };
      if (q.group_id !== undefined) {
        await requireGroupMember(db, q.group_id, userId);
        scope = { groupId: q.group_id, memberId: q.user_id };
      }
      const filter: ListFilter = { ...parsed, scope };
      const { limit, offset } = pageOf(q);
      const [views, totals] = await Promise.all([
        repo.listPage(db, filter, q.sort ?? 'date_desc', limit, offset),
        repo.listTotals(db, filter),
      ]);
      return {
        list: views,
        total: totals.count,
        sums: {
          income: toMajor(totals.incomeCents),
          expense: toMajor(totals.expenseCents),
          balance: toMajor(totals.incomeCents - totals.expenseCents),
          count: totals.count,
        },
      };
    },
  };
}
