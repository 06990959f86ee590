import { Type, type Static } from 'typebox';
import { CalendarDate, CurrencyCode, Id, Kind, Nullable, Text, Timestamp } from '../../lib/schemas.ts';
import { DATE_FORMATS } from './bill.text.ts';
import { RULE_FIELDS, RULE_MATCHES } from './bill.rules.ts';
import { ACCOUNT_TYPES } from '../../lib/domain.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));

export const BillFormat = lit([
  'wechat',
  'alipay',
  'ledger',
  'mapped',
  'ofx',
  'qif',
  'camt',
  'mt940',
  'ezbookkeeping',
  'firefly',
  'actual',
  'ynab',
  'qianji',
  'sui_app',
  'sui_cloud',
  'sui_web',
] as const);
export const RowKind = lit(['expense', 'income', 'transfer'] as const);
export const Decision = lit(['import', 'duplicate', 'skip', 'transfer'] as const);
export const EditableDecision = lit(['import', 'skip', 'transfer'] as const);
export const AccountTypeName = lit(ACCOUNT_TYPES);
export const NameMatch = lit(['exact', 'similar', 'chosen', 'create'] as const);
const MATCH_TEXT =
  "exact: an existing one of the file's name; similar: of the same name but for case and spaces; chosen: " +
  'another one, chosen by the person (or remembered); create: none yet, one is created on commit (never before)';

export const PreviewRow = Type.Object(
  {
    row: Type.Integer({ description: '1 = the first data row of the bill' }),
    date: CalendarDate,
    kind: RowKind,
    amount: Type.Number({ description: 'major units, positive' }),
    counterparty: Type.String(),
    note: Type.String({ description: 'the note the transaction will carry' }),
    external_id: Nullable(Type.String({ description: '交易单号 / 交易订单号 / the mapped id column' })),
    method: Type.String({
      description: 'the payment method as an account key (支付方式, 收/付款方式), empty when the bill names none',
    }),
    account_id: Nullable(Id),
    to_method: Nullable(Type.String()),
    to_account_id: Nullable(Id),
    category_id: Nullable(Id),
    category_name: Nullable(
      Type.String({ description: 'a category of our own export that does not exist yet: created on commit' }),
    ),
    tags: Type.Array(Type.String()),
    decision: Decision,
    reason: Nullable(
      Type.String({
        description:
          'closed, refunded, zero, duplicate (already in your books), duplicate_in_file (the same payment twice in the file: id, time, amount and counterparty), ' +
          "no_account, currency (no account in the row's currency), refund_of_skipped, refund_unpaired (a refund whose purchase is in neither the file nor your books: booked as an income, which may be skipped), " +
          'probably_recorded (decision duplicate: probably an entry you typed, without a bill id, of the same kind, currency, amount and account within a day; ' +
          "committing gives that entry the row's id, time and counterparty and books nothing new; set decision import to book it anyway), " +
          'forced (imported although it looked like a duplicate), user, ledger_transfer (a transfer or adjustment of our own export: import that file with POST /api/import, which keeps accounts)',
      }),
    ),
    refund: Type.Boolean(),
    refund_of_row: Nullable(Type.Integer({ description: 'the row of this bill whose purchase the refund reduces' })),
    refund_of: Nullable(Id),
    existing_id: Nullable(
      Type.Integer({
        description:
          'a row already in your books (decision duplicate): the transaction it is; with reason probably_recorded, the entry typed by hand it probably is',
      }),
    ),
  },
  { title: 'ImportPreviewRow' },
);

export const PreviewSummary = Type.Object(
  {
    total: Type.Integer(),
    import: Type.Integer(),
    duplicate: Type.Integer(),
    skip: Type.Integer(),
    transfer: Type.Integer(),
    expense: Type.Number({
      description: 'sum of the expenses to import, less the refunds linked to their purchase: what the books will show',
    }),
    income: Type.Number({ description: 'sum of the incomes to import' }),
    methods: Type.Array(
      Type.Object({
        method: Type.String(),
        account_id: Nullable(Id),
        rows: Type.Integer(),
        match: Type.Union([NameMatch, Type.Null()], { description: `${MATCH_TEXT}; null: no account yet` }),
        create: Nullable(
          Type.Object(
            { type: AccountTypeName },
            {
              description:
                "the account created on commit for this method: named as the file names it, in the person's base " +
                'currency, of this type',
            },
          ),
        ),
      }),
      {
        description:
          'payment methods (the accounts an app export or a QIF file names) of the bill and the account each maps to; ' +
          'null: no account yet, the person chooses one (remembered once chosen) or has it created (mappings.accounts)',
      },
    ),
    categories: Type.Array(
      Type.Object({
        name: Type.String(),
        kind: Kind,
        rows: Type.Integer({ description: 'rows to import naming it' }),
        category_id: Type.Union([Id, Type.Null()], { description: 'null: created on commit, with this name and kind' }),
        match: NameMatch,
      }),
      {
        description:
          "the categories the file names (QIF L fields, an app export's category column, our own export) on rows to import, " +
          `each with what it maps to: ${MATCH_TEXT}. Changed with mappings.categories`,
      },
    ),
    undecided: Type.Object(
      {
        rows: Type.Integer({ description: 'rows to book that still lack a category or an account' }),
        category: Type.Integer({
          description: 'rows to book that no rule, history, bill type or merchant could place',
        }),
        account: Type.Integer({ description: 'rows to book whose payment method has no account yet' }),
      },
      { description: 'what the person still has to decide: the commit is refused (42203) while any is left' },
    ),
  },
  { title: 'ImportPreviewSummary' },
);

export const DateOrder = Type.Union([Type.Literal('mdy'), Type.Literal('dmy')], {
  description: 'mdy: month first (03/04/2025 is 4 March); dmy: day first (3 April)',
});

export const StatementBalance = Type.Object(
  {
    method: Type.String({ description: "the account's key in the file: the same as `summary.methods[].method`" }),
    account_id: Nullable(
      Type.Integer({
        minimum: 1,
        description: "the account the method's rows go to (as in `summary.methods`); null while it has none",
      }),
    ),
    currency: CurrencyCode,
    amount: Type.String({
      description: 'the balance, signed, with exactly the currency\'s minor digits ("-104.99"; "1200" in yen)',
    }),
    date: CalendarDate,
  },
  { title: 'ImportStatementBalance' },
);

export const Preview = Type.Object(
  {
    id: Id,
    format: BillFormat,
    source: Type.String(),
    container: Type.String(),
    encoding: Nullable(Type.String()),
    preset_id: Nullable(Id),
    file_name: Type.String(),
    status: Type.String(),
    expires_at: Timestamp,
    rows: Type.Array(PreviewRow),
    total: Type.Integer({ description: 'rows matching the listing (the whole bill for the first answer)' }),
    summary: PreviewSummary,
    ignored: Type.Array(
      Type.Object({
        row: Type.Integer(),
        reason: Type.String({ description: 'not_transaction: a total, a note or a disclaimer under the table' }),
        text: Type.String(),
      }),
      { description: 'lines under the header that are no payments, left out' },
    ),
    date_order: Nullable(
      Type.Object(
        {
          order: DateOrder,
          chosen: Type.Boolean({
            description:
              'true: the person chose it (date_order), as every date read both ways; false: the dates decided',
          }),
        },
        {
          description:
            'the order of day and month the dates of a QIF file were read in; null for other formats (and for a ' +
            'file whose dates name the year first)',
        },
      ),
    ),
    balances: Type.Array(StatementBalance, {
      description:
        'the closing balance a bank statement states for each of its accounts, to reconcile the account with ' +
        '(POST /api/accounts/{id}/reconcile with `amount` and `date`): OFX LEDGERBAL, camt.053/052 closing booked ' +
        'balance (CLBD; else interim booked ITBD, else closing available CLAV), MT940 :62F:; of several statements ' +
        'of an account, the last. Empty for other formats',
    }),
  },
  { title: 'ImportPreview' },
);
export type Preview = Static<typeof Preview>;

export const PreviewQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  decision: Type.Optional(Decision),
});

export const BillQuery = Type.Object({
  preset_id: Type.Optional(Id),
  date_order: Type.Optional(DateOrder),
});

const Tags = Type.Array(Text(1, 20), { maxItems: 10 });

export const RowEdit = Type.Object(
  {
    row: Type.Integer({ minimum: 1 }),
    decision: Type.Optional(EditableDecision),
    kind: Type.Optional(RowKind),
    account_id: Type.Optional(Id),
    to_account_id: Type.Optional(Id),
    category_id: Type.Optional(Id),
    tags: Type.Optional(Tags),
    note: Type.Optional(Text(0, 200)),
    force: Type.Optional(
      Type.Boolean({
        description:
          'import a row marked duplicate (already in your books, or the same payment twice in the file) anyway; it is written without its external id',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BulkEdit = Type.Object(
  {
    rows: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100000, description: 'these rows' })),
    method: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'every row paid with (or moving to) this method; with account_id the mapping is remembered',
      }),
    ),
    counterparty: Type.Optional(Type.String({ maxLength: 100, description: 'every row with this counterparty' })),
    decision: Type.Optional(Decision),
    all: Type.Optional(Type.Literal(true, { description: 'every row of the preview' })),
    undecided: Type.Optional(
      Type.Literal('category', {
        description: 'every row to book still without a category (with category_id: those of its kind)',
      }),
    ),
    set: Type.Object(
      {
        decision: Type.Optional(EditableDecision),
        account_id: Type.Optional(Id),
        category_id: Type.Optional(Id),
        tags: Type.Optional(Tags),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const CategoryMapping = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50, description: 'a name of summary.categories' }),
    kind: Kind,
    category_id: Type.Optional(Id),
    create: Type.Optional(Type.Literal(true, { description: 'create it on commit with this name and kind' })),
  },
  { additionalProperties: false, description: 'exactly one of category_id and create' },
);

export const AccountMapping = Type.Object(
  {
    method: Type.String({ minLength: 1, maxLength: 100, description: 'a method of summary.methods' }),
    account_id: Type.Optional(Id),
    create: Type.Optional(Type.Literal(true, { description: 'create it on commit, named as the file names it' })),
    type: Type.Optional(AccountTypeName),
  },
  { additionalProperties: false, description: 'exactly one of account_id and create (with the type, else guessed)' },
);

export const PatchBody = Type.Object(
  {
    rows: Type.Optional(Type.Array(RowEdit, { maxItems: 1000 })),
    bulk: Type.Optional(BulkEdit),
    mappings: Type.Optional(
      Type.Object(
        {
          categories: Type.Optional(Type.Array(CategoryMapping, { maxItems: 200 })),
          accounts: Type.Optional(Type.Array(AccountMapping, { maxItems: 100 })),
        },
        {
          additionalProperties: false,
          description:
            'what the names the file gives map to: every row naming a category or an account follows (an account ' +
            'chosen is remembered for the next bills, as with bulk.method)',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PatchBody = Static<typeof PatchBody>;

export const PatchResult = Type.Object({ updated: Type.Integer(), summary: PreviewSummary });

export const CommitResult = Type.Object(
  {
    imported: Type.Integer({ description: 'transactions written (transfers and refunds included)' }),
    skipped: Type.Integer({ description: 'rows not written: duplicates, closed trades, rows set to skip' }),
    transfers: Type.Integer(),
    refunds: Type.Integer({ description: 'refunds linked to their purchase' }),
    accounts_created: Type.Optional(
      Type.Array(Type.String(), { description: 'accounts the commit created (mapped create); absent when none' }),
    ),
    categories_created: Type.Optional(
      Type.Array(Type.String(), { description: 'categories the commit created (mapped create); absent when none' }),
    ),
    merged: Type.Integer({
      description:
        'rows that were entries already typed by hand (reason probably_recorded), or confirmed from a payment ' +
        "screenshot under the row's order id (reason duplicate): each entry took the row's id, time and counterparty, " +
        'nothing new was booked (counted in `skipped` too)',
    }),
  },

  { title: 'ImportCommitResult' },
);
export type CommitResult = Static<typeof CommitResult>;

// ---- rules ----

export const RuleSchema = Type.Object(
  {
    id: Id,
    position: Type.Integer(),
    field: lit(RULE_FIELDS),
    match: lit(RULE_MATCHES),
    value: Type.String(),
    kind: Nullable(Kind),
    category_id: Id,
    created_at: Timestamp,
  },
  { title: 'ImportRule' },
);
export const RuleList = Type.Object({ list: Type.Array(RuleSchema) });
export const RuleCreateBody = Type.Object({
  field: lit(RULE_FIELDS),
  match: Type.Optional(lit(RULE_MATCHES)),
  value: Text(1, 100),
  kind: Type.Optional(Nullable(Kind)),
  category_id: Id,
  position: Type.Optional(Type.Integer({ minimum: 1, description: 'where in the order (1 = first); default last' })),
});
export type RuleCreateBody = Static<typeof RuleCreateBody>;
export const RuleUpdateBody = Type.Partial(Type.Omit(RuleCreateBody, ['position']));
export type RuleUpdateBody = Static<typeof RuleUpdateBody>;
export const RuleOrderBody = Type.Object({ ids: Type.Array(Id, { maxItems: 1000 }) });

// ---- presets ----

export const Mapping = Type.Object(
  {
    date: Type.String({ minLength: 1, maxLength: 100 }),
    date_format: lit(DATE_FORMATS),
    amount: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    sign: Type.Optional(Nullable(lit(['negative_is_expense', 'positive_is_expense'] as const))),
    debit: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    credit: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    description: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    counterparty: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    external_id: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    direction: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 100,
          description:
            'a column saying which way each unsigned amount went (借/贷, 收/支, 支出/收入, DEBIT/CREDIT, Dr/Cr); with `amount`, instead of `sign`',
        }),
      ),
    ),
    currency: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 100,
          description: "a column with each row's currency: a row is booked in an account of that currency",
        }),
      ),
    ),
    decimal: Type.Optional(Nullable(lit(['.', ','] as const))),
    delimiter: Type.Optional(Nullable(lit([',', ';', '\t'] as const))),
    has_header: Type.Optional(
      Nullable(
        Type.Boolean({
          description:
            'false: no header row; `header` then holds the column numbers "1", "2"... and the mapping names them',
        }),
      ),
    ),
  },
  { additionalProperties: false, title: 'ImportColumnMapping' },
);

export const PresetSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    header: Type.Array(Type.String()),
    mapping: Mapping,
    account_id: Nullable(Id),
    created_at: Timestamp,
  },
  { title: 'ImportPreset' },
);
export const PresetList = Type.Object({ list: Type.Array(PresetSchema) });
export const PresetCreateBody = Type.Object({
  name: Text(1, 30),
  header: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 100 }),
  mapping: Mapping,
  account_id: Type.Optional(Nullable(Id)),
});
export type PresetCreateBody = Static<typeof PresetCreateBody>;
export const PresetUpdateBody = Type.Partial(PresetCreateBody);
export type PresetUpdateBody = Static<typeof PresetUpdateBody>;

// ---- POST /api/import: our own CSV/JSON, all or nothing ----

export const ImportQuery = Type.Object({
  dry_run: Type.Optional(
    Type.Boolean({ default: false, description: 'true: validate and count, write nothing, always 200' }),
  ),
});

export const ImportRowError = Type.Object({
  row: Type.Integer({
    description: 'row 1 is the first data row (after the CSV header; the first element of a JSON array)',
  }),
  message: Type.String(),
});

export const ImportResult = Type.Object(
  {
    imported: Type.Integer(),
    skipped: Type.Integer({ description: 'rows that duplicate transactions the caller already has' }),
    errors: Type.Array(ImportRowError),
    accounts_created: Type.Optional(
      Type.Array(Type.String(), {
        description: 'names of the accounts the import created (or, in a dry run, would create); absent when none',
      }),
    ),
  },
  { title: 'ImportResult' },
);
export type ImportResult = Static<typeof ImportResult>;
