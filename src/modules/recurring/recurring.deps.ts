import type { Config } from '../../config.ts';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { todayIn } from '../../lib/dates.ts';
import { userTimezone } from '../books/index.ts';
import type * as recurringRepo from './recurring.repo.ts';

/** What the recurring-rule use cases are built from. */
export interface RuleDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appTimezone'>;
  repo: typeof recurringRepo;
}

/** The day `now` is in the user's time zone. */
export async function todayOf({ config }: RuleDeps, ex: Executor, userId: number, now: Date): Promise<string> {
  return todayIn(await userTimezone(ex, userId, config.appTimezone), now);
}
