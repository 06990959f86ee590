import type { FastifyInstance } from 'fastify';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import {
  CategoryCreateBody,
  CategoryList,
  CategoryListQuery,
  CategorySchema,
  CategorySortBody,
  CategoryUpdateBody,
  DeleteQuery,
  MigrateBody,
  MigrateResult,
  SuggestQuery,
  SuggestResult,
} from './categories.schemas.ts';
import { type createCategoryService } from './categories.service.ts';
import { typed, type TypedApp } from '../routes.ts';

export default async function categoriesRoutes(
  fastify: FastifyInstance,
  { categories: service }: { categories: ReturnType<typeof createCategoryService> },
) {
  const app = typed(fastify);
  registerCategoryList(app, service);
  registerCategoryRoutes(app, service);
}

/** The categories: listed, created, suggested for a note, sorted. */
function registerCategoryList(app: TypedApp, service: ReturnType<typeof createCategoryService>) {
  app.get(
    '/api/categories',
    {
      schema: {
        summary: "The caller's categories, ordered by sort",
        description: 'Optionally of one `kind`. Ties of `sort` are ordered by id.',
        querystring: CategoryListQuery,
        response: { 200: CategoryList },
      },
    },
    async (req) => service.list(userOf(req).id, req.query.kind),
  );

  app.post(
    '/api/categories',
    {
      schema: {
        summary: 'Create a category',
        description:
          'Name 1 to 20 characters, color #RRGGBB, icon at most 50 characters. The same kind and name already ' +
          'exists: 40901; more than 200 categories: 42201. It is placed last in its kind.',
        body: CategoryCreateBody,
        response: { 201: CategorySchema },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(userOf(req).id, req.body)),
  );

  app.get(
    '/api/categories/suggest',
    {
      schema: {
        summary: 'Suggest up to 3 categories for an amount and a note',
        description:
          "From the caller's own recent history of that kind (the last 2000 transactions): note similarity " +
          '(character bigrams), ' +
          'amount closeness (log scale), frequency and recency. Best first, ties by category id. Without history: ' +
          'the first ' +
          'categories of that kind by sort, with low scores.',
        querystring: SuggestQuery,
        response: { 200: SuggestResult },
      },
    },
    async (req) => service.suggest(userOf(req).id, req.query),
  );

  app.put(
    '/api/categories/sort',
    {
      schema: {
        summary: 'Reorder the categories of one kind',
        description:
          "`ids` must hold every one of the caller's categories of one kind, each once (anything else: 40001). " +
          'Applied in one transaction.',
        body: CategorySortBody,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.sort(userOf(req).id, req.body.ids);
      return reply.code(204).send(null);
    },
  );
}

/** One category: changed, migrated into another, deleted. */
function registerCategoryRoutes(app: TypedApp, service: ReturnType<typeof createCategoryService>) {
  app.put(
    '/api/categories/:id',
    {
      schema: {
        summary: 'Rename, recolor or change the icon of a category',
        description:
          'The kind cannot change (a `kind` key is 40001). A name already used by another category of that kind: ' +
          '40901.',
        params: IdParams,
        body: CategoryUpdateBody,
        response: { 200: CategorySchema },
      },
    },
    async (req) => service.update(userOf(req).id, req.params.id, req.body),
  );

  app.post(
    '/api/categories/:id/migrate',
    {
      schema: {
        summary: "Move a category's transactions to another category",
        description:
          'Also repoints its recurring rules and the saved filter criteria that name it, in one transaction. ' +
          "A target of another kind: 42201; not one of the caller's categories, or the same category: 40001.",
        params: IdParams,
        body: MigrateBody,
        response: { 200: MigrateResult },
      },
    },
    async (req) => service.migrate(userOf(req).id, req.params.id, req.body.target_id),
  );

  app.delete(
    '/api/categories/:id',
    {
      schema: {
        summary: 'Delete a category, optionally moving what uses it first',
        description:
          'With `migrate_to`, its transactions, recurring rules and saved filter references move to that category, ' +
          'then it is deleted, in one transaction ' +
          "(another kind: 42201; not the caller's: 40001). Without it, a category that still has transactions or " +
          'recurring rules is refused with 42201; ' +
          'saved filters drop it from their category lists.',
        params: IdParams,
        querystring: DeleteQuery,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.remove(userOf(req).id, req.params.id, req.query.migrate_to);
      return reply.code(204).send(null);
    },
  );
}
