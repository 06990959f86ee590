import { Type, type Static } from 'typebox';
import { CurrencyCode, Id, Nullable, Text } from '../../lib/schemas.ts';

/** the longest file text a request takes (the JSON body limit is 1 MiB) */
export const GROUP_FILE_MAX_CHARS = 900_000;

export const GroupImportBody = Type.Object(
  {
    content: Type.String({
      minLength: 1,
      maxLength: GROUP_FILE_MAX_CHARS,
      description:
        "the export's text as the app wrote it: Splitwise's CSV (Date, Description, Category, Cost, Currency, one " +
        "column per person, a last Total balance row), Spliit's JSON export or its CSV",
      examples: [
        'Date,Description,Category,Cost,Currency,Ann,Bo\n\n2025-03-01,Dinner,Dining out,30.00,CNY,15.00,-15.00\n\n' +
          '2025-03-02,Total balance, , ,CNY,15.00,-15.00\n',
      ],
    }),
    group_id: Type.Optional(Id),
    group_name: Type.Optional(Text(1, 30)),
    currency: Type.Optional(CurrencyCode),
    members: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 100, description: 'a person as the file names them' }),
            user_id: Nullable(Id),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 50,
          description:
            'who each person of the file is: a member of the group (user_id; a new group: only the caller), or null ' +
            'for a placeholder member created for them. People not listed are matched by nickname, else placeholders',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'GroupImportBody' },
);
export type GroupImportBody = Static<typeof GroupImportBody>;

const RowProblem = Type.Object(
  {
    row: Type.Integer({ description: 'line of the CSV (1: the header), or position of the expense in the JSON' }),
    code: Type.String({
      description:
        'for the client to word: group_format, group_shape, group_currency, group_currencies, group_no_currency, ' +
        'group_currency_differs, group_row_currency, group_date, group_cost, group_amount, group_unbalanced, ' +
        'group_payment, group_cost_short, group_payer, group_payer_unknown, group_shares, group_shares_sum, ' +
        'group_total, group_no_category, group_rate',
    }),
    params: Type.Record(Type.String(), Type.String()),
    message: Type.String(),
  },
  { title: 'GroupImportProblem' },
);

const Person = Type.Object(
  {
    name: Type.String({ description: 'as the file names them' }),
    user_id: Nullable(Id),
    nickname: Nullable(Type.String()),
    placeholder: Type.Boolean({
      description: 'a placeholder member will be created for them (nobody can sign in as it)',
    }),
    paid: Type.Number({ description: 'what they paid in the file, less incomes they received (major units)' }),
    share: Type.Number({ description: 'their shares in the file' }),
    net: Type.Number({ description: 'paid - share + payments made - payments received, over the whole file' }),
    stated: Nullable(Type.Number({ description: "the file's own total for them (Splitwise's Total balance row)" })),
  },
  { title: 'GroupImportPerson' },
);

export const GroupImportPreview = Type.Object(
  {
    format: Type.Union([Type.Literal('splitwise'), Type.Literal('spliit-json'), Type.Literal('spliit-csv')]),
    currency: Type.String(),
    group: Type.Object({
      id: Nullable(Id),
      name: Type.String(),
      existing: Type.Boolean({ description: 'false: the import creates this group, the caller its owner' }),
    }),
    members: Type.Array(Person),
    expenses: Type.Integer({ description: 'records (expenses and incomes) the commit would add' }),
    payments: Type.Integer({ description: 'payments between people the commit would add' }),
    already_imported: Type.Integer({ description: 'records and payments of the file already in the group' }),
    ignored: Type.Integer({ description: 'rows that move no balance (nobody owes anything of them)' }),
    total: Type.Number({ description: 'the amount of the records to add (major units)' }),
    errors: Type.Array(RowProblem, {
      description: 'rows the import refuses; the commit answers 42203 while any remain',
    }),
  },
  { title: 'GroupImportPreview' },
);
export type GroupImportPreview = Static<typeof GroupImportPreview>;

export const GroupImportResult = Type.Object(
  {
    group_id: Id,
    created: Type.Boolean({ description: 'the group was created by this import' }),
    expenses: Type.Integer(),
    payments: Type.Integer(),
    already_imported: Type.Integer(),
    placeholders: Type.Integer({ description: 'placeholder members created' }),
  },
  { title: 'GroupImportResult' },
);
export type GroupImportResult = Static<typeof GroupImportResult>;
