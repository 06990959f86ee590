import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { SavedFilterCreateBody, SavedFilterList, SavedFilterSchema, SavedFilterUpdateBody } from './filters.schemas.ts';
import { type createFilterService } from './filters.service.ts';

const CRITERIA_RULES =
  'criteria keys are the transaction list filters (startDate, endDate, kind, category_ids, tag_ids, min_amount, ' +
  'max_amount, keyword, group_id, user_id, sort); ' +
  'id lists are arrays of numbers, amount bounds numbers (0 is a valid bound). Unknown keys, invalid values and ids ' +
  'that are not yours (categories, tags, ' +
  'a group you are not in): 40001. The criteria are stored and returned exactly as given.';

export default async function filtersRoutes(
  fastify: FastifyInstance,
  { filters: service }: { filters: ReturnType<typeof createFilterService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/api/filters',
    { schema: { summary: 'Your saved filters, oldest first', response: { 200: SavedFilterList } } },
    async (req) => service.list(userOf(req).id),
  );

  app.post(
    '/api/filters',
    {
      schema: {
        summary: 'Save a filter',
        description: `name 1 to 30 characters after trimming; at most 50 saved filters per user (42201). ${CRITERIA_RULES}`,
        body: SavedFilterCreateBody,
        response: { 201: SavedFilterSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(userOf(req).id, req.body)),
  );

  app.put(
    '/api/filters/:id',
    {
      schema: {
        summary: 'Rename a saved filter or replace its criteria',
        description: `\`criteria\`, when given, replaces the stored criteria as a whole. ${CRITERIA_RULES}`,
        params: IdParams,
        body: SavedFilterUpdateBody,
        response: { 200: SavedFilterSchema },
      },
    },
    async (req) => service.update(userOf(req).id, req.params.id, req.body),
  );

  app.delete(
    '/api/filters/:id',
    { schema: { summary: 'Delete a saved filter', params: IdParams, response: { 204: NoContent } } },
    async (req, reply) => {
      await service.remove(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
