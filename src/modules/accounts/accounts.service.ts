import type { UseCaseArgs, ServiceDeps } from '../service.ts';
import { mergeAccounts, removeAccount, sortAccounts } from './accounts.arrange.ts';
import { createAccount } from './accounts.create.ts';
import type { AccountDeps } from './accounts.deps.ts';
import { netWorthHistory } from './accounts.net-worth.ts';
import { accountLedger, balanceSeries, getAccount, listAccounts } from './accounts.query.ts';
import { reconcileAccount } from './accounts.reconcile.ts';
import * as accountsRepo from './accounts.repo.ts';
import { updateAccount } from './accounts.update.ts';
import { createSetup } from './setup.ts';

export { balanceInBase, netWorthOf, toAccountView } from './accounts.views.ts';

export type AccountServiceDeps = ServiceDeps<typeof accountsRepo, 'appTimezone'>;

/**
 * The accounts, one named use case each: the first-run setup (setup.ts), reading them
 * (accounts.query.ts), opening and changing one (accounts.create.ts, accounts.update.ts), deleting,
 * merging and ordering them (accounts.arrange.ts), reconciling with the bank (accounts.reconcile.ts)
 * and the net worth over the months (accounts.net-worth.ts).
 */
export function createAccountService({ db, clock, config, repo = accountsRepo }: AccountServiceDeps) {
  const deps: AccountDeps = { db, clock, config, repo };
  return {
    /** the first-run setup: the usual accounts are where it starts */
    setup: createSetup({ db, clock, appTimezone: config.appTimezone }),
    list: (...a: UseCaseArgs<typeof listAccounts>) => listAccounts(deps, ...a),
    get: (...a: UseCaseArgs<typeof getAccount>) => getAccount(deps, ...a),
    create: (...a: UseCaseArgs<typeof createAccount>) => createAccount(deps, ...a),
    update: (...a: UseCaseArgs<typeof updateAccount>) => updateAccount(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removeAccount>) => removeAccount(deps, ...a),
    sort: (...a: UseCaseArgs<typeof sortAccounts>) => sortAccounts(deps, ...a),
    merge: (...a: UseCaseArgs<typeof mergeAccounts>) => mergeAccounts(deps, ...a),
    ledger: (...a: UseCaseArgs<typeof accountLedger>) => accountLedger(deps, ...a),
    balanceSeries: (...a: UseCaseArgs<typeof balanceSeries>) => balanceSeries(deps, ...a),
    reconcile: (...a: UseCaseArgs<typeof reconcileAccount>) => reconcileAccount(deps, ...a),
    netWorthHistory: (...a: UseCaseArgs<typeof netWorthHistory>) => netWorthHistory(deps, ...a),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
