import { Type, type Static } from 'typebox';
import { CalendarDate, Id, Kind, Nullable, Text, Timestamp } from '../../lib/schemas.ts';
import { DATE_FORMATS } from './bill.text.ts';
import { RULE_FIELDS, RULE_MATCHES } from './bill.rules.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));

export const BillFormat = lit(['wechat', 'alipay', 'ledger', 'mapped'] as const);
export const RowKind = lit(['expense', 'income', 'transfer'] as const);
export const Decision = lit(['import', 'duplicate', 'skip', 'transfer'] as const);
export const EditableDecision = lit(['import', 'skip', 'transfer'] as const);

export const PreviewRow = Type.Object(
  {
    row: Type.Integer({ description: '1 = the first data row of the bill' }),
    date: CalendarDate,
    kind: RowKind,
    amount: Type.Number({ description: 'major units, positive' }),
    counterparty: Type.String(),
    note: Type.String({ description: 'the note the transaction will carry' }),
    external_id: Nullable(Type.String({ description: '交易单号 / 交易订单号 / the mapped id column' })),
    method: Type.String({ description: 'the payment method as an account key (支付方式, 收/付款方式), empty when the bill names none' }),
    account_id: Nullable(Id),
    to_method: Nullable(Type.String()),
    to_account_id: Nullable(Id),
    category_id: Nullable(Id),
    category_name: Nullable(Type.String({ description: 'a category of our own export that does not exist yet: created on commit' })),
    tags: Type.Array(Type.String()),
    decision: Decision,
    reason: Nullable(
      Type.String({
        description:
          'closed, refunded, zero, duplicate (already in your books), duplicate_in_file (the same payment twice in the file: id, time, amount and counterparty), ' +
          'no_account, currency (no account in the row\'s currency), refund_of_skipped, refund_unpaired (a refund whose purchase is in neither the file nor your books: import it as an income or skip it), ' +
          'forced (imported although it looked like a duplicate), user, ledger_transfer (a transfer or adjustment of our own export: import that file with POST /api/import, which keeps accounts)',
      }),
    ),
    refund: Type.Boolean(),
    refund_of_row: Nullable(Type.Integer({ description: 'the row of this bill whose purchase the refund reduces' })),
    refund_of: Nullable(Id),
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
    expense: Type.Number({ description: 'sum of the expenses to import, less the refunds linked to their purchase: what the books will show' }),
    income: Type.Number({ description: 'sum of the incomes to import' }),
    methods: Type.Array(Type.Object({ method: Type.String(), account_id: Nullable(Id), rows: Type.Integer() }), { description: 'payment methods of the bill and the account each maps to' }),
  },
  { title: 'ImportPreviewSummary' },
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
      Type.Object({ row: Type.Integer(), reason: Type.String({ description: 'not_transaction: a total, a note or a disclaimer under the table' }), text: Type.String() }),
      { description: 'lines under the header that are no payments, left out' },
    ),
  },
  { title: 'ImportPreview' },
);
export type Preview = Static<typeof Preview>;

export const PreviewQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  decision: Type.Optional(Decision),
});

export const BillQuery = Type.Object({ preset_id: Type.Optional(Id) });

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
        description: 'import a row marked duplicate (already in your books, or the same payment twice in the file) anyway; it is written without its external id',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BulkEdit = Type.Object(
  {
    rows: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100000, description: 'these rows' })),
    method: Type.Optional(Type.String({ maxLength: 100, description: 'every row paid with (or moving to) this method; with account_id the mapping is remembered' })),
    counterparty: Type.Optional(Type.String({ maxLength: 100, description: 'every row with this counterparty' })),
    decision: Type.Optional(Decision),
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

export const PatchBody = Type.Object(
  {
    rows: Type.Optional(Type.Array(RowEdit, { maxItems: 1000 })),
    bulk: Type.Optional(BulkEdit),
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
      Nullable(Type.String({ maxLength: 100, description: 'a column saying which way each unsigned amount went (借/贷, 收/支, 支出/收入, DEBIT/CREDIT, Dr/Cr); with `amount`, instead of `sign`' })),
    ),
    currency: Type.Optional(Nullable(Type.String({ maxLength: 100, description: "a column with each row's currency: a row is booked in an account of that currency" }))),
    decimal: Type.Optional(Nullable(lit(['.', ','] as const))),
    delimiter: Type.Optional(Nullable(lit([',', ';', '\t'] as const))),
    has_header: Type.Optional(Nullable(Type.Boolean({ description: 'false: no header row; `header` then holds the column numbers "1", "2"... and the mapping names them' }))),
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
  dry_run: Type.Optional(Type.Boolean({ default: false, description: 'true: validate and count, write nothing, always 200' })),
});

export const ImportRowError = Type.Object({
  row: Type.Integer({ description: 'row 1 is the first data row (after the CSV header; the first element of a JSON array)' }),
  message: Type.String(),
});

export const ImportResult = Type.Object(
  {
    imported: Type.Integer(),
    skipped: Type.Integer({ description: 'rows that duplicate transactions the caller already has' }),
    errors: Type.Array(ImportRowError),
    accounts_created: Type.Optional(
      Type.Array(Type.String(), { description: 'names of the accounts the import created (or, in a dry run, would create); absent when none' }),
    ),
  },
  { title: 'ImportResult' },
);
export type ImportResult = Static<typeof ImportResult>;
