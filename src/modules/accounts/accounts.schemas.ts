import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { CalendarDate, Color, CurrencyCode, Id, Nullable, Text, Timestamp } from '../../lib/schemas.ts';
import { TransactionSchema } from '../transactions/index.ts';

export const MAX_ACCOUNTS_PER_USER = 100;

export const AccountType = Type.Union(
  [
    Type.Literal('cash'),
    Type.Literal('debit_card'),
    Type.Literal('credit_card'),
    Type.Literal('e_wallet'),
    Type.Literal('investment'),
    Type.Literal('loan'),
    Type.Literal('other'),
  ],
  { description: 'cash, debit_card, credit_card, e_wallet, investment, loan or other' },
);

/** money in an account: a JSON number or a decimal string, signed, with at most the currency's decimals */
const SignedAmountInput = Type.Union([Type.Number(), Type.String()], {
  description:
    "major units of the account's currency, may be negative (a card's debt), at most as many decimals as the " +
    'currency has',
});

export const AccountSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    type: AccountType,
    currency: CurrencyCode,
    opening_balance: Type.Number({ description: 'major units of `currency`' }),
    opening_date: CalendarDate,
    balance: Type.Number({
      description:
        'major units of `currency`: opening balance + incomes - expenses - transfers out + transfers in ± ' +
        'adjustments (as of `date` when asked for one)',
    }),
    balance_in_base: Nullable(
      Type.Number({
        description:
          'the balance in the base currency at the latest rate on or before the date; null when there is no rate',
      }),
    ),
    archived: Type.Boolean(),
    is_default: Type.Boolean({
      description: 'the account a transaction goes to when none is named; exactly one per user',
    }),
    sort: Type.Integer(),
    color: Color,
    icon: Type.String(),
    note: Type.String(),
    created_at: Timestamp,
  },
  { title: 'Account' },
);
export type AccountView = Static<typeof AccountSchema>;

export const AccountListQuery = Type.Object({
  include_archived: Type.Optional(
    Type.Boolean({ default: false, description: 'also list archived accounts (they always count in net worth)' }),
  ),
  date: Type.Optional(CalendarDate),
});

export const AccountList = Type.Object(
  {
    list: Type.Array(AccountSchema),
    base_currency: CurrencyCode,
    net_worth: Type.Number({
      description:
        'major units of the base currency: the sum over every account (archived ones included) of its balance ' +
        'converted at the latest rate on or before the date, each rounded half away from zero to the minor unit',
    }),
    missing_rates: Type.Array(CurrencyCode, {
      description:
        'currencies of accounts left out of net_worth because there is no usable rate for them (none, or one whose ' +
        'conversion would overflow); such an account has `balance_in_base: null`',
    }),
  },
  { title: 'AccountList' },
);
export type AccountList = Static<typeof AccountList>;

export const AccountGetQuery = Type.Object({ date: Type.Optional(CalendarDate) });

const Icon = Type.String({ maxLength: 50, description: 'at most 50 characters' });

export const AccountCreateBody = Type.Object({
  name: Text(1, 30),
  type: AccountType,
  currency: Type.Optional(Type.String({ maxLength: 3, description: 'ISO 4217 code; default: the base currency' })),
  opening_balance: Type.Optional(SignedAmountInput),
  opening_date: Type.Optional(CalendarDate),
  color: Type.Optional(Color),
  icon: Type.Optional(Icon),
  note: Type.Optional(Text(0, 200)),
  is_default: Type.Optional(
    Type.Literal(true, { description: 'make it the default account (the previous default stops being one)' }),
  ),
});
export type AccountCreateBody = Static<typeof AccountCreateBody>;

export const AccountUpdateBody = Type.Object({
  name: Type.Optional(Text(1, 30)),
  type: Type.Optional(AccountType),
  currency: Type.Optional(
    Type.String({ maxLength: 3, description: 'only while the account has no transactions (else 42201)' }),
  ),
  opening_balance: Type.Optional(SignedAmountInput),
  opening_date: Type.Optional(CalendarDate),
  color: Type.Optional(Color),
  icon: Type.Optional(Icon),
  note: Type.Optional(Text(0, 200)),
  archived: Type.Optional(Type.Boolean({ description: 'the default account cannot be archived (42201)' })),
  is_default: Type.Optional(
    Type.Literal(true, {
      description: 'make it the default account; to change the default, set it on another account',
    }),
  ),
});
export type AccountUpdateBody = Static<typeof AccountUpdateBody>;

export const AccountSortBody = Type.Object({
  ids: Type.Array(Id, {
    minItems: 1,
    maxItems: MAX_ACCOUNTS_PER_USER,
    description: "every one of the caller's accounts (archived included), each once, in the new order",
  }),
});

export const MergeBody = Type.Object({ target_id: Id });
export const MergeResult = Type.Object({
  moved: Type.Integer({ description: 'transactions moved to the target account' }),
  removed_transfers: Type.Integer({
    description: 'transfers between the two accounts, removed (their fees stay as expenses of the target)',
  }),
  account: AccountSchema,
});

export const LedgerQuery = Type.Object({ ...PageQuery });
export const LedgerEntry = Type.Object(
  {
    ...TransactionSchema.properties,
    delta: Type.Number({
      description: "what the row did to this account's balance, in major units of the account's currency",
    }),
    balance: Type.Number({
      description: 'the running balance after the row (opening balance included), rows in (date, id) order',
    }),
  },
  { title: 'LedgerEntry' },
);
export const Ledger = Type.Object(
  {
    list: Type.Array(LedgerEntry, { description: 'newest first (date, then id, descending)' }),
    total: Type.Integer(),
    account: AccountSchema,
  },
  { title: 'Ledger' },
);
export type Ledger = Static<typeof Ledger>;

export const ReconcileBody = Type.Object({
  balance: SignedAmountInput,
  date: Type.Optional(CalendarDate),
  note: Type.Optional(Text(0, 200)),
});
export type ReconcileBody = Static<typeof ReconcileBody>;
export const ReconcileResult = Type.Object(
  {
    account: AccountSchema,
    adjustment: Nullable(TransactionSchema),
  },
  { title: 'Reconciliation' },
);

export const NetWorthQuery = Type.Object({
  months: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 120,
      default: 12,
      description: 'how many months, ending with the current one',
    }),
  ),
});
export const NetWorthHistory = Type.Object(
  {
    base_currency: CurrencyCode,
    list: Type.Array(
      Type.Object({
        month: Type.String({ description: 'YYYY-MM' }),
        net_worth: Type.Number({
          description: 'at the end of the month (today for the current one), major units of the base currency',
        }),
        missing_rates: Type.Array(CurrencyCode),
      }),
      { description: 'oldest first' },
    ),
  },
  { title: 'NetWorthHistory' },
);
export type NetWorthHistory = Static<typeof NetWorthHistory>;

export const BalanceSeriesQuery = Type.Object({
  months: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 120, default: 6, description: 'how far back from today, in months' }),
  ),
});
export const BalanceSeries = Type.Object(
  {
    currency: CurrencyCode,
    list: Type.Array(
      Type.Object({
        date: CalendarDate,
        balance: Type.Number({ description: "at the end of that day, major units of the account's currency" }),
      }),
      {
        description: 'oldest first: the first day of the period, each day the balance changed, and today; never empty',
      },
    ),
  },
  { title: 'BalanceSeries' },
);
export type BalanceSeries = Static<typeof BalanceSeries>;
