import type { FastifyInstance } from 'fastify';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import {
  AccountCreateBody,
  AccountGetQuery,
  AccountList,
  AccountListQuery,
  AccountSchema,
  AccountSortBody,
  AccountUpdateBody,
  BalanceSeries,
  BalanceSeriesQuery,
  Ledger,
  LedgerQuery,
  MergeBody,
  MergeResult,
  NetWorthHistory,
  NetWorthQuery,
  ReconcileBody,
  ReconcileResult,
} from './accounts.schemas.ts';
import { type createAccountService } from './accounts.service.ts';
import { SetupBody, SetupState } from './setup.ts';
import { typed, type TypedApp } from '../routes.ts';

export default async function accountsRoutes(
  fastify: FastifyInstance,
  { accounts: service }: { accounts: ReturnType<typeof createAccountService> },
) {
  const app = typed(fastify);
  registerAccountList(app, service);
  registerAccountRoutes(app, service);
  registerLedger(app, service);
  registerSetupRoutes(app, service);
  registerBalanceRoutes(app, service);
}

/** The accounts: listed with balances, net worth, created, sorted. */
function registerAccountList(app: TypedApp, service: ReturnType<typeof createAccountService>) {
  app.get(
    '/api/accounts',
    {
      schema: {
        summary: "The caller's accounts with their balances, and the net worth",
        description:
          'Ordered by sort, then id. Archived accounts are left out unless `include_archived=true` (they still count ' +
          'in `net_worth`). ' +
          'With `date`: balances as of the end of that day (the opening balance counts from its opening date). ' +
          "Net worth: each account's balance converted into the base currency at the latest rate dated on or before " +
          'the day (today by default), ' +
          'rounded half away from zero per account, then summed; accounts without a rate are left out and their ' +
          'currencies listed in `missing_rates`.',
        querystring: AccountListQuery,
        response: { 200: AccountList },
      },
    },
    async (req) => service.list(userOf(req).id, req.query),
  );

  app.get(
    '/api/accounts/net-worth',
    {
      schema: {
        summary: 'Net worth at the end of each month',
        description:
          'The last `months` months, oldest first, the current one as of today. Each account is converted at the ' +
          'latest rate dated on or before ' +
          'the end of the month (when there is none so early, the earliest one known).',
        querystring: NetWorthQuery,
        response: { 200: NetWorthHistory },
      },
    },
    async (req) => service.netWorthHistory(userOf(req).id, req.query.months ?? 12),
  );

  app.post(
    '/api/accounts',
    {
      schema: {
        summary: 'Open an account',
        description:
          'Name 1 to 30 characters; `currency` an ISO 4217 code (default: the base currency); `opening_balance` with ' +
          "at most the currency's decimals " +
          '(may be negative); `opening_date` defaults to today. `is_default: true` makes it the default account. ' +
          'More than 100 accounts: 42201. Placed last.',
        body: AccountCreateBody,
        response: { 201: AccountSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(userOf(req).id, req.body)),
  );

  app.put(
    '/api/accounts/sort',
    {
      schema: {
        summary: 'Reorder the accounts',
        description:
          "`ids` must hold every one of the caller's accounts (archived included), each once (anything else: 40001). " +
          'Applied in one transaction.',
        body: AccountSortBody,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.sort(userOf(req).id, req.body.ids);
      return reply.code(204).send(null);
    },
  );
}

/** One account: read, changed, deleted, merged into another. */
function registerAccountRoutes(app: TypedApp, service: ReturnType<typeof createAccountService>) {
  app.get(
    '/api/accounts/:id',
    {
      schema: {
        summary: 'One account with its balance (optionally as of the end of `date`)',
        params: IdParams,
        querystring: AccountGetQuery,
        response: { 200: AccountSchema },
      },
    },
    async (req) => service.get(userOf(req).id, req.params.id, req.query.date),
  );

  app.put(
    '/api/accounts/:id',
    {
      schema: {
        summary: 'Change an account',
        description:
          'Any subset of the fields. The currency only while the account has no transactions (42201). `is_default: ' +
          'true` moves the default here; ' +
          'the default account cannot be archived (42201). `archived: true` hides it from the list, never from ' +
          'history or net worth.',
        params: IdParams,
        body: AccountUpdateBody,
        response: { 200: AccountSchema },
      },
    },
    async (req) => service.update(userOf(req).id, req.params.id, req.body),
  );

  app.delete(
    '/api/accounts/:id',
    {
      schema: {
        summary: 'Delete an account without transactions',
        description:
          'An account with transactions (42201) can be archived or merged into another; the default account cannot ' +
          'be deleted (42201); nor can an account a recurring rule books into or out of (42201: change or delete the ' +
          'rule first).',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.remove(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/accounts/:id/merge',
    {
      schema: {
        summary: 'Merge the account into another of the same currency',
        description:
          'In one transaction: every row moves to `target_id`, transfers between the two are removed (their fees ' +
          'stay as expenses), opening ' +
          'balances add up, the account is deleted (the default passes to the target); its recurring rules book into ' +
          'the target (a recurring transfer between the two is deleted). Another currency: 42201; not one of your ' +
          'accounts or the same: 40001.',
        params: IdParams,
        body: MergeBody,
        response: { 200: MergeResult },
      },
    },
    async (req) => service.merge(userOf(req).id, req.params.id, req.body.target_id),
  );
}

/** An account's ledger. */
function registerLedger(app: TypedApp, service: ReturnType<typeof createAccountService>) {
  app.get(
    '/api/accounts/:id/ledger',
    {
      schema: {
        summary: "An account's rows with the running balance",
        description:
          'Newest first; `balance` is the balance after the row, opening balance included, counting rows in (date, ' +
          'id) order.',
        params: IdParams,
        querystring: LedgerQuery,
        response: { 200: Ledger },
      },
    },
    async (req) => service.ledger(userOf(req).id, req.params.id, req.query),
  );
}

/** The first-run setup: its state, done, skipped. */
function registerSetupRoutes(app: TypedApp, service: ReturnType<typeof createAccountService>) {
  app.get(
    '/api/setup',
    {
      schema: {
        summary: 'Whether to offer the first-run setup',
        description:
          '`pending` while the books are empty and the setup was neither finished nor skipped; the base currency in ' +
          'force.',
        response: { 200: SetupState },
      },
    },
    async (req) => service.setup.state(userOf(req).id),
  );

  app.post(
    '/api/setup',
    {
      schema: {
        summary: 'Finish the first-run setup: base currency, the usual accounts, a monthly budget',
        description:
          'All in one transaction. `base_currency` changes only while there are no entries and no rates (else ' +
          '42201). Each of ' +
          '`accounts` opens today with `opening_balance` in the base currency; an account of the same name already ' +
          'there (the cash ' +
          'account every new user has) takes the balance instead. Names once each (else 40001); at most 100 accounts ' +
          'in all (42201). ' +
          '`monthly_budget` is set from this month on, repeating until changed (as PUT /api/budget with `repeat`). ' +
          'Once finished or skipped: 40901, and nothing is written.',
        body: SetupBody,
        response: { 200: SetupState },
      },
    },
    async (req) => service.setup.finish(userOf(req).id, req.body),
  );

  app.post(
    '/api/setup/skip',
    {
      schema: {
        summary: 'Skip the first-run setup',
        description: 'It is not offered again. A finished setup stays finished.',
        response: { 200: SetupState },
      },
    },
    async (req) => service.setup.skip(userOf(req).id),
  );
}

/** An account's balance series and its reconciliation with the bank's figure. */
function registerBalanceRoutes(app: TypedApp, service: ReturnType<typeof createAccountService>) {
  app.get(
    '/api/accounts/:id/balance-series',
    {
      schema: {
        summary: "An account's balance over time",
        description:
          "The balance at the end of the period's first day, of each day it changed, and of today, in the account's " +
          'currency ' +
          '(opening balance included; rows dated after today are not counted). Not your account: 40401.',
        params: IdParams,
        querystring: BalanceSeriesQuery,
        response: { 200: BalanceSeries },
      },
    },
    async (req) => service.balanceSeries(userOf(req).id, req.params.id, req.query.months),
  );

  app.post(
    '/api/accounts/:id/reconcile',
    {
      schema: {
        summary: 'Reconcile the balance with what the bank shows',
        description:
          '`balance` is what the bank shows at the end of `date` (default today). The difference to the computed ' +
          'balance of that day is booked ' +
          'as an `adjustment` row (signed, no category, never in statistics or budgets); `adjustment` is null when ' +
          'they already agree.',
        params: IdParams,
        body: ReconcileBody,
        response: { 200: ReconcileResult },
      },
    },
    async (req) => service.reconcile(userOf(req).id, req.params.id, req.body),
  );
}
