// The public face of the splits module: what other modules, plugins and the composition root may use.
export { balanceRows, insertSettlement, memberIds, splitOf } from './splits.repo.ts';
export { default as splitsRoutes } from './splits.routes.ts';
export { DissolveQuery, GroupSettingsBody, ShareView, SplitInput, SplitView } from './splits.schemas.ts';
export { createSplitsService, groupCurrency, notifyRecord, sharesFor } from './splits.service.ts';
export type { ResolvedSplit } from './splits.service.ts';
