import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import {
  AMOUNT_INPUT_RULE,
  AmountInput,
  CalendarDate,
  Color,
  CurrencyCode,
  Id,
  Kind,
  Nullable,
  Text,
  Timestamp,
  TransactionKindSchema,
} from '../../lib/schemas.ts';
import { ShareView, SplitInput, SplitView } from '../splits/index.ts';

/** A transaction as every feature answers it. */
export const TransactionSchema = Type.Object(
  {
    id: Id,
    kind: TransactionKindSchema,
    amount: Type.Number({
      description:
        "major units of `currency`, e.g. 12.5; an adjustment's sign is its direction; a refund is an expense with a " +
        'negative amount (it reduces the expense of its category in statistics and budgets)',
    }),
    currency: CurrencyCode,
    account_id: Nullable(Id),
    to_account_id: Nullable(Id),
    to_amount: Nullable(
      Type.Number({ description: 'transfer only: what the receiving account gets, in major units of its currency' }),
    ),
    rate: Nullable(
      Type.String({
        description:
          'exact decimal: base currency units per unit of `currency` used at booking; null in the base currency',
      }),
    ),
    original_amount: Nullable(
      Type.Number({
        description:
          "paid in another currency than the account's: what was paid, in major units of `original_currency` " +
          '(`amount` is what the account was charged); null otherwise',
      }),
    ),
    original_currency: Nullable(CurrencyCode),
    parent_id: Nullable(Id),
    refund_of: Type.Union([Id, Type.Null()], {
      description:
        'a refund (an expense with a negative amount): the purchase it reduces, when one was picked; null otherwise',
    }),
    category_id: Nullable(Id),
    category_picked: Type.Boolean({
      description:
        "false when the category is the suggester's guess the person left as it was (such rows do not teach the " +
        'suggester)',
    }),
    category: Nullable(Type.Object({ id: Id, name: Type.String(), color: Color, kind: Kind })),
    note: Type.String(),
    date: CalendarDate,
    group_id: Nullable(Id),
    paid_by: Type.Union([Id, Type.Null()], {
      description: 'a group record: who paid it (income: who received it); null outside groups',
    }),
    shares: Type.Array(ShareView, {
      description:
        'a group record: who bears how much, in the group currency, summing exactly to the amount; [] outside ' +
        'groups, and for a record nobody shares (a group that does not split costs, no explicit split)',
    }),
    split: Nullable(SplitView),
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

const TagIds = Type.Array(Id, { maxItems: 64, description: "at most 10 of the caller's own tags" });

const NewKind = Type.Union(
  [Type.Literal('expense'), Type.Literal('income'), Type.Literal('transfer'), Type.Literal('refund')],
  {
    description:
      'expense or income (with `category_id`), transfer (with `to_account_id`), or refund: money back for a ' +
      'purchase, written as an expense ' +
      'with a negative amount (answered with kind `expense`), in the category of the purchase given in `refund_of` ' +
      '(else `category_id`) and ' +
      'by default in its account; `amount` is the positive sum refunded, and the refunds of one purchase never add ' +
      'up to more than it (42201). ' +
      'Adjustments come from reconciling an account',
  },
);
const CategoryPicked = Type.Boolean({
  description:
    "false when the category is the suggester's preselection the person left as it was: such rows do not teach the " +
    'suggester. Default true (picked by the person)',
});
const RateInput = Type.Union([Type.String({ maxLength: 32 }), Type.Number()], {
  description:
    "base currency units per unit of the account's currency, exact decimal; default: your latest rate on or before " +
    '`date`. Ignored in the base currency.',
});
const MoneyInput = (description: string) => Type.Union([Type.Number(), Type.String()], { description });

const OriginalAmount = MoneyInput(
  "expense or income of your own paid in another currency than its account's: what was paid, in `original_currency`. " +
    "`amount` is then what the account was charged (the bank's figure); without it, the original at your rates of " +
    '`date` ' +
    '(a rate that is missing: 40001 on `rate` with `missing_rate`). Kept beside the amount and answered as ' +
    '`original_amount`',
);
const OriginalCurrency = Type.String({
  pattern: '^[A-Z]{3}$',
  description: "ISO 4217 code of `original_amount`; the account's own currency books the original as the amount",
});

export const TransactionCreateBody = Type.Object({
  kind: NewKind,
  amount: Type.Optional(
    Type.Union([Type.Number(), Type.String()], {
      description: `${AMOUNT_INPUT_RULE}. Required, except with \`original_amount\` (see there)`,
    }),
  ),
  original_amount: Type.Optional(OriginalAmount),
  original_currency: Type.Optional(OriginalCurrency),
  category_id: Type.Optional(Id),
  account_id: Type.Optional(Id),
  to_account_id: Type.Optional(Id),
  to_amount: Type.Optional(
    MoneyInput(
      'transfer: what the receiving account gets, in its currency; required when the currencies differ, else equal ' +
        'to amount',
    ),
  ),
  fee: Type.Optional(
    MoneyInput(
      "transfer: a fee in the sending account's currency, booked as an expense of `fee_category_id` that goes with " +
        'the transfer',
    ),
  ),
  fee_category_id: Type.Optional(Id),
  rate: Type.Optional(RateInput),
  date: CalendarDate,
  note: Type.Optional(Text(0, 200)),
  tag_ids: Type.Optional(TagIds),
  group_id: Type.Optional(Nullable(Id)),
  paid_by: Type.Optional(Id),
  split: Type.Optional(SplitInput),
  refund_of: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'refund only: the purchase (one of your expenses) it reduces',
    }),
  ),
  category_picked: Type.Optional(CategoryPicked),
  source: Type.Optional(
    Type.Union([Type.Literal('wechat'), Type.Literal('alipay')], {
      description:
        'with `external_id`: the WeChat Pay or Alipay bill the payment belongs to, as a recognised screenshot ' +
        "gives it (the draft's `source`). Your own expense or income only",
    }),
  ),
  external_id: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9-]{6,64}$',
      description:
        "with `source`: the payment's 交易单号 (the draft's `order_id`). A later bill row with it is this entry: " +
        'not booked again, it adds the time and the counterparty. An order id already in your books: 40901',
      examples: ['4200002024031800000000000001'],
    }),
  ),
});
export type TransactionCreateBody = Static<typeof TransactionCreateBody>;

export const TransactionUpdateBody = Type.Object({
  kind: Type.Optional(Kind),
  amount: Type.Optional(AmountInput),
  original_amount: Type.Optional(Nullable(OriginalAmount)),
  original_currency: Type.Optional(Nullable(OriginalCurrency)),
  category_id: Type.Optional(Id),
  account_id: Type.Optional(Id),
  to_account_id: Type.Optional(Id),
  to_amount: Type.Optional(MoneyInput('transfer only')),
  fee: Type.Optional(Nullable(MoneyInput('transfer only: the new fee; null removes it'))),
  fee_category_id: Type.Optional(Id),
  rate: Type.Optional(RateInput),
  date: Type.Optional(CalendarDate),
  note: Type.Optional(Text(0, 200)),
  tag_ids: Type.Optional(TagIds),
  group_id: Type.Optional(Nullable(Id)),
  paid_by: Type.Optional(Id),
  split: Type.Optional(SplitInput),
  category_picked: Type.Optional(CategoryPicked),
});
export type TransactionUpdateBody = Static<typeof TransactionUpdateBody>;

export const SortValue = Type.Union(
  [Type.Literal('date_desc'), Type.Literal('date_asc'), Type.Literal('amount_desc'), Type.Literal('amount_asc')],
  {
    description: 'date_desc (default), date_asc, amount_desc, amount_asc; ties broken by id',
  },
);
export type SortValue = Static<typeof SortValue>;

export const TransactionListQuery = Type.Object({
  startDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive' })),
  endDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD, inclusive' })),
  kind: Type.Optional(
    Type.Union(
      [
        Type.Literal('expense'),
        Type.Literal('income'),
        Type.Literal('transfer'),
        Type.Literal('adjustment'),
        Type.Literal('all'),
      ],
      {
        description: 'one kind, or all (default)',
      },
    ),
  ),
  category_ids: Type.Optional(Type.String({ maxLength: 2000, description: 'comma list of category ids, any of' })),
  tag_ids: Type.Optional(Type.String({ maxLength: 2000, description: 'comma list of tag ids, any of' })),
  min_amount: Type.Optional(
    Type.String({ maxLength: 32, description: 'inclusive lower bound in major units; 0 is valid' }),
  ),
  max_amount: Type.Optional(
    Type.String({ maxLength: 32, description: 'inclusive upper bound in major units; 0 is valid' }),
  ),
  keyword: Type.Optional(Type.String({ maxLength: 200, description: 'case-insensitive text in the note' })),
  group_id: Type.Optional(Id),
  user_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2147483647, description: 'one member (group view only)' }),
  ),
  sort: Type.Optional(SortValue),
  ...PageQuery,
});
export type TransactionListQuery = Static<typeof TransactionListQuery>;

/** What a row of the list needs to show an entry's files: thumbnails, and what opens full size. */
export const RowAttachment = Type.Object(
  {
    id: Id,
    mime: Type.Union([
      Type.Literal('image/jpeg'),
      Type.Literal('image/png'),
      Type.Literal('image/webp'),
      Type.Literal('application/pdf'),
    ]),
    name: Type.String({ description: 'the file name it was sent with (for alt text)' }),
    has_thumbnail: Type.Boolean({ description: 'GET /api/attachments/{id}/thumbnail answers (images)' }),
  },
  { title: 'RowAttachment' },
);
export type RowAttachment = Static<typeof RowAttachment>;

/** A transaction as a page of the list answers it: the transaction, and its files. */
export const TransactionListItem = Type.Object(
  {
    ...TransactionSchema.properties,
    attachments: Type.Array(RowAttachment, {
      maxItems: 10,
      description:
        "the entry's attachments, oldest first (at most 10 a transaction, so the length is the count): open them " +
        'with GET /api/attachments/{id}/thumbnail and /file, which check the same access as the list',
    }),
  },
  { title: 'TransactionListItem' },
);
export type TransactionListItem = Static<typeof TransactionListItem>;

export const TransactionList = Type.Object(
  {
    list: Type.Array(TransactionListItem),
    total: Type.Integer(),
    sums: Type.Object({
      income: Type.Number({
        description: 'income total of the whole filtered result, in the base currency (base amounts fixed at booking)',
      }),
      expense: Type.Number({
        description:
          'expense total of the whole filtered result, in the base currency (transfers and adjustments never count)',
      }),
      balance: Type.Number({ description: 'income - expense' }),
      count: Type.Integer({ description: 'number of transactions in the whole filtered result' }),
    }),
  },
  { title: 'TransactionList' },
);
export type TransactionList = Static<typeof TransactionList>;
