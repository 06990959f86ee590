import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * What every feature service is built from: the database, the clock, the slice of configuration it
 * reads and its repository (tests may pass another). Services never see the Fastify instance.
 */
export interface ServiceDeps<Repo, Keys extends keyof Config = never> {
  db: Db;
  clock: Clock;
  config: Pick<Config, Keys>;
  repo?: Repo;
}

/**
 * The arguments of a use case after its dependencies: a service is a map of named use cases, each
 * entry `name: (...a: UseCaseArgs<typeof useCase>) => useCase(deps, ...a)`, so a reader (and a
 * call-graph tool) goes from `service.name` straight to the function that does it.
 */
export type UseCaseArgs<F> = F extends (deps: never, ...args: infer A) => unknown ? A : never;
