import { eq } from 'drizzle-orm';
import type { TransactionKind } from '../../lib/domain.ts';
import type { Executor } from '../../db/client.ts';
import { budgets, categories } from '../../db/schema/index.ts';
import { addDays, eachDay, isoWeekday, todayIn } from '../../lib/dates.ts';
import {
  accountCurrency,
  baseCurrencyOf,
  bookAll,
  defaultAccount,
  fitHundredths,
  write,
  type BookedRow,
} from '../books/index.ts';
import type { Locale } from '../categories/index.ts';

export const DEMO_DAYS = 30;

/** mulberry32: a small, fast PRNG, so that one user id always yields the same sample data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DEMO_NOTES: Record<
  Locale,
  Record<'breakfast' | 'lunch' | 'dinner' | 'commute' | 'shopping' | 'fun', string[]> &
    Record<'taxi' | 'rent' | 'bills' | 'salary', string>
> = {
  en: {
    breakfast: ['Breakfast', 'Coffee and a bagel', 'Soy milk and buns', 'Latte'],
    lunch: ['Lunch', 'Noodles', 'Lunch with colleagues', 'Salad bowl', 'Dumplings'],
    dinner: ['Dinner', 'Hotpot with friends', 'Takeout dinner', 'Groceries'],
    commute: ['Subway', 'Bus', 'Subway'],
    shopping: ['Clothes', 'Household items', 'Online order', 'New headphones'],
    fun: ['Movie', 'Concert tickets', 'Board game cafe'],
    taxi: 'Taxi',
    rent: 'Rent',
    bills: 'Electricity and water',
    salary: 'Salary',
  },
  zh: {
    breakfast: ['早餐', '咖啡和贝果', '豆浆包子', '拿铁'],
    lunch: ['午饭', '面条', '和同事吃午饭', '沙拉', '饺子'],
    dinner: ['晚饭', '和朋友吃火锅', '外卖', '买菜'],
    commute: ['地铁', '公交', '地铁'],
    shopping: ['衣服', '日用品', '网购', '新耳机'],
    fun: ['电影', '演唱会门票', '桌游'],
    taxi: '打车',
    rent: '房租',
    bills: '水电费',
    salary: '工资',
  },
};

/**
 * Fills a fresh demo account with about a month of sample data: the last 30 days up to today in
 * `timezone`, over the user's default categories (meals most days, commuting, a rent, a salary,
 * some shopping and leisure), plus a personal budget for this month. The same user id always gives
 * the same data. All transactions go in with one multi-row insert.
 */
/** The first day of the sample data: the demo user's cash account opens then. */
export function firstDemoDay(now: Date, timezone: string): string {
  return addDays(todayIn(timezone, now), 1 - DEMO_DAYS);
}

export async function seedDemoData(
  db: Executor,
  userId: number,
  now: Date,
  timezone: string,
  locale: Locale = 'en',
): Promise<void> {
  const account = await defaultAccount(db, userId);
  const cats = await db
    .select({ id: categories.id, icon: categories.icon, kind: categories.kind, sort: categories.sort })
    .from(categories)
    .where(eq(categories.userId, userId))
    .orderBy(categories.sort, categories.id);
  const firstOf = (kind: TransactionKind) => cats.find((c) => c.kind === kind);
  if (!firstOf('expense') || !firstOf('income')) return;
  // by icon, which names the default category whatever language its name is in
  const pick = (icon: string, kind: TransactionKind) =>
    (cats.find((c) => c.kind === kind && c.icon === icon) ?? firstOf(kind)!).id;
  const food = pick('food', 'expense');
  const transport = pick('transport', 'expense');
  const shopping = pick('shopping', 'expense');
  const housing = pick('housing', 'expense');
  const utilities = pick('utilities', 'expense');
  const fun = pick('entertainment', 'expense');
  const salary = pick('salary', 'income');
  const n = DEMO_NOTES[locale];

  const rand = seededRandom(Math.imul(userId, 2654435761) ^ 0x5eed);
  const chance = (p: number) => rand() < p;
  const oneOf = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  /** a price between lo and hi (major units), in steps of 0.10 */
  const price = (lo: number, hi: number) => lo * 100 + Math.floor(rand() * ((hi - lo) * 10 + 1)) * 10;

  const today = todayIn(timezone, now);
  const days = eachDay(addDays(today, 1 - DEMO_DAYS), today);
  // the latest such day in the window, so that this month shows them when it can
  const dayOfMonth = (n: number) => [...days].reverse().find((x) => Number(x.slice(8, 10)) === n) ?? days[0]!;
  const rentDay = dayOfMonth(1);
  const salaryDay = dayOfMonth(10);
  const billDay = dayOfMonth(15);

  // sample prices are in hundredths: fitted to the account currency's minor unit (whole yen, say)
  const currency = accountCurrency(account);
  const drafts: { date: string; kind: TransactionKind; categoryId: number; minor: number; note: string }[] = [];
  const add = (date: string, kind: TransactionKind, categoryId: number, hundredths: number, note: string) =>
    drafts.push({ date, kind, categoryId, minor: fitHundredths(hundredths, currency, true)!, note });

  for (const date of days) {
    const weekend = isoWeekday(date) >= 6;
    if (chance(0.6)) add(date, 'expense', food, price(6, 18), oneOf(n.breakfast));
    // today always has a lunch, so that this month is never empty
    if (date === today || chance(0.9)) add(date, 'expense', food, price(18, 45), oneOf(n.lunch));
    if (chance(0.75)) add(date, 'expense', food, price(25, 90), oneOf(n.dinner));
    if (!weekend && chance(0.85)) add(date, 'expense', transport, price(3, 8), oneOf(n.commute));
    if (weekend && chance(0.35)) add(date, 'expense', transport, price(20, 60), n.taxi);
    if (chance(0.15)) add(date, 'expense', shopping, price(50, 400), oneOf(n.shopping));
    if (weekend && chance(0.4)) add(date, 'expense', fun, price(40, 150), oneOf(n.fun));
    if (date === rentDay) add(date, 'expense', housing, 250000 + Math.floor(rand() * 11) * 10000, n.rent);
    if (date === billDay) add(date, 'expense', utilities, price(80, 200), n.bills);
    if (date === salaryDay) add(date, 'income', salary, 800000 + Math.floor(rand() * 9) * 50000, n.salary);
  }
  const bookings = await bookAll(db, userId, account, drafts);
  const rows = drafts.map((d, i): BookedRow => ({
    kind: d.kind,
    amount: d.minor,
    categoryId: d.categoryId,
    note: d.note,
    date: d.date,
    groupId: null,
    ...bookings[i]!,
  }));
  await write(db, userId, { type: 'demo', rows });
  const budget = fitHundredths(500000 + Math.floor(rand() * 5) * 50000, await baseCurrencyOf(db, userId), true)!;
  await db
    .insert(budgets)
    .values({ userId, groupId: null, month: today.slice(0, 7), amountMinor: budget })
    .onConflictDoNothing();
}
