import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { AmountInput, CalendarDate, Color, CurrencyCode, Id, Kind, Nullable, Text, Timestamp, TransactionKindSchema } from '../../lib/schemas.ts';

/** A transaction as every feature answers it. */
export const TransactionSchema = Type.Object(
  {
    id: Id,
    kind: TransactionKindSchema,
    amount: Type.Number({ description: 'major units of `currency`, e.g. 12.5; an adjustment\'s sign is its direction' }),
    currency: CurrencyCode,
    account_id: Nullable(Id),
    to_account_id: Nullable(Id),
    to_amount: Nullable(Type.Number({ description: 'transfer only: what the receiving account gets, in major units of its currency' })),
    category_id: Nullable(Id),
    category: Nullable(Type.Object({ id: Id, name: Type.String(), color: Color, kind: Kind })),
    note: Type.String(),
    date: CalendarDate,
    group_id: Nullable(Id),
    tags: Type.Array(Type.Object({ id: Id, name: Type.String() })),
    user_id: Id,
    owner: Type.Object({ id: Id, nickname: Type.String(), avatar_url: Nullable(Type.String()) }),
    recurring_id: Nullable(Id),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Transaction' },
);
export type TransactionView = Static<typeof TransactionSchema>;

const TagIds = Type.Array(Id, { maxItems: 64, description: 'at most 10 of the caller\'s own tags' });

export const TransactionCreateBody = Type.Object({
  kind: Kind,
  amount: AmountInput,
  category_id: Id,
  account_id: Type.Optional(Id),
  date: CalendarDate,
  note: Type.Optional(Text(0, 200)),
  tag_ids: Type.Optional(TagIds),
  group_id: Type.Optional(Nullable(Id)),
});
export type TransactionCreateBody = Static<typeof TransactionCreateBody>;

export const TransactionUpdateBody = Type.Object({
  kind: Type.Optional(Kind),
  amount: Type.Optional(AmountInput),
  category_id: Type.Optional(Id),
  date: Type.Optional(CalendarDate),
  note: Type.Optional(Text(0, 200)),
  tag_ids: Type.Optional(TagIds),
  group_id: Type.Optional(Nullable(Id)),
});
export type TransactionUpdateBody = Static<typeof TransactionUpdateBody>;

export const SortValue = Type.Union([Type.Literal('date_desc'), Type.Literal('date_asc'), Type.Literal('amount_desc'), Type.Literal('amount_asc')], {
  description: 'date_desc (default), date_asc, amount_desc, amount_asc; ties broken by id',
});
export type SortValue = Static<typeof SortValue>;

export const TransactionListQuery = Type.Object({
  startDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive' })),
  endDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive' })),
  kind: Type.Optional(Type.Union([Type.Literal('expense'), Type.Literal('income'), Type.Literal('all')])),
  category_ids: Type.Optional(Type.String({ maxLength: 2000, description: 'comma list of category ids, any of' })),
  tag_ids: Type.Optional(Type.String({ maxLength: 2000, description: 'comma list of tag ids, any of' })),
  min_amount: Type.Optional(Type.String({ maxLength: 32, description: 'inclusive lower bound in major units; 0 is valid' })),
  max_amount: Type.Optional(Type.String({ maxLength: 32, description: 'inclusive upper bound in major units; 0 is valid' })),
  keyword: Type.Optional(Type.String({ maxLength: 200, description: 'case-insensitive text in the note' })),
  group_id: Type.Optional(Id),
  user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'one member (group view only)' })),
  sort: Type.Optional(SortValue),
  ...PageQuery,
});
export type TransactionListQuery = Static<typeof TransactionListQuery>;

export const TransactionList = Type.Object(
  {
    list: Type.Array(TransactionSchema),
    total: Type.Integer(),
    sums: Type.Object({
      income: Type.Number({ description: 'income total of the whole filtered result' }),
      expense: Type.Number({ description: 'expense total of the whole filtered result' }),
      balance: Type.Number({ description: 'income - expense' }),
      count: Type.Integer({ description: 'number of transactions in the whole filtered result' }),
    }),
  },
  { title: 'TransactionList' },
);
export type TransactionList = Static<typeof TransactionList>;
