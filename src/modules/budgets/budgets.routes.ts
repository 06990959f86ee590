import type { FastifyInstance } from 'fastify';
import { userOf } from '../../plugins/auth.ts';
import {
  BudgetBody,
  BudgetQuery,
  BudgetView,
  GroupBudget,
  MonthBudgetBody,
  MonthParams,
  MyBudgetBody,
  PersonalBudget,
} from './budgets.schemas.ts';
import { type createBudgetService } from './budgets.service.ts';
import { typed, type TypedApp } from '../routes.ts';

const BUDGET_TEXT =
  "Amounts in the caller's base currency (`currency`), spending is expense only (each row's base amount fixed at " +
  'booking; transfers and ' +
  'adjustments never count, nor do settlements between group members). Group records count as the caller bears them: ' +
  'in a group that splits ' +
  "costs, the caller's share of every expense (whoever recorded or paid it; the share in the group currency); in a " +
  'group that does not, the ' +
  "caller's own records whole. `amount`/`remaining` are null when no month total is set. " +
  "Carry-over: a total or a category line marked `carry_over` passes what remains of it at the month's end (only a " +
  'positive remainder; ' +
  'overspending is not taken from the next month) to the same budget of the next month, where it shows as ' +
  '`carried_in` and adds to ' +
  '`remaining` (and, per category, to `available`); chains of consecutive carrying months are followed back up to ' +
  '120 months. ' +
  "`categories` lists the month's category lines, each with its own spent and remaining, independent of the total.";

export default async function budgetsRoutes(
  fastify: FastifyInstance,
  { budgets: service }: { budgets: ReturnType<typeof createBudgetService> },
) {
  const app = typed(fastify);
  registerMonthBudget(app, service);
  registerCategoryBudgets(app, service);
}

/** The month's budget, read and set. */
function registerMonthBudget(app: TypedApp, service: ReturnType<typeof createBudgetService>) {
  app.get(
    '/api/budget',
    {
      schema: {
        summary: "A month's budget and spending",
        description:
          "Personal: `{month, amount, spent, remaining}` where `spent` is the caller's expense that month in the " +
          'base currency, group records counted as above (GET /api/budgets/{month} adds the category lines and ' +
          'carry-over). ' +
          'With `group_id` (members only, 40302): `{month, group_id, amount, spent, myAmount, mySpent}` with the ' +
          "group's budget and expense and the caller's own. " +
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
          '`amount: null` clears. With `group_id` only the group owner may set it (40302), and not in a dissolved ' +
          'group (40902). ' +
          '`repeat: true` sets it for this month and every later month until changed; without it the amount is for ' +
          'that month ' +
          'alone, as it always was. Answers as GET for that month (the group view with `group_id`).',
        body: BudgetBody,
        response: { 200: BudgetView },
      },
    },
    async (req) => service.set(userOf(req).id, req.body),
  );
}

/** The budgets of a month by category, and one's own budget in a group. */
function registerCategoryBudgets(app: TypedApp, service: ReturnType<typeof createBudgetService>) {
  app.get(
    '/api/budgets/:month',
    {
      schema: {
        summary: "The caller's personal budget of a month, in total and per category",
        description: BUDGET_TEXT,
        params: MonthParams,
        response: { 200: PersonalBudget },
      },
    },
    async (req) => service.month(userOf(req).id, req.params.month),
  );

  app.put(
    '/api/budgets/:month',
    {
      schema: {
        summary: "Set the caller's personal budget of a month: total, carry-over and per-category lines",
        description:
          'Every part is optional and left as it is when absent, all written in one transaction. `amount`: the month ' +
          'total (null clears it, ' +
          "its carry-over flag with it). `carry_over`: whether what remains of the total at the month's end carries " +
          'into the next month ' +
          "(true without a total: 40001). `categories`: `[{category_id, amount, carry_over?}]` REPLACES the month's " +
          'category lines ' +
          `(an empty array removes them; at most 200); each category_id must be one of the caller's expense categories, named once (else 40001). ` +
          'Amounts are in the base currency, positive, with its decimals (else 40001). Group budgets are set with ' +
          'PUT /api/budget as before. ' +
          '`repeat: true`: what is given holds from this month on (categories left out end here), else for this ' +
          'month alone. ' +
          'Answers as GET.',
        params: MonthParams,
        body: MonthBudgetBody,
        response: { 200: PersonalBudget },
      },
    },
    async (req) => service.setMonth(userOf(req).id, req.params.month, req.body),
  );

  app.put(
    '/api/budget/mine',
    {
      schema: {
        summary: "Set or clear the caller's own amount in a group",
        description:
          'Any member (else 40302) of a live group (else 40902). `amount: null` clears; `repeat` as in PUT ' +
          '/api/budget. ' +
          'Answers the group view for that month.',
        body: MyBudgetBody,
        response: { 200: GroupBudget },
      },
    },
    async (req) => service.setMine(userOf(req).id, req.body),
  );
}
