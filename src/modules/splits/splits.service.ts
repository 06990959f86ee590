import type { UseCaseArgs } from '../service.ts';
import { groupBalances, hasUnsettled, suggestedSettlements } from './splits.balances.ts';
import * as splitsRepo from './splits.repo.ts';
import { confirmSettlement, listSettlements, removeSettlement, settle } from './splits.settle.ts';
import { updateGroupSettings } from './splits.settings.ts';
import type { SplitsDeps, SplitsServiceDeps } from './splits.shares.ts';

export {
  groupCurrency,
  notifyRecord,
  NO_SHARES,
  reapplySplit,
  resolveSplit,
  sharesFor,
  type ResolvedSplit,
  type SplitsServiceDeps,
} from './splits.shares.ts';

/**
 * Settling a group, one named use case each: its balances and the payments that would settle them
 * (splits.balances.ts), recording, listing, confirming and taking back payments (splits.settle.ts)
 * and the owner's settings (splits.settings.ts). The shares of a record are in splits.shares.ts.
 */
export function createSplitsService({ db, clock, config, groupById, repo = splitsRepo }: SplitsServiceDeps) {
  const deps: SplitsDeps = { db, clock, config, groupById, repo };
  return {
    balances: (...a: UseCaseArgs<typeof groupBalances>) => groupBalances(deps, ...a),
    suggested: (...a: UseCaseArgs<typeof suggestedSettlements>) => suggestedSettlements(deps, ...a),
    settle: (...a: UseCaseArgs<typeof settle>) => settle(deps, ...a),
    list: (...a: UseCaseArgs<typeof listSettlements>) => listSettlements(deps, ...a),
    confirm: (...a: UseCaseArgs<typeof confirmSettlement>) => confirmSettlement(deps, ...a),
    remove: (...a: UseCaseArgs<typeof removeSettlement>) => removeSettlement(deps, ...a),
    updateSettings: (...a: UseCaseArgs<typeof updateGroupSettings>) => updateGroupSettings(deps, ...a),
    unsettled: (...a: UseCaseArgs<typeof hasUnsettled>) => hasUnsettled(deps, ...a),
  };
}

export type SplitsService = ReturnType<typeof createSplitsService>;
