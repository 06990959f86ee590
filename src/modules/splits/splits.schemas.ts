import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { AmountInput, CalendarDate, Id, Nullable, Text, Timestamp } from '../../lib/schemas.ts';

const Value = Type.Union([Type.Number(), Type.String()], {
  description:
    'shares: a weight (at most 2 decimals, e.g. 1 or 1.5); percent: 0 to 100 with at most 2 decimals; exact: an ' +
    'amount in the currency; equal: not used',
});

export const SplitInput = Type.Object(
  {
    mode: Type.Union([Type.Literal('equal'), Type.Literal('shares'), Type.Literal('exact'), Type.Literal('percent')], {
      description: 'equal among the members; shares by weight; exact amounts; percent of the amount',
    }),
    members: Type.Optional(
      Type.Array(Type.Object({ user_id: Id, value: Type.Optional(Value) }, { additionalProperties: false }), {
        maxItems: 50,
        description: 'current members of the group, each once; default (equal only): every member',
      }),
    ),
  },
  { additionalProperties: false, title: 'SplitInput' },
);
export type SplitInput = Static<typeof SplitInput>;

export const ShareView = Type.Object(
  { user_id: Id, amount: Type.Number({ description: 'major units of the group currency' }) },
  { title: 'Share' },
);

export const SplitView = Type.Object(
  {
    mode: Type.Union([Type.Literal('equal'), Type.Literal('shares'), Type.Literal('exact'), Type.Literal('percent')]),
    members: Type.Array(Type.Object({ user_id: Id, value: Nullable(Type.String()) })),
  },
  { title: 'Split' },
);

export const Balance = Type.Object(
  {
    user_id: Id,
    nickname: Type.String(),
    avatar_url: Nullable(Type.String()),
    member: Type.Boolean({
      description: 'still a member of the group (people who left or were removed keep their balance)',
    }),
    paid: Type.Number({ description: 'paid for expenses minus received for incomes of the group' }),
    share: Type.Number({ description: 'share of expenses minus share of incomes' }),
    sent: Type.Number({ description: 'settlements paid to others' }),
    received: Type.Number({ description: 'settlements received from others' }),
    net: Type.Number({
      description: 'paid - share + sent - received: positive, the others owe them; negative, they owe',
    }),
  },
  { title: 'Balance' },
);

export const Balances = Type.Object(
  {
    currency: Type.String({ description: 'ISO 4217 code of the group; amounts in its major units' }),
    split_costs: Type.Boolean({
      description:
        "the group's setting: true, records without an explicit split are shared equally; false, only explicit " +
        'splits and settlements make these balances',
    }),
    list: Type.Array(Balance, {
      description:
        'everyone with records or settlements in the group (and every current member), by user id; the nets sum to ' +
        'zero. ' +
        'A former member with a balance sees their own line and those of the people on the other side of it',
    }),
  },
  { title: 'Balances' },
);
export type Balances = Static<typeof Balances>;

export const Suggested = Type.Object(
  {
    currency: Type.String(),
    list: Type.Array(Type.Object({ from: Id, to: Id, amount: Type.Number() }), {
      description:
        'transfers that bring every balance to zero: at most one fewer than the people with a non-zero balance',
    }),
  },
  { title: 'SuggestedSettlements' },
);
export type Suggested = Static<typeof Suggested>;

export const SettlementBody = Type.Object(
  {
    from: Id,
    to: Id,
    amount: AmountInput,
    note: Type.Optional(Text(0, 200)),
    date: Type.Optional(CalendarDate),
  },
  { additionalProperties: false },
);
export type SettlementBody = Static<typeof SettlementBody>;

export const Settlement = Type.Object(
  {
    id: Id,
    group_id: Id,
    from: Id,
    to: Id,
    amount: Type.Number({ description: 'major units of the group currency' }),
    currency: Type.String(),
    note: Type.String(),
    date: CalendarDate,
    created_by: Nullable(Id),
    confirmed: Type.Boolean(),
    confirmed_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { title: 'Settlement' },
);
export type Settlement = Static<typeof Settlement>;

export const SettlementList = Type.Object(
  { list: Type.Array(Settlement), total: Type.Integer() },
  { title: 'SettlementList' },
);
export const SettlementListQuery = Type.Object({ ...PageQuery });
export type SettlementListQuery = Static<typeof SettlementListQuery>;

export const GroupSettingsBody = Type.Object(
  {
    name: Type.Optional(Text(1, 30)),
    currency: Type.Optional(
      Type.String({
        maxLength: 8,
        description: 'ISO 4217 code; only while the group has no records or settlements (else 42201)',
      }),
    ),
    split_costs: Type.Optional(
      Type.Boolean({
        description:
          'share records without an explicit split equally among the members from now on; records already made keep ' +
          'their shares (or their lack of them)',
      }),
    ),
    notify_threshold: Type.Optional(
      Nullable(
        Type.Union([Type.Number(), Type.String()], {
          description: 'expenses of at least this amount notify the members sharing them; 0: every expense; null: none',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type GroupSettingsBody = Static<typeof GroupSettingsBody>;

export const DissolveQuery = Type.Object({
  force: Type.Optional(
    Type.Boolean({ description: 'dissolve although balances are not settled (they stay readable, frozen)' }),
  ),
});
