import type { ServiceDeps, UseCaseArgs } from '../service.ts';
import { byAccount, categoryShare, compare, max, overview, summary, trend } from './stats.read.ts';
import * as statsRepo from './stats.repo.ts';
import type { StatsDeps } from './stats.resolve.ts';

export { changePercent, elapsedDays, percentOf } from './stats.figures.ts';
export { customRange } from './stats.resolve.ts';

export type StatsServiceDeps = ServiceDeps<typeof statsRepo, 'appTimezone'>;

/**
 * The statistics, one named use case each (stats.read.ts): every one checks and resolves the query
 * (stats.resolve.ts), runs one statement and shapes its rows (stats.figures.ts).
 */
export function createStatsService({ db, clock, config, repo = statsRepo }: StatsServiceDeps) {
  const deps: StatsDeps = { db, clock, config, repo };
  return {
    overview: (...a: UseCaseArgs<typeof overview>) => overview(deps, ...a),
    categoryShare: (...a: UseCaseArgs<typeof categoryShare>) => categoryShare(deps, ...a),
    trend: (...a: UseCaseArgs<typeof trend>) => trend(deps, ...a),
    max: (...a: UseCaseArgs<typeof max>) => max(deps, ...a),
    compare: (...a: UseCaseArgs<typeof compare>) => compare(deps, ...a),
    byAccount: (...a: UseCaseArgs<typeof byAccount>) => byAccount(deps, ...a),
    summary: (...a: UseCaseArgs<typeof summary>) => summary(deps, ...a),
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
