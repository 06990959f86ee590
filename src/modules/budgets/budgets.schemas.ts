import { Type, type Static } from 'typebox';
import { AmountInput, Color, CurrencyCode, Id, MonthString, Nullable } from '../../lib/schemas.ts';

export const BudgetQuery = Type.Object({
  month: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-(0[1-9]|1[0-2])$',
      description: "YYYY-MM; default this month in the caller's time zone",
    }),
  ),
  group_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2147483647, description: "the group's view (members only, else 40302)" }),
  ),
});
export type BudgetQuery = Static<typeof BudgetQuery>;

const BudgetAmount = Nullable(AmountInput);

const Repeat = Type.Optional(
  Type.Boolean({
    description:
      'true: the amount (or with null, no budget) holds for this month and every later month until a later month is ' +
      'set ' +
      'to repeat (what later months were set to repeat is replaced; a later month set alone keeps its own amount). ' +
      'Absent or false: for this month alone, as in the first version of the API; a repeating amount goes on after it.',
  }),
);

export const BudgetBody = Type.Object({
  month: MonthString,
  amount: BudgetAmount,
  group_id: Type.Optional(Nullable(Id)),
  repeat: Repeat,
});
export type BudgetBody = Static<typeof BudgetBody>;

export const MyBudgetBody = Type.Object({
  month: MonthString,
  amount: BudgetAmount,
  group_id: Id,
  repeat: Repeat,
});
export type MyBudgetBody = Static<typeof MyBudgetBody>;

export const LegacyPersonalBudget = Type.Object(
  {
    month: MonthString,
    amount: Nullable(
      Type.Number({ description: 'the monthly budget, major units of the base currency; null when none is set' }),
    ),
    spent: Type.Number({
      description:
        "the caller's own expense that month (group ones included; transfers and adjustments never count), major units",
    }),
    remaining: Nullable(
      Type.Number({
        description:
          'amount (plus what a carry-over brought in) - spent, negative when over budget; null when no budget is set',
      }),
    ),
  },
  {
    title: 'MonthBudget',
    description: 'the month total only; GET /api/budgets/{month} has the category lines and carry-over',
  },
);
export type LegacyPersonalBudget = Static<typeof LegacyPersonalBudget>;

export const CategoryBudgetLine = Type.Object(
  {
    category_id: Id,
    name: Type.String(),
    color: Color,
    amount: Type.Number({ description: "this category's budget for the month, major units of the base currency" }),
    carry_over: Type.Boolean({
      description:
        "what remains of this line at the month's end is added to the same category's line of the next month",
    }),
    carried_in: Type.Number({
      description: 'what the line of the month before carried into this one (0 when none; never negative)',
    }),
    repeat: Type.Boolean({ description: 'the amount was set to repeat: it holds in later months until changed' }),
    available: Type.Number({ description: 'amount + carried_in' }),
    spent: Type.Number({
      description: "the caller's expense in this category that month (transfers and adjustments never count)",
    }),
    remaining: Type.Number({ description: 'available - spent (negative when over budget)' }),
    percent: Type.Number({
      minimum: 0,
      description: 'spent as a share of available, 2 decimals; above 100 when over budget',
    }),
  },
  { title: 'CategoryBudgetLine' },
);

export const PersonalBudget = Type.Object(
  {
    month: MonthString,
    currency: CurrencyCode,
    amount: Nullable(
      Type.Number({
        description: 'the monthly budget, major units of the base currency (`currency`); null when none is set',
      }),
    ),
    spent: Type.Number({
      description:
        "the caller's own expense that month (group ones included; transfers and adjustments never count), in the " +
        'base currency',
    }),
    remaining: Nullable(
      Type.Number({
        description: 'amount + carried_in - spent (negative when over budget); null when no budget is set',
      }),
    ),
    carry_over: Type.Boolean({
      description: "what remains of the month total at the month's end is added to the next month's total",
    }),
    repeat: Type.Boolean({
      description: 'the month total was set to repeat: it holds in later months until changed (false when none is set)',
    }),
    carried_in: Type.Number({ description: "what the month before carried into this month's total (0 when none)" }),
    categories: Type.Array(CategoryBudgetLine, {
      description: "the month's budget per expense category, in the categories' order; independent of the total",
    }),
  },
  { title: 'PersonalBudget' },
);
export type PersonalBudget = Static<typeof PersonalBudget>;

export const MonthParams = Type.Object({ month: MonthString });

export const MonthBudgetBody = Type.Object(
  {
    amount: Type.Optional(Nullable(AmountInput)),
    carry_over: Type.Optional(Type.Boolean()),
    categories: Type.Optional(
      Type.Array(
        Type.Object({
          category_id: Id,
          amount: AmountInput,
          carry_over: Type.Optional(Type.Boolean({ default: false })),
        }),
        { description: 'replaces every category line of the month (an empty array removes them all)' },
      ),
    ),
    repeat: Repeat,
  },
  { title: 'MonthBudgetBody' },
);
export type MonthBudgetBody = Static<typeof MonthBudgetBody>;

export const GroupBudget = Type.Object(
  {
    month: MonthString,
    group_id: Id,
    amount: Nullable(
      Type.Number({ description: "the group's budget (set by its owner), major units; null when none is set" }),
    ),
    spent: Type.Number({ description: "the group's expense that month (every member's), major units" }),
    myAmount: Nullable(Type.Number({ description: "the caller's own budget in that group; null when none is set" })),
    mySpent: Type.Number({ description: "the caller's own expense in that group that month" }),
  },
  { title: 'GroupBudget' },
);
export type GroupBudget = Static<typeof GroupBudget>;

export const BudgetView = Type.Union([LegacyPersonalBudget, GroupBudget], {
  description: 'personal without group_id, the group view with it',
});
export type BudgetView = Static<typeof BudgetView>;
