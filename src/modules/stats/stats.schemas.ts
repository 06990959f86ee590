import { Type, type Static } from 'typebox';
import { ACCOUNT_TYPES } from '../../lib/domain.ts';
import { CalendarDate, Color, CurrencyCode, Id, Nullable } from '../../lib/schemas.ts';

const AccountTypeSchema = Type.Union(ACCOUNT_TYPES.map((t) => Type.Literal(t)));
import { TransactionSchema } from '../transactions/index.ts';

export const StatsQuery = Type.Object({
  period: Type.Optional(
    Type.Union([Type.Literal('week'), Type.Literal('month'), Type.Literal('year'), Type.Literal('custom')], {
      default: 'month',
      description:
        'week (Monday to Sunday), month (default) or year, containing `date`; or custom: from `start` to `end` ' +
        'inclusive (both required, at most 3660 days, else 40001), ' +
        'compared with the as many days just before it, its trend per day up to 62 days and per month beyond',
    }),
  ),
  start: Type.Optional(CalendarDate),
  end: Type.Optional(CalendarDate),
  date: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: "anchor date YYYY-MM-DD; default today in the caller's time zone",
    }),
  ),
  type: Type.Optional(
    Type.Union([Type.Literal('expense'), Type.Literal('income')], {
      default: 'expense',
      description: 'expense (default) or income; anything else is 40001',
    }),
  ),
  group_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: "a group's view: every member's transactions of that group (members only, else 40302)",
    }),
  ),
  tag_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: "only transactions carrying this tag (one of the caller's tags, else 40001)",
    }),
  ),
  account_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description:
        "only transactions of this account (one of the caller's accounts, else 40001); personal view only (with " +
        'group_id: 40001)',
    }),
  ),
  user_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'one member of the group (group view only: without group_id 40001)',
    }),
  ),
  view: Type.Optional(
    Type.Union([Type.Literal('paid'), Type.Literal('share')], {
      default: 'paid',
      description:
        'personal statistics only: `paid` (default) counts what you recorded and paid; `share` counts your personal ' +
        'rows plus your share of every group record (a dinner for four paid by you counts a quarter). With group_id: ' +
        '40001',
    }),
  ),
});
export type StatsQuery = Static<typeof StatsQuery>;

const Money = (description: string) =>
  Type.Number({ description: `${description}, major units of the caller's base currency` });

export const Overview = Type.Object(
  {
    start: CalendarDate,
    end: CalendarDate,
    income: Money('income total of the period'),
    expense: Money('expense total of the period'),
    balance: Money('income - expense'),
    count: Type.Integer({ description: 'transactions of both kinds in the period' }),
    daily_average: Money(
      "the `type` total divided by the period's days up to today (all days for a past period, at least 1)",
    ),
  },
  { title: 'StatsOverview' },
);
export type Overview = Static<typeof Overview>;

export const CategoryShare = Type.Object(
  {
    total: Money('the `type` total of the period'),
    list: Type.Array(
      Type.Object({
        category_id: Id,
        category_ids: Type.Array(Id, {
          description:
            'every category on this line: in a group view the categories of the same name (one per member) share one ' +
            'line; else just category_id',
        }),
        name: Type.String(),
        color: Color,
        amount: Money('the category total'),
        count: Type.Integer(),
        percent: Type.Number({ minimum: 0, maximum: 100, description: 'share of the total, 0 to 100 with 2 decimals' }),
      }),
      {
        description:
          'amount descending, then category id; in a group view one line per category name (the kind is the `type`)',
      },
    ),
  },
  { title: 'StatsCategoryShare' },
);
export type CategoryShare = Static<typeof CategoryShare>;

export const Trend = Type.Object(
  {
    unit: Type.Union([Type.Literal('day'), Type.Literal('month')]),
    list: Type.Array(
      Type.Object({
        date: Type.String({ description: 'YYYY-MM-DD per day (week, month) or YYYY-MM per month (year)' }),
        amount: Money('the `type` total of that day or month'),
        count: Type.Integer(),
      }),
      { description: 'one point per day or month of the period, zero-filled, in order' },
    ),
  },
  { title: 'StatsTrend' },
);
export type Trend = Static<typeof Trend>;

export const MaxResult = Type.Object(
  { transaction: Nullable(TransactionSchema) },
  {
    title: 'StatsMax',
    description: 'the largest single transaction of `type` in the period (ties: the latest), or null',
  },
);
export type MaxResult = Static<typeof MaxResult>;

const PeriodTotals = Type.Object({
  start: CalendarDate,
  end: CalendarDate,
  income: Money('income total'),
  expense: Money('expense total'),
});

export const Compare = Type.Object(
  {
    current: PeriodTotals,
    previous: PeriodTotals,
    change: Type.Object({
      income_percent: Nullable(
        Type.Number({ description: 'signed percentage change with 2 decimals; null when the previous value is 0' }),
      ),
      expense_percent: Nullable(
        Type.Number({ description: 'signed percentage change with 2 decimals; null when the previous value is 0' }),
      ),
    }),
  },
  { title: 'StatsCompare' },
);
export type Compare = Static<typeof Compare>;

export const AccountBreakdown = Type.Object(
  {
    start: CalendarDate,
    end: CalendarDate,
    base_currency: CurrencyCode,
    income: Money('income total of the period over all accounts'),
    expense: Money('expense total of the period over all accounts'),
    list: Type.Array(
      Type.Object({
        account_id: Id,
        name: Type.String(),
        type: AccountTypeSchema,
        currency: CurrencyCode,
        color: Color,
        archived: Type.Boolean(),
        income: Money('income booked in this account (converted at booking time)'),
        expense: Money('expense booked in this account (a transfer fee included)'),
        balance: Money('income - expense of the period (not the account balance)'),
        count: Type.Integer({ description: 'income and expense rows of the account in the period' }),
        expense_percent: Type.Number({
          minimum: 0,
          maximum: 100,
          description: "the account's share of the expense total, 0 to 100 with 2 decimals",
        }),
      }),
      {
        description:
          "one line per account with income or expense in the period, in the accounts' order; transfers and " +
          'adjustments never count',
      },
    ),
  },
  { title: 'StatsByAccount' },
);
export type AccountBreakdown = Static<typeof AccountBreakdown>;

export const Summary = Type.Object(
  { overview: Overview, category_share: CategoryShare, trend: Trend, max: MaxResult, compare: Compare },
  { title: 'StatsSummary' },
);
export type Summary = Static<typeof Summary>;
