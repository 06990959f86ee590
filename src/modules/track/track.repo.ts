import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { trackEvents } from '../../db/schema/index.ts';

export type TrackRow = typeof trackEvents.$inferSelect;

/** The instant a calendar day starts in `tz`. */
const dayStart = (date: string, tz: string) => sql`((${date})::date::timestamp at time zone ${tz})`;

export async function insertEvent(db: Executor, values: typeof trackEvents.$inferInsert): Promise<void> {
  await db.insert(trackEvents).values(values);
}

/** Events and distinct users per day (in `tz`) from `start` to `end` inclusive; days without events are absent. */
export async function countsByDay(db: Executor, start: string, end: string, tz: string) {
  return query<{ date: string; events: number; users: number }>(
    db,
    sql`select to_char((created_at at time zone ${tz})::date, 'YYYY-MM-DD') as date,
               count(*)::int as events, count(distinct user_id)::int as users
        from track_events
        where created_at >= ${dayStart(start, tz)} and created_at < ${dayStart(end, tz)} + interval '1 day'
        group by 1`,
  );
}

export async function popularTypes(db: Executor, start: string, end: string, tz: string, limit: number) {
  return query<{ event_type: string; count: number }>(
    db,
    sql`select event_type, count(*)::int as count
        from track_events
        where created_at >= ${dayStart(start, tz)} and created_at < ${dayStart(end, tz)} + interval '1 day'
        group by event_type
        order by count(*) desc, event_type asc
        limit ${limit}`,
  );
}

export interface EventFilter {
  eventType?: string;
  startDate?: string;
  endDate?: string;
  tz: string;
  limit: number;
  offset: number;
}

export async function listEvents(db: Executor, f: EventFilter): Promise<{ rows: TrackRow[]; total: number }> {
  const where: SQL[] = [];
  if (f.eventType) where.push(eq(trackEvents.eventType, f.eventType));
  if (f.startDate) where.push(gte(trackEvents.createdAt, dayStart(f.startDate, f.tz)));
  if (f.endDate) where.push(lt(trackEvents.createdAt, sql`${dayStart(f.endDate, f.tz)} + interval '1 day'`));
  const cond = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(trackEvents)
      .where(cond)
      .orderBy(desc(trackEvents.createdAt), desc(trackEvents.id))
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: count() }).from(trackEvents).where(cond),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}
