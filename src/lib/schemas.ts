import { Type, type Static, type TSchema } from 'typebox';
import type { TransactionKind } from './domain.ts';

export const ErrorBody = Type.Object(
  {
    code: Type.Integer({ description: 'the numeric error code of the contract, e.g. 40001' }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    errors: Type.Optional(Type.Array(Type.Object({ row: Type.Integer(), message: Type.String() }))),
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
export const kindsMatch: [Static<typeof Kind>] extends [TransactionKind] ? ([TransactionKind] extends [Static<typeof Kind>] ? true : never) : never = true;
export const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' });
/** money in a request: a JSON number or a decimal string, checked exactly by parseAmount */
export const AmountInput = Type.Union([Type.Number(), Type.String()], {
  description: 'positive, at most 2 decimals and 12 integer digits; a number or a decimal string',
});
export const NoContent = Type.Null({ description: 'no content' });

/** A trimmed text of min..max characters (checked in the service after trimming). */
export const Text = (min: number, max: number, description?: string) => Type.String({ minLength: min, maxLength: max + 64, description: description ?? `${min} to ${max} characters after trimming` });

export function listOf<T extends TSchema>(item: T) {
  return Type.Object({ list: Type.Array(item), total: Type.Integer() });
}
