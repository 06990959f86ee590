import { Type, type Static } from 'typebox';
import type { CategoryKind as TransactionKind } from '../../lib/domain.ts';
import { CalendarDate } from '../../lib/schemas.ts';

export const ExportType = Type.Union(
  [
    Type.Literal('expense'),
    Type.Literal('income'),
    Type.Literal('transfer'),
    Type.Literal('adjustment'),
    Type.Literal('all'),
  ],
  {
    description: 'default all (every kind: expense, income, transfer and adjustment rows)',
  },
);
export const ExportFormat = Type.Union([Type.Literal('csv'), Type.Literal('json')], { description: 'default csv' });

export const ExportPrepareBody = Type.Object({
  startDate: CalendarDate,
  endDate: CalendarDate,
  type: Type.Optional(ExportType),
  format: Type.Optional(ExportFormat),
});
export type ExportPrepareBody = Static<typeof ExportPrepareBody>;

export const ExportPrepareResult = Type.Object({
  token: Type.String({
    description: 'signed download token, valid 5 minutes, bound to the caller and these parameters',
  }),
  expires_in: Type.Integer({ description: 'seconds: 300' }),
  downloadUrl: Type.String({ description: 'relative URL of the download, token included' }),
});
export type ExportPrepareResult = Static<typeof ExportPrepareResult>;

/** ExportParams; startDate and endDate may be left out only when a prepared token carries them. */
export const ExportQuery = Type.Object({
  startDate: Type.Optional(CalendarDate),
  endDate: Type.Optional(CalendarDate),
  type: Type.Optional(ExportType),
  format: Type.Optional(ExportFormat),
  token: Type.Optional(
    Type.String({
      maxLength: 4096,
      description: 'an access token, or the token of POST /api/export/prepare (whose parameters then win)',
    }),
  ),
});
export type ExportQuery = Static<typeof ExportQuery>;

export interface ExportParams {
  startDate: string;
  endDate: string;
  type: TransactionKind | 'transfer' | 'adjustment' | 'all';
  format: 'csv' | 'json';
}
