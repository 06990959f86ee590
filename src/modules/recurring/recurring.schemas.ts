import { Type, type Static } from 'typebox';
import { AmountInput, CalendarDate, Id, Nullable, Text, Timestamp } from '../../lib/schemas.ts';

const DateOf = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

export const Frequency = Type.Union([
  Type.Literal('daily'),
  Type.Literal('weekly'),
  Type.Literal('monthly'),
  Type.Literal('yearly'),
]);
const Interval = Type.Integer({
  minimum: 1,
  maximum: 365,
  description: 'every `interval` days, weeks, months or years (1 to 365)',
});
/** What a rule books: an expense, an income, or a transfer between two of the caller's accounts. */
export const RecurringKind = Type.Union([Type.Literal('expense'), Type.Literal('income'), Type.Literal('transfer')], {
  description:
    "`transfer` moves money between two of the caller's accounts of one currency (a monthly savings move): it takes " +
    '`to_account_id`, no category and no group',
});
const AccountRef = (what: string) => Nullable(Type.Integer({ minimum: 1, maximum: 2147483647, description: what }));
const TagIds = Type.Array(Id, { maxItems: 64, description: "at most 10 of the caller's own tags" });

export const RecurringRule = Type.Object(
  {
    id: Id,
    kind: RecurringKind,
    amount: Type.Number({ description: 'major units, e.g. 12.5' }),
    category_id: Nullable(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'null for a transfer' })),
    account_id: AccountRef("the account the occurrences are booked in (a transfer's sending account)"),
    to_account_id: AccountRef("a transfer's receiving account; null otherwise"),
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
  kind: RecurringKind,
  amount: AmountInput,
  category_id: Type.Optional(Id),
  account_id: Type.Optional(Id),
  to_account_id: Type.Optional(Id),
  note: Type.Optional(Text(0, 200)),
  tag_ids: Type.Optional(TagIds),
  group_id: Type.Optional(Nullable(Id)),
  frequency: Frequency,
  interval: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 365,
      default: 1,
      description: 'every `interval` days, weeks, months or years (1 to 365); default 1',
    }),
  ),
  start_date: Type.Optional(DateOf("first occurrence, YYYY-MM-DD; default today in the caller's time zone")),
  end_date: Type.Optional(Nullable(DateOf('last possible occurrence (inclusive), YYYY-MM-DD; null = no end'))),
  active: Type.Optional(Type.Boolean({ default: true })),
  book_past: Type.Optional(
    Type.Boolean({
      description:
        'only matters when start_date is before today: true (or absent) books the occurrences between start_date and ' +
        'today at the next run; ' +
        'false skips them, so the first occurrence booked is the first one on or after today',
    }),
  ),
});
export type RecurringCreateBody = Static<typeof RecurringCreateBody>;

export const RecurringUpdateBody = Type.Object({
  kind: Type.Optional(RecurringKind),
  amount: Type.Optional(AmountInput),
  category_id: Type.Optional(Nullable(Id)),
  account_id: Type.Optional(Id),
  to_account_id: Type.Optional(Nullable(Id)),
  note: Type.Optional(Text(0, 200)),
  tag_ids: Type.Optional(TagIds),
  group_id: Type.Optional(Nullable(Id)),
  frequency: Type.Optional(Frequency),
  interval: Type.Optional(Interval),
  start_date: Type.Optional(CalendarDate),
  end_date: Type.Optional(Nullable(CalendarDate)),
  active: Type.Optional(
    Type.Boolean({ description: 'false pauses; true resumes from today on (paused dates are skipped)' }),
  ),
});
export type RecurringUpdateBody = Static<typeof RecurringUpdateBody>;

export const RecurringList = Type.Object({ list: Type.Array(RecurringRule) });
