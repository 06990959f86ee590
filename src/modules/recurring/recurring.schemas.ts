import { Type, type Static } from 'typebox';
import { AmountInput, CalendarDate, Id, Kind, Nullable, Text, Timestamp } from '../../lib/schemas.ts';

const DateOf = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

export const Frequency = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('yearly')]);
const Interval = Type.Integer({ minimum: 1, maximum: 365, description: 'every `interval` days, weeks, months or years (1 to 365)' });
const TagIds = Type.Array(Id, { maxItems: 64, description: "at most 10 of the caller's own tags" });

export const RecurringRule = Type.Object(
  {
    id: Id,
    kind: Kind,
    amount: Type.Number({ description: 'major units, e.g. 12.5' }),
    category_id: Id,
    note: Type.String(),
    tag_ids: Type.Array(Id),
    group_id: Nullable(Id),
    frequency: Frequency,
    interval: Type.Integer(),
    start_date: CalendarDate,
    end_date: Nullable(CalendarDate),
    next_date: Nullable(DateOf('the next occurrence not yet generated (YYYY-MM-DD); null once the rule has ended')),
    active: Type.Boolean(),
    created_at: Timestamp,
  },
  { title: 'RecurringRule' },
);
export type RecurringRule = Static<typeof RecurringRule>;

export const RecurringCreateBody = Type.Object({
  kind: Kind,
  amount: AmountInput,
  category_id: Id,
  note: Type.Optional(Text(0, 200)),
  tag_ids: Type.Optional(TagIds),
  group_id: Type.Optional(Nullable(Id)),
  frequency: Frequency,
  interval: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 1, description: 'every `interval` days, weeks, months or years (1 to 365); default 1' })),
  start_date: Type.Optional(DateOf("first occurrence, YYYY-MM-DD; default today in the caller's time zone")),
  end_date: Type.Optional(Nullable(DateOf('last possible occurrence (inclusive), YYYY-MM-DD; null = no end'))),
  active: Type.Optional(Type.Boolean({ default: true })),
});
export type RecurringCreateBody = Static<typeof RecurringCreateBody>;

export const RecurringUpdateBody = Type.Object({
  kind: Type.Optional(Kind),
  amount: Type.Optional(AmountInput),
  category_id: Type.Optional(Id),
  note: Type.Optional(Text(0, 200)),
  tag_ids: Type.Optional(TagIds),
  group_id: Type.Optional(Nullable(Id)),
  frequency: Type.Optional(Frequency),
  interval: Type.Optional(Interval),
  start_date: Type.Optional(CalendarDate),
  end_date: Type.Optional(Nullable(CalendarDate)),
  active: Type.Optional(Type.Boolean({ description: 'false pauses; true resumes from today on (paused dates are skipped)' })),
});
export type RecurringUpdateBody = Static<typeof RecurringUpdateBody>;

export const RecurringList = Type.Object({ list: Type.Array(RecurringRule) });
