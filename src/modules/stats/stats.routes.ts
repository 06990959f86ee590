import type { FastifyInstance } from 'fastify';
import { userOf } from '../../plugins/auth.ts';
import {
  AccountBreakdown,
  CategoryShare,
  Compare,
  MaxResult,
  Overview,
  StatsQuery,
  Summary,
  Trend,
} from './stats.schemas.ts';
import { type createStatsService } from './stats.service.ts';
import { typed, type TypedApp } from '../routes.ts';

const COMMON =
  "Query: `period` week|month (default)|year around `date` (default today in the caller's zone), `type` expense " +
  '(default)|income, ' +
  "`group_id` (members only, 40302: every member's transactions of that group), `tag_id` (one of the caller's tags, " +
  'else 40001). ' +
  "`account_id` (one of the caller's accounts, else 40001; not with `group_id`): only that account's rows. `user_id` " +
  "(with `group_id` only): one member's rows. " +
  "Without `group_id` the caller's own transactions count, those recorded in groups included. " +
  'Only income and expense count: transfers between accounts and balance adjustments never do. ' +
  "Amounts are in the caller's base currency, each row converted once at its booking (its `base_amount`), so later rate changes do not move them.";

export default async function statsRoutes(
  fastify: FastifyInstance,
  { stats: service }: { stats: ReturnType<typeof createStatsService> },
) {
  const app = typed(fastify);
  registerPeriodStats(app, service);
  registerComparisons(app, service);
}

/** Overview, category share, trend and largest spending of a period. */
function registerPeriodStats(app: TypedApp, service: ReturnType<typeof createStatsService>) {
  app.get(
    '/api/stats/overview',
    {
      schema: {
        summary: 'Income, expense, balance, count and daily average of a period',
        description: COMMON,
        querystring: StatsQuery,
        response: { 200: Overview },
      },
    },
    async (req) => service.overview(userOf(req).id, req.query),
  );

  app.get(
    '/api/stats/category-share',
    {
      schema: {
        summary: 'The `type` total of a period by category',
        description: COMMON,
        querystring: StatsQuery,
        response: { 200: CategoryShare },
      },
    },
    async (req) => service.categoryShare(userOf(req).id, req.query),
  );

  app.get(
    '/api/stats/trend',
    {
      schema: {
        summary: 'The `type` total per day (week, month) or per month (year), zero-filled',
        description: COMMON,
        querystring: StatsQuery,
        response: { 200: Trend },
      },
    },
    async (req) => service.trend(userOf(req).id, req.query),
  );

  app.get(
    '/api/stats/max',
    {
      schema: {
        summary: 'The largest single transaction of `type` in the period',
        description: COMMON,
        querystring: StatsQuery,
        response: { 200: MaxResult },
      },
    },
    async (req) => service.max(userOf(req).id, req.query),
  );
}

/** Period comparison, accounts and the summary. */
function registerComparisons(app: TypedApp, service: ReturnType<typeof createStatsService>) {
  app.get(
    '/api/stats/compare',
    {
      schema: {
        summary: 'Income and expense of the period against the period just before',
        description: `${COMMON} A change percent is null when the previous value is 0.`,
        querystring: StatsQuery,
        response: { 200: Compare },
      },
    },
    async (req) => service.compare(userOf(req).id, req.query),
  );

  app.get(
    '/api/stats/accounts',
    {
      schema: {
        summary: 'Income and expense of a period by account',
        description: `${COMMON} Personal view only: \`group_id\` is 40001 (a group view is split by member with \`user_id\`).`,
        querystring: StatsQuery,
        response: { 200: AccountBreakdown },
      },
    },
    async (req) => service.byAccount(userOf(req).id, req.query),
  );

  app.get(
    '/api/stats/summary',
    {
      schema: {
        summary: 'Overview, category share, trend, max and compare in one response',
        description: `${COMMON} Each part is exactly what its own operation answers.`,
        querystring: StatsQuery,
        response: { 200: Summary },
      },
    },
    async (req) => service.summary(userOf(req).id, req.query),
  );
}
