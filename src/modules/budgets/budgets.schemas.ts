import { Type, type Static } from 'typebox';
import { AmountInput, Id, MonthString, Nullable } from '../../lib/schemas.ts';

export const BudgetQuery = Type.Object({
  month: Type.Optional(Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: "YYYY-MM; default this month in the caller's time zone" })),
  group_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: "the group's view (members only, else 40302)" })),
});
export type BudgetQuery = Static<typeof BudgetQuery>;

const BudgetAmount = Nullable(AmountInput);

export const BudgetBody = Type.Object({
  month: MonthString,
  amount: BudgetAmount,
  group_id: Type.Optional(Nullable(Id)),
});
export type BudgetBody = Static<typeof BudgetBody>;

export const MyBudgetBody = Type.Object({
  month: MonthString,
  amount: BudgetAmount,
  group_id: Id,
});
export type MyBudgetBody = Static<typeof MyBudgetBody>;

export const PersonalBudget = Type.Object(
  {
    month: MonthString,
    amount: Nullable(Type.Number({ description: 'the monthly budget, major units; null when none is set' })),
    spent: Type.Number({ description: "the caller's own expense that month (group ones included), major units" }),
    remaining: Nullable(Type.Number({ description: 'amount - spent (negative when over budget); null when no budget is set' })),
  },
  { title: 'PersonalBudget' },
);
export type PersonalBudget = Static<typeof PersonalBudget>;

export const GroupBudget = Type.Object(
  {
    month: MonthString,
    group_id: Id,
    amount: Nullable(Type.Number({ description: "the group's budget (set by its owner), major units; null when none is set" })),
    spent: Type.Number({ description: "the group's expense that month (every member's), major units" }),
    myAmount: Nullable(Type.Number({ description: "the caller's own budget in that group; null when none is set" })),
    mySpent: Type.Number({ description: "the caller's own expense in that group that month" }),
  },
  { title: 'GroupBudget' },
);
export type GroupBudget = Static<typeof GroupBudget>;

export const BudgetView = Type.Union([PersonalBudget, GroupBudget], { description: 'personal without group_id, the group view with it' });
export type BudgetView = Static<typeof BudgetView>;
