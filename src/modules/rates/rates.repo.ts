import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { exchangeRates } from '../../db/schema/index.ts';

export type RateRow = typeof exchangeRates.$inferSelect;

/** The user's latest rate of each currency dated on or before `asOf`. */
export async function latestRates(db: Executor, userId: number, asOf: string): Promise<Map<string, string>> {
  const rows = await query<{ currency: string; rate: string }>(
    db,
    sql`select distinct on (currency) currency, rate from exchange_rates
        where user_id = ${userId} and date <= ${asOf}::date order by currency, date desc`,
  );
  return new Map(rows.map((r) => [r.currency, r.rate]));
}

/** Every rate of the user, by currency, oldest first (for histories). */
export async function ratesByCurrency(
  db: Executor,
  userId: number,
): Promise<Map<string, { date: string; rate: string }[]>> {
  const rows = await query<{ currency: string; date: string; rate: string }>(
    db,
    sql`select currency, to_char(date, 'YYYY-MM-DD') as date, rate from exchange_rates where user_id = ${userId} order by currency, date`,
  );
  const out = new Map<string, { date: string; rate: string }[]>();
  for (const r of rows) {
    let list = out.get(r.currency);
    if (!list) out.set(r.currency, (list = []));
    list.push({ date: r.date, rate: r.rate });
  }
  return out;
}

export interface RateFilter {
  currency?: string;
  startDate?: string;
  endDate?: string;
}

function where(userId: number, f: RateFilter) {
  const c = [eq(exchangeRates.userId, userId)];
  if (f.currency) c.push(eq(exchangeRates.currency, f.currency));
  if (f.startDate) c.push(gte(exchangeRates.date, f.startDate));
  if (f.endDate) c.push(lte(exchangeRates.date, f.endDate));
  return and(...c);
}

export async function listRates(
  db: Executor,
  userId: number,
  f: RateFilter,
  limit: number,
  offset: number,
): Promise<{ rows: RateRow[]; total: number }> {
  const [rows, [n]] = await Promise.all([
    db
      .select()
      .from(exchangeRates)
      .where(where(userId, f))
      .orderBy(sql`${exchangeRates.date} desc`, asc(exchangeRates.currency))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<string>`count(*)` })
      .from(exchangeRates)
      .where(where(userId, f)),
  ]);
  return { rows, total: Number(n?.n ?? 0) };
}

/** Writes (or replaces) a user's rate of a currency on a date. A fetched rate never replaces a manual one. */
export async function upsertRate(
  db: Executor,
  v: { userId: number; currency: string; date: string; rate: string; source: 'manual' | 'fetched' },
): Promise<void> {
  await db.execute(sql`
    insert into exchange_rates (user_id, currency, date, rate, source, updated_at)
    values (${v.userId}, ${v.currency}, ${v.date}::date, ${v.rate}, ${v.source}, now())
    on conflict (user_id, currency, date) do update set rate = excluded.rate, source = excluded.source, updated_at = now()
    ${v.source === 'fetched' ? sql`where exchange_rates.source = 'fetched'` : sql``}`);
}

export async function deleteRate(db: Executor, userId: number, currency: string, date: string): Promise<boolean> {
  const rows = await db
    .delete(exchangeRates)
    .where(and(eq(exchangeRates.userId, userId), eq(exchangeRates.currency, currency), eq(exchangeRates.date, date)))
    .returning({ c: exchangeRates.currency });
  return rows.length > 0;
}

export async function countRates(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(exchangeRates)
    .where(eq(exchangeRates.userId, userId));
  return Number(row?.n ?? 0);
}

/** When rates were last fetched (for anyone), and the newest date fetched. */
export async function lastFetched(db: Executor): Promise<{ at: Date | null; date: string | null }> {
  const [row] = await query<{ at: Date | string | null; date: string | null }>(
    db,
    sql`select max(updated_at) as at, to_char(max(date), 'YYYY-MM-DD') as date from exchange_rates where source = 'fetched'`,
  );
  return { at: row?.at ? new Date(row.at) : null, date: row?.date ?? null };
}
