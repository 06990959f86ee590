import { requireCategory, requireGroupMember, requireGroupOwner, requireWritableGroup, userTimezone, baseCurrencyOf } from '../books/index.ts';
import { parseBookedMinor, toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import type { Executor } from '../../db/client.ts';
import { percentOf } from '../stats/index.ts';
import { carriedInto, CARRY_MONTHS, monthsBefore, type BudgetLine } from './budgets.carry.ts';
import type { ServiceDeps } from '../service.ts';
import { monthRange, todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { parseAmount, toMajor } from '../../lib/money.ts';
import * as budgetsRepo from './budgets.repo.ts';
import type { BudgetBody, BudgetQuery, GroupBudget, LegacyPersonalBudget, MonthBudgetBody, MyBudgetBody, PersonalBudget } from './budgets.schemas.ts';

/** At most this many category lines in one month. */
export const MAX_CATEGORY_LINES = 200;

const majorOrNull = (cents: number | null) => (cents === null ? null : toMajor(cents));

export type BudgetServiceDeps = ServiceDeps<typeof budgetsRepo, 'appTimezone'>;

export function createBudgetService({ db, clock, config, repo = budgetsRepo }: BudgetServiceDeps) {

  async function thisMonth(userId: number): Promise<string> {
    return todayIn(await userTimezone(db, userId, config.appTimezone), clock.now()).slice(0, 7);
  }

  /**
   * The personal budget of a month in the base currency: the total and each category line with
   * what they carry in from earlier months, what was spent (expense only: transfers and
   * adjustments never count) and what remains. Three reads: the budgets of the carry window, the
   * month's lines with their categories, and the expense per month and category.
   */
  async function personal(userId: number, month: string, ex: Executor = db): Promise<PersonalBudget> {
    const base = await baseCurrencyOf(ex, userId);
    const major = (minor: number) => toMajorUnits(minor, base);
    const window = await repo.personalWindow(ex, userId, monthsBefore(month, CARRY_MONTHS), month);
    const lines = new Map<string, BudgetLine>();
    const key = (categoryId: number | null, m: string) => `${categoryId ?? 'total'} ${m}`;
    for (const w of window) lines.set(key(w.category_id, w.month), { amount: w.amount, carryOver: w.carry_over });
    const current = await repo.categoryLines(ex, userId, month);
    // the earliest month any carry chain into this month reaches: expense is read from there on
    let earliest = month;
    const reach = (categoryId: number | null) => {
      let m = month;
      for (let i = 0; i < CARRY_MONTHS; i++) {
        const prev = monthsBefore(m, 1);
        if (prev === m || !lines.get(key(categoryId, prev))?.carryOver) break;
        m = prev;
      }
      if (m < earliest) earliest = m;
    };
    reach(null);
    for (const c of current) reach(c.categoryId);
    const spent = await repo.expenseByMonth(ex, userId, { start: monthRange(earliest).start, end: monthRange(month).end });
    const totalSpent = (m: string) => spent.total.get(m) ?? 0;
    const total = lines.get(key(null, month));
    const totalIn = total ? carriedInto(month, (m) => lines.get(key(null, m)), totalSpent) : 0;
    const spentNow = totalSpent(month);
    return {
      month,
      currency: base.code,
      amount: total ? major(total.amount) : null,
      spent: major(spentNow),
      remaining: total ? major(total.amount + totalIn - spentNow) : null,
      carry_over: total?.carryOver ?? false,
      carried_in: major(totalIn),
      categories: current.map((c) => {
        const catSpent = (m: string) => spent.byCategory.get(`${c.categoryId} ${m}`) ?? 0;
        const carried = carriedInto(month, (m) => lines.get(key(c.categoryId, m)), catSpent);
        const available = c.amount + carried;
        return {
          category_id: c.categoryId,
          name: c.name,
          color: c.color,
          amount: major(c.amount),
          carry_over: c.carryOver,
          carried_in: major(carried),
          available: major(available),
          spent: major(catSpent(month)),
          remaining: major(available - catSpent(month)),
          percent: available > 0 ? percentOf(catSpent(month), available) : catSpent(month) > 0 ? 100 : 0,
        };
      }),
    };
  }

  /** The personal answer of GET/PUT /api/budget, unchanged since before category lines existed. */
  const legacy = (b: PersonalBudget): LegacyPersonalBudget => ({ month: b.month, amount: b.amount, spent: b.spent, remaining: b.remaining });

  /** A personal amount in minor units of the base currency; null clears. */
  const personalAmountOf = (value: unknown, base: CurrencyInfo, field = 'amount'): number | null =>
    value === null ? null : parseBookedMinor(value, base, field);

  /** Membership is checked by the caller of this function. */
  async function group(userId: number, groupId: number, month: string): Promise<GroupBudget> {
    const f = await repo.groupFigures(db, groupId, userId, month, monthRange(month));
    return {
      month,
      group_id: groupId,
      amount: majorOrNull(f.amount),
      spent: toMajor(f.spent),
      myAmount: majorOrNull(f.myAmount),
      mySpent: toMajor(f.mySpent),
    };
  }

  /** The pattern admits year 0000, which the database's dates do not have (40001). */
  const checkMonth = (month: string): string => {
    if (month < '0001-01') throw Errors.field('month', 'must be from the year 0001 on');
    return month;
  };

  /** null clears; anything else must be a valid amount (40001). */
  const amountOf = (value: unknown): number | null => (value === null ? null : parseAmount(value, 'amount'));

  async function write(owner: budgetsRepo.BudgetOwner, month: string, cents: number | null): Promise<void> {
    if (cents === null) await repo.clearBudget(db, owner, month);
    else await repo.setBudget(db, owner, month, cents);
  }

  return {
    /** The personal budget of `month` (GET /api/budgets/:month). */
    async month(userId: number, month: string): Promise<PersonalBudget> {
      return personal(userId, checkMonth(month));
    },

    /**
     * Sets any part of the personal budget of `month` in one transaction: the total (`amount`,
     * null clears), its `carry_over`, and the category lines (`categories` replaces them all).
     * Parts left out stay as they are.
     */
    async setMonth(userId: number, month: string, body: MonthBudgetBody): Promise<PersonalBudget> {
      checkMonth(month);
      const base = await baseCurrencyOf(db, userId);
      const amount = body.amount === undefined ? undefined : personalAmountOf(body.amount, base);
      let lines: { categoryId: number; amount: number; carryOver: boolean }[] | undefined;
      if (body.categories !== undefined) {
        if (body.categories.length > MAX_CATEGORY_LINES) throw Errors.field('categories', `holds at most ${MAX_CATEGORY_LINES} lines`);
        const seen = new Set<number>();
        lines = [];
        for (const [i, c] of body.categories.entries()) {
          if (seen.has(c.category_id)) throw Errors.field(`categories[${i}].category_id`, 'names a category twice');
          seen.add(c.category_id);
          await requireCategory(db, userId, c.category_id, { field: `categories[${i}].category_id`, kind: 'expense' });
          lines.push({ categoryId: c.category_id, amount: parseBookedMinor(c.amount, base, `categories[${i}].amount`), carryOver: c.carry_over ?? false });
        }
      }
      return db.transaction(async (tx) => {
        const owner = { userId, groupId: null };
        if (amount === null) await repo.clearBudget(tx, owner, month);
        else if (amount !== undefined) await repo.setBudget(tx, owner, month, amount);
        if (body.carry_over !== undefined) {
          const set = await repo.setCarryOver(tx, userId, month, body.carry_over);
          if (!set && body.carry_over) throw Errors.field('carry_over', 'needs a month total: give amount as well');
        }
        if (lines) await repo.replaceCategoryLines(tx, userId, month, lines);
        return personal(userId, month, tx);
      });
    },

    async get(userId: number, q: BudgetQuery): Promise<LegacyPersonalBudget | GroupBudget> {
      if (q.group_id !== undefined) await requireGroupMember(db, q.group_id, userId);
      const month = q.month === undefined ? await thisMonth(userId) : checkMonth(q.month);
      return q.group_id !== undefined ? group(userId, q.group_id, month) : legacy(await personal(userId, month));
    },

    /** The personal budget, or with group_id the group's budget (owner only; the group must be live). */
    async set(userId: number, body: BudgetBody): Promise<LegacyPersonalBudget | GroupBudget> {
      checkMonth(body.month);
      if (body.group_id === undefined || body.group_id === null) {
        const cents = personalAmountOf(body.amount, await baseCurrencyOf(db, userId));
        await write({ userId, groupId: null }, body.month, cents);
        return legacy(await personal(userId, body.month));
      }
      const cents = amountOf(body.amount);
      const g = await requireGroupOwner(db, body.group_id, userId);
      if (g.dissolvedAt) throw Errors.dissolved();
      await write({ userId: null, groupId: body.group_id }, body.month, cents);
      return group(userId, body.group_id, body.month);
    },

    /** A member's own amount in a group (any member of a live group). */
    async setMine(userId: number, body: MyBudgetBody): Promise<GroupBudget> {
      checkMonth(body.month);
      const cents = amountOf(body.amount);
      await requireWritableGroup(db, body.group_id, userId);
      await write({ userId, groupId: body.group_id }, body.month, cents);
      return group(userId, body.group_id, body.month);
    },
  };
}

export type BudgetService = ReturnType<typeof createBudgetService>;
