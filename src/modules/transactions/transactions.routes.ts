import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IDEMPOTENCY_KEY_PATTERN, withIdempotency } from '../idempotency/index.ts';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import {
  TransactionCreateBody,
  TransactionList,
  TransactionListQuery,
  TransactionSchema,
  TransactionUpdateBody,
} from './transactions.schemas.ts';
import { type createTransactionService } from './transactions.service.ts';
import { sendJsonText, typed, type TypedApp } from '../routes.ts';

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      pattern: IDEMPOTENCY_KEY_PATTERN,
      description:
        '1 to 64 visible ASCII characters, per user, kept 24 hours. A repeat with the same body answers the first ' +
        '(2xx) response again ' +
        'and writes nothing (`Idempotent-Replayed: true`); another body: 42202; the first still running: 40903.',
    }),
  ),
});

export default async function transactionsRoutes(
  fastify: FastifyInstance,
  { transactions: service }: { transactions: ReturnType<typeof createTransactionService> },
) {
  const app = typed(fastify);
  registerRecording(app, service);
  registerReadingAndCorrecting(app, service);
}

/** POST /api/transactions: a transaction recorded (idempotent with a key). */
function registerRecording(app: TypedApp, service: ReturnType<typeof createTransactionService>) {
  app.post(
    '/api/transactions',
    {
      schema: {
        summary: 'Record a transaction',
        description:
          'amount > 0 with at most 2 decimals; `category_id` must be one of your categories of the same kind and ' +
          '`tag_ids` (at most 10) your own tags (else 40001). ' +
          'With `group_id`: the group must be live (40902) and you a member (40302). Honours `Idempotency-Key`.',
        headers: IdempotencyHeaders,
        body: TransactionCreateBody,
        response: { 201: TransactionSchema },
      },
    },
    async (req, reply) => {
      const userId = userOf(req).id;
      const out = await withIdempotency(
        app.db,
        { userId, scope: 'transactions.create', key: req.headers['idempotency-key'], body: req.body },
        // without a key the create joins the batch of creates arriving at the same moment
        async (ex, inTx) => ({ status: 201, body: await service.create(userId, req.body, inTx ? ex : undefined) }),
      );
      if (out.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(out.status as 201).send(out.body);
    },
  );
}

/** A page of transactions, one transaction, its correction and its deletion. */
function registerReadingAndCorrecting(app: TypedApp, service: ReturnType<typeof createTransactionService>) {
  app.get(
    '/api/transactions',
    {
      schema: {
        summary: 'List and filter transactions, with totals of the whole filtered result',
        description:
          'Without `group_id`: exactly your own transactions (those you recorded in groups included). With ' +
          '`group_id` (members only, else 40302): ' +
          "every member's transactions of that group, optionally of one member (`user_id`). Id lists are comma lists " +
          'matching any of them; ' +
          'amount bounds are inclusive and may be 0; `keyword` searches the note. Ties are broken by id. `sums` ' +
          'cover the whole result, not the page.',
        querystring: TransactionListQuery,
        response: { 200: TransactionList },
      },
    },
    async (req, reply) => sendJsonText(reply, await service.list(userOf(req).id, req.query)),
  );

  app.get(
    '/api/transactions/:id',
    {
      schema: {
        summary: 'One transaction (your own, or one of a group you belong to)',
        params: IdParams,
        response: { 200: TransactionSchema },
      },
    },
    async (req) => service.get(userOf(req).id, req.params.id),
  );

  app.put(
    '/api/transactions/:id',
    {
      schema: {
        summary: "Change any subset of a transaction's fields (owner only)",
        description:
          'Only the owner may change it (others: 40401). A new kind needs a category of that kind. `tag_ids` ' +
          'replaces the tags; ' +
          '`group_id: null` takes it out of its group; moving it into another group needs a live group you belong to.',
        params: IdParams,
        body: TransactionUpdateBody,
        response: { 200: TransactionSchema },
      },
    },
    async (req) => service.update(userOf(req).id, req.params.id, req.body),
  );

  app.delete(
    '/api/transactions/:id',
    {
      schema: { summary: 'Delete a transaction (owner only)', params: IdParams, response: { 204: NoContent } },
    },
    async (req, reply) => {
      await service.remove(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
