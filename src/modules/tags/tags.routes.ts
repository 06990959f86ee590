import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { TagCreateBody, TagList, TagSchema, TagUpdateBody } from './tags.schemas.ts';
import { type createTagService } from './tags.service.ts';

export default async function tagsRoutes(
  fastify: FastifyInstance,
  { tags: service }: { tags: ReturnType<typeof createTagService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/tags', { schema: { summary: 'Your tags, by name', response: { 200: TagList } } }, async (req) =>
    service.list(userOf(req).id),
  );

  app.post(
    '/api/tags',
    {
      schema: {
        summary: 'Create a tag',
        description:
          'name 1 to 20 characters after trimming, unique among your tags (else 40901); color `#RRGGBB` or null.',
        body: TagCreateBody,
        response: { 201: TagSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(userOf(req).id, req.body)),
  );

  app.put(
    '/api/tags/:id',
    {
      schema: {
        summary: 'Rename or recolor a tag',
        description: 'Another of your tags with that name: 40901. `color: null` clears the color.',
        params: IdParams,
        body: TagUpdateBody,
        response: { 200: TagSchema },
      },
    },
    async (req) => service.update(userOf(req).id, req.params.id, req.body),
  );

  app.delete(
    '/api/tags/:id',
    {
      schema: {
        summary: 'Delete a tag; it is detached from its transactions',
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
