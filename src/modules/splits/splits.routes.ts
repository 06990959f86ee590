import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IDEMPOTENCY_KEY_PATTERN, withIdempotency } from '../idempotency/index.ts';
import { userOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import {
  Balances,
  Settlement,
  SettlementBody,
  SettlementList,
  SettlementListQuery,
  Suggested,
} from './splits.schemas.ts';
import { type createSplitsService } from './splits.service.ts';
import { typed, type TypedApp } from '../routes.ts';

export default async function splitsRoutes(
  fastify: FastifyInstance,
  { splits: service }: { splits: ReturnType<typeof createSplitsService> },
) {
  const app = typed(fastify);
  registerBalances(app, service);
  registerSettlements(app, service);
}

/** A group's balances, the settlements that would square them, and those recorded. */
function registerBalances(app: TypedApp, service: ReturnType<typeof createSplitsService>) {
  app.get(
    '/api/groups/:id/balances',
    {
      schema: {
        summary: 'Who owes whom in a group (members, and former members with a balance)',
        description:
          'Per person: what they paid, their share, settlements sent and received, and the net (positive: the others ' +
          'owe them). ' +
          'The nets sum to zero. Only records with shares count: in a group that does not split costs (`split_costs: ' +
          'false`) only explicit splits ' +
          'and settlements make balances. People who left or were removed keep their balance until it is settled, ' +
          'and while they have one ' +
          '(or a payment of theirs awaits confirmation) they may read their own line and those of the people on the ' +
          'other side of it. ' +
          'Anyone else not a member: 40302; a dissolved group stays readable.',
        params: IdParams,
        response: { 200: Balances },
      },
    },
    async (req) => service.balances(userOf(req).id, req.params.id),
  );

  app.get(
    '/api/groups/:id/settlements/suggested',
    {
      schema: {
        summary: 'Suggested payments that settle everything (members, and former members with a balance)',
        description:
          'Greedy: the largest debtor pays the largest creditor, until every balance is zero; at most n - 1 payments ' +
          'for n people with a balance. ' +
          'A former member is shown only the payments of their own.',
        params: IdParams,
        response: { 200: Suggested },
      },
    },
    async (req) => service.suggested(userOf(req).id, req.params.id),
  );

  app.get(
    '/api/groups/:id/settlements',
    {
      schema: {
        summary: "A group's recorded payments, the latest first (members; a former member with a balance: their own)",
        params: IdParams,
        querystring: SettlementListQuery,
        response: { 200: SettlementList },
      },
    },
    async (req) => service.list(userOf(req).id, req.params.id, req.query),
  );
}

/** A settlement recorded, confirmed by its receiver, or deleted. */
function registerSettlements(app: TypedApp, service: ReturnType<typeof createSplitsService>) {
  app.post(
    '/api/groups/:id/settlements',
    {
      schema: {
        summary: 'Record a payment between two people of the group',
        description:
          'By either side (`from` or `to` must be the caller, else 40001); the other is notified and may confirm. ' +
          'The amount is in the ' +
          'group currency and may not exceed what `from` still owes `to` (40901): two people settling the same debt ' +
          'at once settle it once. ' +
          'A settlement moves balances and is never income or expense. A former member (left or removed) may record ' +
          'one while they have a balance. ' +
          'Not a member: 40302; dissolved group: 40902. ' +
          'An optional Idempotency-Key header (1 to 64 visible characters) records a retried payment once: the same ' +
          'key ' +
          'and body answer the first payment again (header `Idempotent-Replayed: true`), another body 42202.',
        params: IdParams,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN })) }),
        body: SettlementBody,
        response: { 201: Settlement },
      },
    },
    async (req, reply) => {
      const userId = userOf(req).id;
      const out = await withIdempotency(
        app.db,
        { userId, scope: 'settlements.create', key: req.headers['idempotency-key'], body: [req.params.id, req.body] },
        async (ex, inTx) => ({
          status: 201,
          body: await service.settle(userId, req.params.id, req.body, inTx ? ex : undefined),
        }),
      );
      if (out.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(out.status as 201).send(out.body);
    },
  );

  app.post(
    '/api/settlements/:id/confirm',
    {
      schema: {
        summary: 'Confirm a payment recorded by the other side',
        description:
          'Only the other person of the settlement (the one who recorded it: 42201; another member: 40302), even ' +
          'after leaving the group. ' +
          'A settlement neither of the caller nor of a group the caller is in: 40401. ' +
          'Confirming twice answers it again.',
        params: IdParams,
        response: { 200: Settlement },
      },
    },
    async (req) => service.confirm(userOf(req).id, req.params.id),
  );

  app.delete(
    '/api/settlements/:id',
    {
      schema: {
        summary: 'Take back a payment one recorded, before it is confirmed',
        description:
          'Only the one who recorded it, even after leaving the group (another member: 40302); confirmed: 42201; ' +
          'a settlement neither of the caller nor of a group the caller is in: 40401; dissolved group: 40902.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.remove(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
