import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { CalendarDate, CurrencyCode, Nullable, Timestamp } from '../../lib/schemas.ts';

const RateText = Type.String({
  maxLength: 32,
  description:
    'exact decimal: how many units of the base currency one unit of `currency` is worth, e.g. "7.1234"; greater than ' +
    '0 and at most 1000000000, at most 12 decimals',
});

export const RateSchema = Type.Object(
  {
    currency: CurrencyCode,
    date: CalendarDate,
    rate: RateText,
    source: Type.Union([Type.Literal('manual'), Type.Literal('fetched')]),
    updated_at: Timestamp,
  },
  { title: 'ExchangeRate' },
);
export type RateView = Static<typeof RateSchema>;

export const RateListQuery = Type.Object({
  currency: Type.Optional(Type.String({ maxLength: 3, description: 'one currency' })),
  startDate: Type.Optional(CalendarDate),
  endDate: Type.Optional(CalendarDate),
  ...PageQuery,
});
export type RateListQuery = Static<typeof RateListQuery>;

export const RateList = Type.Object(
  {
    list: Type.Array(RateSchema, { description: 'newest first, then by currency' }),
    total: Type.Integer(),
    base_currency: CurrencyCode,
  },
  { title: 'ExchangeRateList' },
);
export type RateList = Static<typeof RateList>;

export const RatePutBody = Type.Object({
  rates: Type.Array(
    Type.Object({
      currency: Type.String({ maxLength: 3, description: 'ISO 4217 code other than the base currency' }),
      date: CalendarDate,
      rate: Nullable(
        Type.Union([Type.String({ maxLength: 32 }), Type.Number()], {
          description:
            'a decimal string (exact) or number, greater than 0 and at most 1000000000 with at most 12 decimals ' +
            '(else 40001 on the field); null deletes the rate of that day',
        }),
      ),
    }),
    { minItems: 1, maxItems: 500 },
  ),
});
export type RatePutBody = Static<typeof RatePutBody>;

export const RatePutResult = Type.Object({
  written: Type.Integer(),
  deleted: Type.Integer(),
});

export const RatesFetchSettings = Type.Object(
  {
    enabled: Type.Boolean({ description: 'whether rates are fetched once a day' }),
    url: Nullable(Type.String({ description: 'the address fetched, ECB daily XML format; null when off' })),
    from_environment: Type.Boolean({
      description: 'true while no administrator has chosen: the RATES_URL setting decides',
    }),
    environment_url: Nullable(Type.String({ description: 'the RATES_URL setting of the server, null when unset' })),
    last_fetched_at: Nullable(Timestamp),
    last_rates_date: Nullable(CalendarDate),
    last_error: Nullable(
      Type.String({ description: 'why the last fetch of this server process failed; null when it worked' }),
    ),
  },
  { title: 'RatesFetchSettings' },
);
export type RatesFetchSettings = Static<typeof RatesFetchSettings>;

export const RatesFetchUpdate = Type.Object(
  {
    url: Nullable(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'an http(s) address answering the ECB daily reference rates XML; null turns the daily fetch off',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RatesFetchUpdate = Static<typeof RatesFetchUpdate>;
