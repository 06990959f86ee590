import { Type, type Static, type TSchema } from 'typebox';
import type { CategoryKind, TransactionKind } from './domain.ts';

export const ErrorBody = Type.Object(
  {
    code: Type.Integer({ description: 'the numeric error code of the contract, e.g. 40001' }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          row: Type.Integer(),
          message: Type.String(),
          code: Type.Optional(
            Type.String({
              description:
                'why a bill line was refused, for the client to word: bad_date (value, format: choose the date ' +
                'format), date_no_year (value), bad_amount (column, value: check the decimal mark), bad_direction ' +
                '(value), bad_currency (value), save_as_xlsx (row 0: a legacy .xls workbook)',
            }),
          ),
          params: Type.Optional(Type.Record(Type.String(), Type.String())),
        }),
      ),
    ),
    reason: Type.Optional(
      Type.String({
        description:
          'why a password was refused (42201): too_short, too_long, common, same_as_username, username_required',
      }),
    ),
    recognised: Type.Optional(
      Type.Object(
        {
          container: Type.String({ description: 'csv, xlsx or json' }),
          encoding: Type.Union([Type.String(), Type.Null()]),
          header: Type.Array(Type.String(), { description: 'the line that looks most like a table header' }),
          header_line: Type.Union([Type.Integer(), Type.Null()]),
          lines_read: Type.Integer(),
          suggestion: Type.Optional(
            Type.String({
              description: 'map_columns (save a column mapping) or save_as_xlsx (a legacy .xls workbook)',
            }),
          ),
        },
        { description: 'what an import of a bill of no known format recognised (42203)' },
      ),
    ),
    missing_rate: Type.Optional(
      Type.Object(
        {
          currency: Type.String({ description: 'the currency of the row' }),
          base: Type.String({ description: "the caller's base currency" }),
          date: Type.String({ description: 'the date of the row: a rate dated on or before it is needed' }),
        },
        {
          description:
            'the exchange rate a row in a foreign currency needs and the caller does not have (40001 on `rate`): add ' +
            'it with PUT /api/rates, or give `rate` with the row',
        },
      ),
    ),
    retry_after: Type.Optional(
      Type.Integer({ description: 'seconds until a locked sign-in may be tried again (42901), as in Retry-After' }),
    ),
  },
  { title: 'Error' },
);

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
export const IdParams = Type.Object({ id: Id });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
export const CalendarDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
export const MonthString = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' });
export const Kind = Type.Union([Type.Literal('expense'), Type.Literal('income')]);
// the schema spells the kinds of domain.ts: this stops compiling when the two differ
export const kindsMatch: [Static<typeof Kind>] extends [CategoryKind]
  ? [CategoryKind] extends [Static<typeof Kind>]
    ? true
    : never
  : never = true;
/**
 * what a transaction records: `expense`/`income` (with a category), `transfer` between two accounts, `adjustment` of
 * one account's balance
 */
export const TransactionKindSchema = Type.Union([
  Type.Literal('expense'),
  Type.Literal('income'),
  Type.Literal('transfer'),
  Type.Literal('adjustment'),
]);
export const transactionKindsMatch: [Static<typeof TransactionKindSchema>] extends [TransactionKind]
  ? [TransactionKind] extends [Static<typeof TransactionKindSchema>]
    ? true
    : never
  : never = true;
export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' });
export const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' });
/** what an amount in a request may be: the money rule as the API documentation states it */
export const AMOUNT_INPUT_RULE =
  "positive, at most as many decimals as the account's currency has (2 for CNY/USD/EUR, 0 for JPY/KRW, 3 for " +
  'KWD/BHD) and 12 integer digits; a number or a decimal string';
/** money in a request: a JSON number or a decimal string, checked exactly by parseAmount */
export const AmountInput = Type.Union([Type.Number(), Type.String()], { description: AMOUNT_INPUT_RULE });
export const NoContent = Type.Null({ description: 'no content' });

/** A trimmed text of min..max characters (checked in the service after trimming). */
export const Text = (min: number, max: number, description?: string) =>
  Type.String({
    minLength: min,
    maxLength: max + 64,
    description: description ?? `${min} to ${max} characters after trimming`,
  });

export function listOf<T extends TSchema>(item: T) {
  return Type.Object({ list: Type.Array(item), total: Type.Integer() });
}

/**
 * how an integer is written in a path or query string: decimal digits, no sign, leading zero, exponent, point or space
 */
export const CANONICAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

function acceptsInteger(schema: Record<string, unknown>): boolean {
  if (schema.type === 'integer') return true;
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object')
    return acceptsInteger(schema.items as Record<string, unknown>);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  // a union that also accepts text checks its own format
  return (
    Array.isArray(alternatives) && alternatives.some(acceptsInteger) && !alternatives.some((a) => a.type === 'string')
  );
}

/** The properties of a params or querystring schema that hold integers (ids, pages, years). */
export function integerFields(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties;
  if (!props) return [];
  return Object.entries(props)
    .filter(([, s]) => acceptsInteger(s))
    .map(([name]) => name);
}
