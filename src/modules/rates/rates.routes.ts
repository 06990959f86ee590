import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { userOf } from '../../plugins/auth.ts';
import {
  RateList,
  RateListQuery,
  RatePutBody,
  RatePutResult,
  RatesFetchSettings,
  RatesFetchUpdate,
} from './rates.schemas.ts';
import { type createRateService } from './rates.service.ts';

export default async function ratesRoutes(
  fastify: FastifyInstance,
  { rates: service }: { rates: ReturnType<typeof createRateService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/api/rates',
    {
      schema: {
        summary: "The caller's exchange rates",
        description:
          'Each: on `date`, one unit of `currency` is worth `rate` units of the base currency (an exact decimal ' +
          'string). Newest first. ' +
          'A row in another currency is converted once, at the latest rate dated on or before its date (or one given ' +
          'with it), rounded half away from zero.',
        querystring: RateListQuery,
        response: { 200: RateList },
      },
    },
    async (req) => service.list(userOf(req).id, req.query),
  );

  app.put(
    '/api/rates',
    {
      schema: {
        summary: 'Set or delete rates by hand',
        description:
          'Each item sets the rate of a currency on a date (replacing a fetched one), or deletes it with `rate: ' +
          'null`. All or none. ' +
          'The base currency, an unknown code, a rate that is not a positive decimal with at most 12 decimals: ' +
          '40001. ' +
          'Transactions already booked keep the rate they were booked with.',
        body: RatePutBody,
        response: { 200: RatePutResult },
      },
    },
    async (req) => service.put(userOf(req).id, req.body),
  );

  app.get(
    '/api/admin/rates-fetch',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Whether exchange rates are fetched once a day, from where, and when they last were',
        response: { 200: RatesFetchSettings },
      },
    },
    async () => service.fetchSettings(),
  );

  app.put(
    '/api/admin/rates-fetch',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Turn the daily fetch of exchange rates on or off',
        description:
          'An http(s) address answering the ECB daily reference rates XML turns it on (the scheduler fetches within ' +
          'a minute, then once a day); null turns it off. ' +
          'The choice overrides the RATES_URL setting of the environment. Not an http(s) address: 40001 on `url`.',
        body: RatesFetchUpdate,
        response: { 200: RatesFetchSettings },
      },
    },
    async (req) => service.setFetch(req.body),
  );
}
