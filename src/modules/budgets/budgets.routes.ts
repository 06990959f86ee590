import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { userOf } from '../../plugins/auth.ts';
import { BudgetBody, BudgetQuery, BudgetView, GroupBudget, MyBudgetBody } from './budgets.schemas.ts';
import { createBudgetService } from './budgets.service.ts';

export default async function budgetsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const service = createBudgetService({ db: app.db, clock: app.clock, config: app.config });

  app.get(
    '/api/budget',
    {
      schema: {
        summary: "A month's budget and spending",
        description:
          "Personal: `{month, amount, spent, remaining}` where `spent` is all of the caller's expense that month. " +
          "With `group_id` (members only, 40302): `{month, group_id, amount, spent, myAmount, mySpent}` with the group's budget and expense and the caller's own. " +
          'Amounts not set are null, never 0.',
        querystring: BudgetQuery,
        response: { 200: BudgetView },
      },
    },
    async (req) => service.get(userOf(req).id, req.query),
  );

  app.put(
    '/api/budget',
    {
      schema: {
        summary: 'Set or clear the personal budget, or a group budget (owner only)',
        description:
          '`amount: null` clears. With `group_id` only the group owner may set it (40302), and not in a dissolved group (40902). ' +
          'Answers as GET for that month (the group view with `group_id`).',
        body: BudgetBody,
        response: { 200: BudgetView },
      },
    },
    async (req) => service.set(userOf(req).id, req.body),
  );

  app.put(
    '/api/budget/mine',
    {
      schema: {
        summary: "Set or clear the caller's own amount in a group",
        description: 'Any member (else 40302) of a live group (else 40902). `amount: null` clears. Answers the group view for that month.',
        body: MyBudgetBody,
        response: { 200: GroupBudget },
      },
    },
    async (req) => service.setMine(userOf(req).id, req.body),
  );
}
