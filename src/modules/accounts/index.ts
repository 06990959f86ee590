// The public face of the accounts module: what other modules, plugins and the composition root may use.
export { createDefaultAccount, openUsualAccounts } from './accounts.booking.ts';
export { default as accountsRoutes } from './accounts.routes.ts';
export { createAccountService } from './accounts.service.ts';
export { accountNames } from './accounts.repo.ts';
export { switchBaseCurrency } from './base-currency.ts';
