import type { Db, Executor } from '../../db/client.ts';
import { checkDate } from '../../lib/dates.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import { parseAmountBound } from '../../lib/money.ts';
import type { CurrencyInfo } from '../../lib/currency.ts';
import { pageOf } from '../../lib/pagination.ts';
import { cleanOptionalText, cleanText } from '../../lib/text.ts';
import * as transactionsRepo from './transactions.repo.ts';
import { toMajorUnits } from '../../lib/currency.ts';
import { isCategoryKind } from '../../lib/domain.ts';
import * as books from '../books/index.ts';
import {
  accountCurrency,
  baseCurrencyOf,
  bookIn,
  defaultAccount,
  parseAmountIn,
  rebook,
  requireCategory,
  requireGroupMember,
  requireOpenAccount,
  requireTags,
  requireWritableGroup,
  type AccountRef,
  type CheckedInsert,
  type CheckedRow,
} from '../books/index.ts';
import { createTransfer, updateTransfer } from './transactions.transfers.ts';
import { toTransactionView, type ListFilter, type ListScope } from './transactions.repo.ts';
import { memberIds as splitsRepoMemberIds, groupById as splitsRepoGroupById, splitOf as splitsRepoSplitOf } from '../splits/index.ts';
import { groupCurrency, notifyRecord, sharesFor, type ResolvedSplit } from '../splits/index.ts';
import type { TransactionCreateBody, TransactionList, TransactionListQuery, TransactionUpdateBody, TransactionView } from './transactions.schemas.ts';

export const MAX_TAGS_PER_TRANSACTION = 10;
/** more ids than anyone can own (200 categories) in one comma list */
export const MAX_FILTER_IDS = 200;
const INT_MAX = 2147483647;

/** the widest amount any bookable currency takes (3 decimals): a shape check before the account is known */
const ANY_CURRENCY: CurrencyInfo = { code: 'any currency', digits: 3, name: 'any currency' };
const TWO_DECIMALS: CurrencyInfo = { code: 'CNY', digits: 2, name: 'two decimals' };

/** The amount in hundredths when it has at most 2 decimals (the one-statement path), else null. */
function amountWithTwoDecimals(value: unknown): number | null {
  try {
    return parseAmountIn(value, TWO_DECIMALS);
  } catch {
    return null;
  }
}

export { checkDate };

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

/** The view of a row the one-statement create wrote. */
function checkedView(r: CheckedRow): TransactionView {
  const { tags, ...row } = r;
  return toTransactionView({ ...row, paidBy: null, toAccountId: null, toAmount: null, toCurrency: null, rate: null, parentId: null }, tags);
}

export interface TransactionServiceDeps {
  db: Db;
  clock: Clock;
  repo?: typeof transactionsRepo;
}

export function createTransactionService({ db, clock, repo = transactionsRepo }: TransactionServiceDeps) {
  const batcher = books.createInsertBatcher(db);
  async function view(ex: Executor, id: number): Promise<TransactionView> {
    const [v] = await repo.loadTransactionViews(ex, [id]);
    if (!v) throw Errors.notFound('transaction');
    return v;
  }

  /** A payer named in a body must be a current member of the group: 40001 otherwise. */
  function checkPayer(paidBy: number, members: readonly number[]): number {
    if (!members.includes(paidBy)) throw Errors.field('paid_by', 'must be a member of the group');
    return paidBy;
  }

  /**
   * A group record: who paid and who shares it (default: the recorder paid; shared as `sharesFor`
   * decides), written with its shares in one transaction; the members involved are notified.
   */
  async function createInGroup(ex: Executor, row: CheckedInsert & { groupId: number }, body: TransactionCreateBody): Promise<TransactionView> {
    const group = await requireWritableGroup(ex, row.groupId, row.userId);
    const members = await splitsRepoMemberIds(ex, row.groupId);
    const paidBy = checkPayer(body.paid_by ?? row.userId, members);
    const currency = groupCurrency(group);
    // the amount is in the group currency: its decimals are that currency's
    row = { ...row, amountCents: parseAmountIn(body.amount, currency) };
    const split = sharesFor(group, row.amountCents, currency, members, { split: body.split, isNew: true });
    await requireCategory(ex, row.userId, row.categoryId, { kind: row.kind });
    await requireTags(ex, row.userId, row.tagIds);
    // the record is kept in the group currency: the payer's own record moves one of their accounts in
    // that currency; a record for another payer moves none of the recorder's accounts
    let booking: { accountId: number | null; currency: string; baseAmount: number; rate: string | null };
    if (paidBy === row.userId) {
      const account = row.accountId === null ? await defaultAccount(ex, row.userId) : await requireOpenAccount(ex, row.userId, row.accountId);
      if (account.currency !== currency.code) throw Errors.field('account_id', `must be an account in the group currency ${currency.code}`);
      booking = await bookIn(ex, row.userId, account, row.amountCents, row.date, body.rate);
    } else {
      if (row.accountId !== null) throw Errors.field('account_id', 'is not allowed on a record another member paid');
      booking = { ...(await bookIn(ex, row.userId, { id: 0, currency: currency.code, archived: false }, row.amountCents, row.date, body.rate)), accountId: null };
    }
    const id = await books.insertRow(ex, row.userId, {
      kind: row.kind,
      amount: row.amountCents,
      categoryId: row.categoryId,
      note: row.note,
      date: row.date,
      groupId: row.groupId,
      paidBy,
      categoryAuto: body.category_picked === false,
      ...booking,
    });
    await books.replaceTags(ex, id, row.tagIds);
    await books.replaceShares(ex, id, row.groupId, split.mode, split.shares);
    await notifyRecord(ex, group, { id, recorder: row.userId, paidBy, kind: row.kind, amount: row.amountCents, note: row.note, shares: split.shares });
    return view(ex, id);
  }

  /** A row booked by the service (another currency than the base, or other minor digits): converted at the rate of its date, written with its tags in one transaction. */
  async function createBooked(ex: Executor, row: CheckedInsert, account: AccountRef, rate: unknown, inTransaction: boolean, categoryAuto: boolean): Promise<TransactionView> {
    const write = async (w: Executor) => {
      const id = await books.writeDraft(w, row.userId, {
        categoryAuto,
        kind: row.kind,
        amount: { minor: row.amountCents },
        account,
        categoryId: row.categoryId,
        tagIds: row.tagIds,
        note: row.note,
        date: row.date,
        groupId: row.groupId,
        rate,
      });
      return view(w, id);
    };
    return inTransaction ? write(ex) : db.transaction(write);
  }

  /** The purchase a refund reduces: one of the caller's expenses, locked, that is not a refund itself; 40001 otherwise. */
  async function requirePurchase(ex: Executor, userId: number, id: number) {
    const purchase = await repo.findOwn(ex, userId, id, true);
    if (!purchase || purchase.kind !== 'expense' || purchase.amountCents <= 0) throw Errors.field('refund_of', 'must be one of your purchases (an expense)');
    return purchase;
  }

  /** The refunds of a purchase never add up to more than it (when they are in its currency): 42201 otherwise. */
  async function checkRefundCap(ex: Executor, userId: number, purchase: { id: number; amountCents: number; currency: string }, refund: { minor: number; currency: string; exceptId?: number }) {
    if (refund.currency !== purchase.currency) return;
    const already = await repo.refundedOf(ex, userId, purchase.id, purchase.currency, refund.exceptId);
    if (already + refund.minor > purchase.amountCents) {
      throw Errors.rule('the refunds of a purchase cannot add up to more than the purchase');
    }
  }

  /**
   * A refund: an expense with a negative amount in the purchase's category (else the one given),
   * by default in the purchase's account, linked to the purchase when one is given. Refunds are
   * personal: a group record's refund would have to change its shares, which a refund does not.
   */
  async function createRefund(ex: Executor, userId: number, body: TransactionCreateBody): Promise<number> {
    for (const f of ['to_account_id', 'to_amount', 'fee', 'fee_category_id', 'paid_by', 'split'] as const) {
      if (body[f] !== undefined) throw Errors.field(f, 'is not for a refund');
    }
    if (body.group_id !== undefined && body.group_id !== null) throw Errors.field('group_id', 'a refund is recorded in your own books');
    parseAmountIn(body.amount, ANY_CURRENCY);
    const date = checkDate(body.date, 'date');
    const note = cleanOptionalText(body.note, 'note', 200);
    const tagIds = await requireTags(ex, userId, [...new Set(body.tag_ids ?? [])], { max: MAX_TAGS_PER_TRANSACTION });
    const purchase = body.refund_of === undefined ? null : await requirePurchase(ex, userId, body.refund_of);
    if (purchase?.groupId != null) throw Errors.field('refund_of', 'is a group record: a refund is recorded in your own books');
    if (purchase && body.category_id !== undefined && body.category_id !== purchase.categoryId) {
      throw Errors.field('category_id', "a refund stays in its purchase's category");
    }
    const categoryId = purchase?.categoryId ?? body.category_id;
    if (categoryId === undefined || categoryId === null) throw Errors.field('category_id', 'is required for a refund without a purchase');
    await requireCategory(ex, userId, categoryId, { kind: 'expense' });
    const accountId = body.account_id ?? purchase?.accountId ?? null;
    const account = accountId === null ? await defaultAccount(ex, userId) : await requireOpenAccount(ex, userId, accountId);
    const minor = parseAmountIn(body.amount, accountCurrency(account));
    if (purchase) await checkRefundCap(ex, userId, purchase, { minor, currency: account.currency });
    return books.writeDraft(ex, userId, {
      kind: 'expense',
      amount: { minor: -minor },
      account,
      categoryId,
      tagIds,
      note,
      date,
      rate: body.rate,
      refundOf: purchase?.id ?? null,
      categoryAuto: purchase === null && body.category_picked === false,
    });
  }

  return {
    /** `tx`: an open transaction to write in (an idempotent request's); alone, rows recorded at the same moment share a statement */
    async create(userId: number, body: TransactionCreateBody, tx?: Executor): Promise<TransactionView> {
      if (body.kind === 'transfer') {
        if (body.refund_of !== undefined) throw Errors.field('refund_of', 'is only for a refund');
        const write = async (w: Executor) => view(w, await createTransfer(w, userId, body));
        return tx ? tx.transaction(write) : db.transaction(write);
      }
      if (body.kind === 'refund') {
        const write = async (w: Executor) => view(w, await createRefund(w, userId, body));
        return tx ? tx.transaction(write) : db.transaction(write);
      }
      if (body.refund_of !== undefined) throw Errors.field('refund_of', 'is only for a refund');
      for (const f of ['to_account_id', 'to_amount', 'fee', 'fee_category_id'] as const) {
        if (body[f] !== undefined) throw Errors.field(f, 'is only for a transfer');
      }
      // the amount's shape first (valid in some currency); its decimals are checked against the account's currency
      parseAmountIn(body.amount, ANY_CURRENCY);
      const cents = amountWithTwoDecimals(body.amount);
      if (body.category_id === undefined) throw Errors.field('category_id', 'is required for an expense or an income');
      const kind = body.kind;
      const date = checkDate(body.date, 'date');
      const note = cleanOptionalText(body.note, 'note', 200);
      const tagIds = [...new Set(body.tag_ids ?? [])];
      if (tagIds.length > MAX_TAGS_PER_TRANSACTION) throw Errors.field('tag_ids', `must hold at most ${MAX_TAGS_PER_TRANSACTION} tags`);
      const groupId = body.group_id ?? null;
      if (groupId === null && body.paid_by !== undefined) throw Errors.field('paid_by', 'is only allowed with group_id');
      if (groupId === null && body.split !== undefined) throw Errors.field('split', 'is only allowed with group_id');
      // the checks and the write are one statement; only a refusal pays for finding out which check failed
      const accountId = body.account_id ?? null;
      const row: CheckedInsert = { userId, kind, amountCents: cents ?? 0, categoryId: body.category_id, note, date, groupId, tagIds, accountId };
      if (groupId !== null) {
        const grouped = { ...row, groupId };
        return tx ? tx.transaction((sp) => createInGroup(sp, grouped, body)) : db.transaction((t) => createInGroup(t, grouped, body));
      }
      const ex = tx ?? db;
      // an amount with 2 decimals in a base-currency account of 2 minor digits, without a rate given: one statement
      // (a category the suggester chose and the person left is marked, which only the booked path writes)
      const fast = cents !== null && body.rate === undefined && body.category_picked !== false;
      const created = fast
        ? await (tx ? tx.transaction((sp) => books.insertChecked(sp, row)) : batcher.insert(row))
            // a category, tag or group deleted while the row was being written: answered like a failed check
            .catch((err: unknown) => {
              if (isForeignKeyViolation(err)) return null;
              throw err;
            })
        : null;
      if (created) return checkedView(created);
      await requireCategory(ex, userId, body.category_id, { kind });
      await requireTags(ex, userId, tagIds);
      if (groupId !== null) await requireWritableGroup(ex, groupId, userId);
      const account = accountId === null ? await defaultAccount(ex, userId) : await requireOpenAccount(ex, userId, accountId);
      const currency = accountCurrency(account);
      const amountCents = parseAmountIn(body.amount, currency);
      if (fast && currency.digits === 2 && account.currency === (await baseCurrencyOf(ex, userId)).code) {
        throw Errors.conflict('the transaction could not be recorded because its category, tags or group changed meanwhile; try again');
      }
      // every check passed: the account is in another currency than the base (or of other minor digits), and the row is booked by the service
      return createBooked(ex, { ...row, amountCents }, account, body.rate, tx !== undefined, body.category_picked === false);
    },

    /** The caller's own transaction, or one of a group they belong to; anything else 40401. */
    async get(userId: number, id: number): Promise<TransactionView> {
      const row = await repo.findVisibleView(db, userId, id);
      if (!row) throw Errors.notFound('transaction');
      const [v] = await repo.withTags(db, [row]);
      return v!;
    },

    async update(userId: number, id: number, body: TransactionUpdateBody): Promise<TransactionView> {
      const patch: books.RowPatch = {};
      if (body.amount !== undefined) parseAmountIn(body.amount, ANY_CURRENCY, 'amount', { allowNegative: true });
      if (body.date !== undefined) patch.date = checkDate(body.date, 'date');
      if (body.note !== undefined) patch.note = cleanText(body.note, 'note', 0, 200);
      return db.transaction(async (tx) => {
        // only the owner may change it; everyone else learns nothing (40401)
        const cur = await repo.findOwn(tx, userId, id, true);
        if (!cur) throw Errors.notFound('transaction');
        if (cur.kind === 'transfer') {
          await updateTransfer(tx, userId, cur, body, clock.now());
          return view(tx, id);
        }
        // a refund (an expense with a negative amount) stays one: its amount is its size, whatever the sign given
        const isRefund = cur.kind === 'expense' && cur.amountCents < 0;
        if (isRefund) {
          if (body.kind !== undefined && body.kind !== 'expense') throw Errors.field('kind', 'a refund stays a refund');
          if (cur.refundOf !== null && body.category_id !== undefined && body.category_id !== cur.categoryId) {
            throw Errors.field('category_id', "a refund stays in its purchase's category");
          }
          if (body.group_id !== undefined && body.group_id !== null) throw Errors.field('group_id', 'a refund is recorded in your own books');
        }
        if (body.category_picked !== undefined) patch.categoryAuto = !body.category_picked;
        // a category changed by hand is the person's: it teaches the suggester
        else if (body.category_id !== undefined && body.category_id !== cur.categoryId) patch.categoryAuto = false;
        for (const f of ['to_account_id', 'to_amount', 'fee', 'fee_category_id'] as const) {
          if (body[f] !== undefined) throw Errors.field(f, 'is only for a transfer');
        }
        if (body.kind !== undefined || body.category_id !== undefined) {
          const kind = body.kind ?? cur.kind;
          const categoryId = body.category_id ?? cur.categoryId;
          if (!isCategoryKind(kind) || categoryId === null) throw Errors.field('kind', 'a transfer or an adjustment has no category to change');
          if (!isCategoryKind(cur.kind)) throw Errors.field('kind', 'an adjustment stays an adjustment');
          await requireCategory(tx, userId, categoryId, { kind });
          patch.kind = kind;
          patch.categoryId = categoryId;
        }
        // the money: another account (rebooked in its currency), another amount or another rate
        const moveAccount = body.account_id !== undefined && body.account_id !== cur.accountId;
        if (moveAccount || body.amount !== undefined || (body.rate !== undefined && body.rate !== null)) {
          const account: AccountRef = moveAccount
            ? await requireOpenAccount(tx, userId, body.account_id!)
            : cur.accountId !== null
              ? { id: cur.accountId, currency: cur.currency, archived: false }
              : await defaultAccount(tx, userId);
          const currency = accountCurrency(account);
          if (account.currency !== cur.currency && body.amount === undefined) {
            throw Errors.field('amount', `is required when the transaction moves to an account in another currency (${cur.currency} to ${account.currency})`);
          }
          let amount = body.amount === undefined ? cur.amountCents : parseAmountIn(body.amount, currency, 'amount', { allowNegative: cur.kind === 'adjustment' || isRefund });
          if (isRefund) {
            amount = -Math.abs(amount);
            if (cur.refundOf !== null) {
              const purchase = await repo.findOwn(tx, userId, cur.refundOf, true);
              if (purchase) await checkRefundCap(tx, userId, purchase, { minor: -amount, currency: account.currency, exceptId: cur.id });
            }
          }
          const booking = await rebook(tx, userId, account, amount, patch.date ?? cur.date, { currency: cur.currency, rate: cur.rate }, body.rate);
          Object.assign(patch, { amountCents: amount, ...booking });
        }
        const tagIds = body.tag_ids === undefined ? undefined : await requireTags(tx, userId, body.tag_ids, { max: MAX_TAGS_PER_TRANSACTION });
        if (body.group_id !== undefined) {
          // moving into another group is a write into it; keeping the group it already has is not,
          // so a transaction of a dissolved group can still be corrected
          if (body.group_id !== null && body.group_id !== cur.groupId) await requireWritableGroup(tx, body.group_id, userId);
          if (body.group_id !== null && cur.kind === 'adjustment') throw Errors.field('group_id', 'an adjustment cannot be in a group');
          patch.groupId = body.group_id;
        }
        const groupId = body.group_id !== undefined ? body.group_id : cur.groupId;
        if (groupId === null && body.paid_by !== undefined) throw Errors.field('paid_by', 'is only allowed with group_id');
        if (groupId === null && body.split !== undefined) throw Errors.field('split', 'is only allowed with group_id');
        const amount = patch.amountCents ?? cur.amountCents;
        let shares: ResolvedSplit | null | undefined;
        if (groupId === null) {
          if (cur.groupId !== null) {
            patch.paidBy = null;
            shares = null;
          }
        } else {
          const moved = groupId !== cur.groupId;
          const touches = moved || body.split !== undefined || body.paid_by !== undefined || amount !== cur.amountCents || (patch.kind !== undefined && patch.kind !== cur.kind);
          if (touches) {
            // moving in was checked above; a record staying in its group may be corrected by its owner,
            // even in a group they left or one that was dissolved, and its shares follow
            const group = moved ? await requireGroupMember(tx, groupId, userId) : await splitsRepoGroupById(tx, groupId);
            if (!group) throw Errors.notFound('transaction');
            const members = await splitsRepoMemberIds(tx, groupId);
            const c = groupCurrency(group);
            // shares are kept in the group currency: the record must be booked in it
            if (cur.currency !== c.code) throw Errors.field(moved ? 'group_id' : 'amount', `the record is in ${cur.currency}, the group keeps ${c.code}`);
            if (body.paid_by !== undefined) patch.paidBy = checkPayer(body.paid_by, members);
            else if (moved || cur.paidBy === null) patch.paidBy = userId;
            const stored = moved ? null : await splitsRepoSplitOf(tx, id);
            shares = sharesFor(group, amount, c, members, { split: body.split, stored, isNew: moved });
          }
        }
        if (Object.keys(patch).length || tagIds) {
          await books.updateRow(tx, userId, id, { ...patch, updatedAt: clock.now() });
        }
        if (shares !== undefined) await books.replaceShares(tx, id, groupId, shares?.mode ?? 'equal', shares?.shares ?? []);
        if (tagIds) await books.replaceTags(tx, id, tagIds);
        return view(tx, id);
      });
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await books.deleteRow(db, userId, id))) throw Errors.notFound('transaction');
    },

    async list(userId: number, q: TransactionListQuery): Promise<TransactionList> {
      const parsed = parseListQuery(q);
      if (q.user_id !== undefined && q.group_id === undefined) throw Errors.field('user_id', 'is only allowed with group_id (group view)');
      let scope: ListScope = { userId };
      // the sums are in the base currency (a group's: its currency), with that currency's decimals
      let sumCurrency: CurrencyInfo;
      if (q.group_id !== undefined) {
        const group = await requireGroupMember(db, q.group_id, userId);
        scope = { groupId: q.group_id, memberId: q.user_id };
        sumCurrency = groupCurrency(group);
      } else {
        sumCurrency = await baseCurrencyOf(db, userId);
      }
      const major = (minor: number) => toMajorUnits(minor, sumCurrency);
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
          income: major(totals.incomeCents),
          expense: major(totals.expenseCents),
          balance: major(totals.incomeCents - totals.expenseCents),
          count: totals.count,
        },
      };
    },
  };
}
