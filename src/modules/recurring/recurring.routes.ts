import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { userOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { RecurringCreateBody, RecurringList, RecurringRule, RecurringUpdateBody } from './recurring.schemas.ts';
import { type createRecurringService } from './recurring.service.ts';

const RULES =
  "A rule generates one transaction per occurrence, dated that day, once the date is today or past in the owner's " +
  'time zone ' +
  '(checked every minute; missed occurrences are caught up). The n-th occurrence counts from start_date: a monthly ' +
  'rule on the 31st ' +
  'falls on the last day of shorter months, a yearly rule on 29 February on 28 February in common years. category_id ' +
  'and tag_ids ' +
  "(at most 10) must be the caller's own (else 40001) and the category of the rule's kind; group_id needs membership " +
  '(40302) of a live group (40902). ' +
  'When the owner has left the group or it was dissolved, occurrences are booked as personal transactions. ' +
  "Occurrences are booked in account_id (an open account of the caller's, else 40001; default: the default account). " +
  'A `transfer` rule moves the amount from account_id to to_account_id (required; another open account of the same ' +
  'currency, else 40001) and ' +
  'takes no category_id and no group_id (40001); an expense or income rule takes category_id (required) and no to_account_id (40001).';

export default async function recurringRoutes(
  fastify: FastifyInstance,
  { recurring: service }: { recurring: ReturnType<typeof createRecurringService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/api/recurring',
    {
      schema: {
        summary: "The caller's recurring rules",
        description: 'Oldest first.',
        response: { 200: RecurringList },
      },
    },
    async (req) => service.list(userOf(req).id),
  );

  app.post(
    '/api/recurring',
    {
      schema: {
        summary: 'Create a recurring rule',
        description:
          `${RULES} next_date starts at start_date (default today); end_date, when set, must not be before start_date. ` +
          'A start_date before today books the occurrences since then at the next run, unless book_past is false: ' +
          'then next_date is the first occurrence on or after today.',
        body: RecurringCreateBody,
        response: { 201: RecurringRule },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(userOf(req).id, req.body)),
  );

  app.put(
    '/api/recurring/:id',
    {
      schema: {
        summary: 'Edit, pause or resume a recurring rule',
        description:
          `${RULES} Any subset of the fields. active:false pauses (next_date is kept); active:true resumes at the first occurrence on or after today, ` +
          'so the dates it was paused over are skipped, not filled in. Changing frequency, interval, start_date or ' +
          'end_date recomputes next_date ' +
          'as the first occurrence of the new schedule on or after the old next_date (on or after the new start_date ' +
          'when nothing was generated yet); ' +
          'next_date is null once the schedule has ended. Becoming a transfer drops category_id, and ceasing to be ' +
          'one to_account_id, unless the body sets them. ' +
          "Another user's rule: 40401.",
        params: IdParams,
        body: RecurringUpdateBody,
        response: { 200: RecurringRule },
      },
    },
    async (req) => service.update(userOf(req).id, req.params.id, req.body),
  );

  app.delete(
    '/api/recurring/:id',
    {
      schema: {
        summary: 'Delete a recurring rule',
        description:
          "The transactions it generated stay (their recurring_id becomes null). Another user's rule: 40401.",
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
