import type { ServiceDeps } from '../service.ts';
import { addDays, eachDay, isValidDate, todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import * as trackRepo from './track.repo.ts';
import {
  TRACK_DATA_MAX_BYTES,
  type TrackBody,
  type TrackEvent,
  type TrackListQuery,
  type TrackStats,
} from './track.schemas.ts';

export function toTrackEvent(row: trackRepo.TrackRow): TrackEvent {
  return {
    id: row.id,
    user_id: row.userId,
    event_type: row.eventType,
    page: row.page,
    data: (row.data ?? null) as TrackEvent['data'],
    created_at: row.createdAt.toISOString(),
  };
}

export type TrackServiceDeps = ServiceDeps<typeof trackRepo, 'appTimezone'>;

export function createTrackService({ db, clock, config, repo = trackRepo }: TrackServiceDeps) {
  const timezone = config.appTimezone;
  return {
    async record(userId: number, body: TrackBody): Promise<void> {
      const data = body.data ?? null;
      if (data !== null && Buffer.byteLength(JSON.stringify(data), 'utf8') > TRACK_DATA_MAX_BYTES) {
        throw Errors.field('data', `must be at most ${TRACK_DATA_MAX_BYTES} bytes once serialized as JSON`);
      }
      await repo.insertEvent(db, { userId, eventType: body.event_type, page: body.page ?? '', data });
    },

    async stats(): Promise<TrackStats> {
      const today = todayIn(timezone, clock.now());
      const start = addDays(today, -6);
      const [days, popular] = await Promise.all([
        repo.countsByDay(db, start, today, timezone),
        repo.popularTypes(db, start, today, timezone, 10),
      ]);
      const byDate = new Map(days.map((d) => [d.date, d]));
      const trend = eachDay(start, today).map((date) => ({
        date,
        events: Number(byDate.get(date)?.events ?? 0),
        users: Number(byDate.get(date)?.users ?? 0),
      }));
      const last = trend[trend.length - 1]!;
      return {
        today: { events: last.events, users: last.users },
        trend,
        popular: popular.map((p) => ({ event_type: p.event_type, count: Number(p.count) })),
      };
    },

    async list(q: TrackListQuery): Promise<{ list: TrackEvent[]; total: number }> {
      if (q.startDate !== undefined && !isValidDate(q.startDate))
        throw Errors.field('startDate', 'is not a valid date');
      if (q.endDate !== undefined && !isValidDate(q.endDate)) throw Errors.field('endDate', 'is not a valid date');
      if (q.startDate && q.endDate && q.startDate > q.endDate)
        throw Errors.field('endDate', 'must not be before startDate');
      const { limit, offset } = pageOf(q);
      const { rows, total } = await repo.listEvents(db, {
        eventType: q.event_type,
        startDate: q.startDate,
        endDate: q.endDate,
        tz: timezone,
        limit,
        offset,
      });
      return { list: rows.map(toTrackEvent), total };
    },
  };
}
