import { zoneOr } from '../../lib/access.ts';
import { addDays, todayIn } from '../../lib/dates.ts';
import { sendSystemNotice } from '../notifications/index.ts';
import { recordEvent } from '../webhooks/index.ts';
import type { SchedulerTask } from '../scheduler.ts';
import * as budgetsRepo from './budgets.repo.ts';
import { createBudgetService } from './budgets.service.ts';
import { parseMinor, requireCurrency, toMajorUnits } from '../../lib/currency.ts';

const PAGE = 200;

/**
 * Tells each person once a month when their spending passes this month's total budget (carried-in
 * amounts included): a `budget.exceeded` notice linking to the budget page. Whatever booked the
 * spending (a form, an import, a recurring rule, a share of a group bill) is caught within a run.
 */
export const budgetAlertTask: SchedulerTask = {
  name: 'budget-alerts',
  run: async ({ db, config }, now) => {
    const service = createBudgetService({ db, clock: { now: () => now }, config });
    // the months that are "this month" somewhere on Earth now
    const months = [
      ...new Set([addDays(todayIn('UTC', now), -1), addDays(todayIn('UTC', now), 1)].map((d) => d.slice(0, 7))),
    ];
    let sent = 0;
    let afterId = 0;
    for (;;) {
      const page = await budgetsRepo.alertCandidates(db, months, afterId, PAGE);
      if (!page.length) break;
      // a full page may cut the last user's months in two: that user is read again with the next page
      const full = page.length === PAGE;
      const last = Number(page[page.length - 1]!.user_id);
      for (const c of page) {
        if (full && Number(c.user_id) === last) continue;
        if (todayIn(zoneOr(c.timezone, config.appTimezone), now).slice(0, 7) !== c.month) continue;
        const b = await service.month(Number(c.user_id), c.month);
        if (b.amount === null || b.remaining === null || b.remaining >= 0) continue;
        // the month's budget with what was carried into it, added in minor units of its currency
        const cur = requireCurrency(b.currency);
        const opts = { allowNegative: true, allowZero: true };
        const budget = toMajorUnits(
          parseMinor(b.amount, cur, 'amount', opts) + parseMinor(b.carried_in, cur, 'carried_in', opts),
          cur,
        );
        const exceeded = { month: c.month, amount: budget, spent: b.spent, currency: b.currency };
        // the notice and the webhook event are one change: the next run sees the notice and sends neither again
        await db.transaction(async (tx) => {
          await recordEvent(tx, Number(c.user_id), 'budget.exceeded', exceeded);
          await sendSystemNotice(tx, {
            userId: Number(c.user_id),
            key: 'budget.exceeded',
            params: { month: c.month, amount: budget, spent: b.spent, currency: b.currency },
            title: `${c.month} 预算已超支 · Budget exceeded`,
            content: `本月已支出 ${b.spent} ${b.currency}，超出预算 ${budget} ${b.currency}。\nSpent ${b.spent} ${b.currency} of a ${budget} ${b.currency} budget.`,
            link: '/budget',
            createdBy: null,
          });
        });
        sent++;
      }
      if (!full) break;
      afterId = last - 1;
    }
    return { sent };
  },
};
