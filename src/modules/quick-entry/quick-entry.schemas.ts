import { Type, type Static } from 'typebox';
import { CalendarDate, Color, CurrencyCode, Id, Nullable } from '../../lib/schemas.ts';
import { TransactionSchema } from '../transactions/index.ts';

export const QuickEntryBody = Type.Object({
  text: Type.String({
    maxLength: 200,
    description:
      'one line as a person types it: "昨天 打车 32 微信", "coffee 4.5 yesterday visa" (1 to 200 characters after trimming)',
  }),
});
export type QuickEntryBody = Static<typeof QuickEntryBody>;

export const QuickEntryParse = Type.Object(
  {
    kind: Type.Union(
      [Type.Literal('expense'), Type.Literal('income'), Type.Literal('transfer'), Type.Literal('refund'), Type.Null()],
      {
        description:
          'from a kind word (收入, 退款, 转账, refund…), else from the category words; null when the line gives no clue',
      },
    ),
    amount: Nullable(
      Type.Number({
        description: 'major units, at most 2 decimals: Arabic or Chinese numerals, 块/元/毛/角, 1.5万, 2k',
      }),
    ),
    currency: Nullable(CurrencyCode),
    date: CalendarDate,
    date_given: Type.Boolean({
      description: 'false when the line names no date: then `date` is today in your time zone',
    }),
    category_id: Nullable(Id),
    account_id: Nullable(Id),
    to_account_id: Type.Union([Id, Type.Null()], {
      description: 'a transfer that names two accounts: the receiving one',
    }),
    note: Type.String({ description: 'what is left of the line once the parts above are taken out' }),
    suggestions: Type.Array(
      Type.Object({
        category_id: Id,
        name: Type.String(),
        color: Color,
        score: Type.Number({ minimum: 0, maximum: 1 }),
      }),
      {
        maxItems: 3,
        description:
          'the categories the suggester offers for the note and amount, best first; `category_id` is set only when ' +
          'it is confident',
      },
    ),
  },
  { title: 'QuickEntryParse' },
);
export type QuickEntryParse = Static<typeof QuickEntryParse>;

export const DuplicatesQuery = Type.Object({
  kind: Type.Union([Type.Literal('expense'), Type.Literal('income')]),
  amount: Type.String({
    maxLength: 32,
    description: 'what was paid, in `currency` (a decimal with at most its digits, positive)',
  }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'the currency it was paid in' }),
  account_id: Id,
  date: CalendarDate,
  time: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'when it was paid, if known: then an imported row matches within 10 minutes of it instead of a day',
    }),
  ),
});
export type DuplicatesQuery = Static<typeof DuplicatesQuery>;

export const DuplicatesList = Type.Object(
  {
    list: Type.Array(TransactionSchema, {
      maxItems: 5,
      description:
        'your imported entries (from a bill, with its id) the new entry would count a second time, closest first; [] ' +
        'when none',
    }),
  },
  { title: 'PossibleDuplicates' },
);
export type DuplicatesList = Static<typeof DuplicatesList>;
