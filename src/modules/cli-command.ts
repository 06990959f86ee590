import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';

/** A command of `npm run cli`, contributed by a feature module (src/modules/cli-commands.ts lists them). */
export interface CliCommand {
  name: string;
  usage: string;
  help: string;
  run(database: Database, args: string[], config: Readonly<Config>): Promise<number>;
}
