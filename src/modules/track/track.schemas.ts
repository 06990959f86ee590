import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { CalendarDate, Id, Nullable, Timestamp } from '../../lib/schemas.ts';

export const TRACK_DATA_MAX_BYTES = 4096;
const EVENT_TYPE = { pattern: '^[A-Za-z0-9_.:-]{1,50}$', description: '1 to 50 of A-Z a-z 0-9 _ . : -' };

const EventData = Type.Object(
  {},
  { additionalProperties: true, description: `any JSON object, at most ${TRACK_DATA_MAX_BYTES} bytes once serialized` },
);

export const TrackBody = Type.Object({
  event_type: Type.String(EVENT_TYPE),
  page: Type.Optional(Type.String({ maxLength: 200, description: 'where it happened, 0 to 200 characters' })),
  data: Type.Optional(Nullable(EventData)),
});
export type TrackBody = Static<typeof TrackBody>;

export const TrackEvent = Type.Object({
  id: Id,
  user_id: Nullable(Id),
  event_type: Type.String(),
  page: Type.String(),
  data: Nullable(EventData),
  created_at: Timestamp,
});
export type TrackEvent = Static<typeof TrackEvent>;

export const TrackListQuery = Type.Object({
  event_type: Type.Optional(Type.String(EVENT_TYPE)),
  startDate: Type.Optional(CalendarDate),
  endDate: Type.Optional(CalendarDate),
  ...PageQuery,
});
export type TrackListQuery = Static<typeof TrackListQuery>;

export const TrackList = Type.Object({ list: Type.Array(TrackEvent), total: Type.Integer() });

const DayCount = Type.Object({
  date: CalendarDate,
  events: Type.Integer(),
  users: Type.Integer({ description: 'distinct users' }),
});

export const TrackStats = Type.Object({
  today: Type.Object({ events: Type.Integer(), users: Type.Integer() }),
  trend: Type.Array(DayCount, { description: 'the last 7 days, oldest first, today last; days without events are 0' }),
  popular: Type.Array(Type.Object({ event_type: Type.String(), count: Type.Integer() }), {
    description: 'top 10 event types over the last 7 days',
  }),
});
export type TrackStats = Static<typeof TrackStats>;
