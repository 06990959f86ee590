/**
 * Budgets that repeat. Each budget line (a person's month total, one of their category lines, a
 * group's budget, a member's own amount in a group) is stored as rows by month. A row marked
 * `repeat` holds for its month and every later month until a later repeating row replaces it; a row
 * not marked is that month's own amount and leaves the months around it as they were. A null
 * amount is "no budget": from that month on when repeating, for that month alone when not.
 */
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { budgets, categoryBudgets } from '../../db/schema/index.ts';
import { nextMonth } from './budgets.carry.ts';

export interface StoredLine {
  month: string;
  amount: number | null;
  carryOver: boolean;
  repeat: boolean;
}

/** The row that decides `month` (its own, else the latest repeating one before it), if it sets an amount. */
export function lineInForce(rows: readonly StoredLine[], month: string): (StoredLine & { amount: number }) | undefined {
  let own: StoredLine | undefined;
  let repeating: StoredLine | undefined;
  for (const r of rows) {
    if (r.month === month) own = r;
    else if (r.month < month && r.repeat && (!repeating || r.month > repeating.month)) repeating = r;
  }
  const line = own ?? repeating;
  return line && line.amount !== null ? (line as StoredLine & { amount: number }) : undefined;
}

/** A personal total, a group's budget or a member's own amount in a group (budgets), or a category line. */
export type LineKey =
  | { userId: number | null; groupId: number | null; categoryId?: undefined }
  | { userId: number; groupId: null; categoryId: number };

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function where(key: LineKey, extra?: SQL): SQL {
  if (key.categoryId !== undefined)
    return and(eq(categoryBudgets.userId, key.userId), eq(categoryBudgets.categoryId, key.categoryId), extra)!;
  return and(
    key.userId === null ? isNull(budgets.userId) : eq(budgets.userId, key.userId),
    key.groupId === null ? isNull(budgets.groupId) : eq(budgets.groupId, key.groupId),
    extra,
  )!;
}

/** Every stored row of one line up to `upTo` (inclusive), any order. */
export async function readLine(db: Executor, key: LineKey, upTo?: string): Promise<StoredLine[]> {
  const table = key.categoryId !== undefined ? categoryBudgets : budgets;
  const rows = await db
    .select({ month: table.month, amount: table.amountMinor, carryOver: table.carryOver, repeat: table.repeat })
    .from(table)
    .where(where(key, upTo === undefined ? undefined : sql`${table.month} <= ${upTo}`));
  return rows.map((r) => ({ ...r, amount: num(r.amount) }));
}

async function put(db: Executor, key: LineKey, month: string, line: Omit<StoredLine, 'month'>): Promise<void> {
  const at = new Date();
  const set = { amountMinor: line.amount, carryOver: line.carryOver, repeat: line.repeat, updatedAt: at };
  if (key.categoryId !== undefined) {
    await db
      .insert(categoryBudgets)
      .values({ userId: key.userId, categoryId: key.categoryId, month, ...set, createdAt: at })
      .onConflictDoUpdate({ target: [categoryBudgets.userId, categoryBudgets.month, categoryBudgets.categoryId], set });
    return;
  }
  await db
    .insert(budgets)
    .values({ userId: key.userId, groupId: key.groupId, month, ...set, createdAt: at })
    .onConflictDoUpdate({ target: [budgets.userId, budgets.groupId, budgets.month], set });
}

async function remove(db: Executor, key: LineKey, month: string): Promise<void> {
  if (key.categoryId !== undefined)
    await db.delete(categoryBudgets).where(where(key, eq(categoryBudgets.month, month)));
  else await db.delete(budgets).where(where(key, eq(budgets.month, month)));
}

async function removeLaterRepeats(db: Executor, key: LineKey, month: string): Promise<void> {
  if (key.categoryId !== undefined)
    await db
      .delete(categoryBudgets)
      .where(where(key, and(gt(categoryBudgets.month, month), eq(categoryBudgets.repeat, true))));
  else await db.delete(budgets).where(where(key, and(gt(budgets.month, month), eq(budgets.repeat, true))));
}

/**
 * Sets one line in `month`: with `repeat` from that month on (replacing what later months were set
 * to repeat; a later month's own amount stays), else for that month alone (what repeated through it
 * goes on after it). A null amount clears. Rows that would say nothing new are not kept.
 */
export async function writeLine(
  db: Executor,
  key: LineKey,
  month: string,
  line: { amount: number | null; carryOver: boolean; repeat: boolean },
): Promise<void> {
  const rows = await readLine(db, key);
  const before = rows.filter((r) => r.month < month);
  const own = rows.find((r) => r.month === month);
  if (line.repeat) await removeLaterRepeats(db, key, month);
  else if (own?.repeat) {
    // the repeating amount set in this month carries on from the first later month without its own row
    let m = nextMonth(month);
    for (let i = 0; i <= rows.length; i++) {
      const there = rows.find((r) => r.month === m);
      if (!there) {
        await put(db, key, m, { amount: own.amount, carryOver: own.carryOver, repeat: true });
        break;
      }
      if (there.repeat) break;
      m = nextMonth(m);
    }
  }
  if (line.amount === null && !lineInForce(before, month)) await remove(db, key, month);
  else
    await put(db, key, month, {
      amount: line.amount,
      carryOver: line.amount === null ? false : line.carryOver,
      repeat: line.repeat,
    });
}
