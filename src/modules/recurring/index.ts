// The public face of the recurring module: what other modules, plugins and the composition root may use.
export { default as recurringRoutes } from './recurring.routes.ts';
export { createRecurringService } from './recurring.service.ts';
export { recurringTask } from './recurring.task.ts';
export { countRulesOfAccount, moveRulesToAccount } from './recurring.repo.ts';
