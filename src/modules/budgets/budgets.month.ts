import type { Executor } from '../../db/client.ts';
import { parseBookedMinor, type CurrencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { baseCurrencyOf, requireCategory } from '../books/index.ts';
import { checkMonth, personalAmountOf, type BudgetDeps } from './budgets.deps.ts';
import { lineInForce } from './budgets.lines.ts';
import { personalBudget } from './budgets.personal.ts';
import type { MonthBudgetBody, PersonalBudget } from './budgets.schemas.ts';

/** At most this many category lines in one month. */
export const MAX_CATEGORY_LINES = 200;

type PersonalRow = Awaited<ReturnType<BudgetDeps['repo']['personalRows']>>[number];
type CategoryLine = { categoryId: number; amount: number; carryOver: boolean };

/** The personal budget of `month` (GET /api/budgets/:month). */
export async function monthBudget(deps: BudgetDeps, userId: number, month: string): Promise<PersonalBudget> {
  return personalBudget(deps, userId, checkMonth(month));
}

/** The category lines of a body, each an expense category of the person's, none twice. */
async function categoryLinesOf(
  { db }: BudgetDeps,
  userId: number,
  categories: NonNullable<MonthBudgetBody['categories']>,
  base: CurrencyInfo,
): Promise<CategoryLine[]> {
  if (categories.length > MAX_CATEGORY_LINES)
    throw Errors.field('categories', `holds at most ${MAX_CATEGORY_LINES} lines`);
  const seen = new Set<number>();
  const lines: CategoryLine[] = [];
  for (const [i, c] of categories.entries()) {
    if (seen.has(c.category_id)) throw Errors.field(`categories[${i}].category_id`, 'names a category twice');
    seen.add(c.category_id);
    await requireCategory(db, userId, c.category_id, { field: `categories[${i}].category_id`, kind: 'expense' });
    lines.push({
      categoryId: c.category_id,
      amount: parseBookedMinor(c.amount, base, `categories[${i}].amount`),
      carryOver: c.carry_over ?? false,
    });
  }
  return lines;
}

/** The month total and its carry-over set from a body, the parts left out as they are. */
async function writeTotal(
  { repo }: BudgetDeps,
  tx: Executor,
  rows: PersonalRow[],
  at: { userId: number; month: string; repeat: boolean },
  amount: number | null | undefined,
  carryOverGiven: boolean | undefined,
): Promise<void> {
  const { userId, month, repeat } = at;
  const now = lineInForce(
    rows.filter((r) => r.categoryId === null),
    month,
  );
  const total = amount !== undefined ? amount : (now?.amount ?? null);
  const carryOver = carryOverGiven ?? (amount === null ? false : (now?.carryOver ?? false));
  if (carryOver && total === null) throw Errors.field('carry_over', 'needs a month total: give amount as well');
  await repo.writeLine(tx, { userId, groupId: null }, month, { amount: total, carryOver, repeat });
}

/** The category lines replaced by those given: the categories left out end in this month. */
async function writeCategoryLines(
  { repo }: BudgetDeps,
  tx: Executor,
  rows: PersonalRow[],
  at: { userId: number; month: string; repeat: boolean },
  lines: CategoryLine[],
): Promise<void> {
  const { userId, month, repeat } = at;
  const given = new Set(lines.map((l) => l.categoryId));
  // the categories left out end in this month: for it alone, or from it on (later repeats included)
  const ended = new Set(
    rows
      .filter((r) => r.categoryId !== null && !given.has(r.categoryId))
      .filter((r) => r.month === month || (r.month < month ? r.repeat : repeat))
      .map((r) => r.categoryId!),
  );
  for (const l of lines)
    await repo.writeLine(tx, { userId, groupId: null, categoryId: l.categoryId }, month, { ...l, repeat });
  for (const id of ended) {
    const key = { userId, groupId: null, categoryId: id };
    await repo.writeLine(tx, key, month, { amount: null, carryOver: false, repeat });
  }
}

/**
 * Sets any part of the personal budget of `month` in one transaction: the total (`amount`,
 * null clears), its `carry_over`, and the category lines (`categories` replaces them all).
 * Parts left out stay as they are.
 */
export async function setMonthBudget(
  deps: BudgetDeps,
  userId: number,
  month: string,
  body: MonthBudgetBody,
): Promise<PersonalBudget> {
  const { db, repo } = deps;
  checkMonth(month);
  const base = await baseCurrencyOf(db, userId);
  const amount = body.amount === undefined ? undefined : personalAmountOf(body.amount, base);
  const lines = body.categories === undefined ? undefined : await categoryLinesOf(deps, userId, body.categories, base);
  const at = { userId, month, repeat: body.repeat ?? false };
  return db.transaction(async (tx) => {
    const rows = await repo.personalRows(tx, userId, '9999-12');
    if (amount !== undefined || body.carry_over !== undefined)
      await writeTotal(deps, tx, rows, at, amount, body.carry_over);
    if (lines) await writeCategoryLines(deps, tx, rows, at, lines);
    return personalBudget(deps, userId, month, tx);
  });
}
