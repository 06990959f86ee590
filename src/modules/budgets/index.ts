// The public face of the budgets module: what other modules, plugins and the composition root may use.
export { default as budgetsRoutes } from './budgets.routes.ts';
export { createBudgetService } from './budgets.service.ts';
export { budgetAlertTask } from './budgets.task.ts';
export { writeLine } from './budgets.lines.ts';
