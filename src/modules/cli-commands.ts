import type { Config } from './../config.ts';
import type { Database } from '../db/client.ts';
import { authCommands } from './identity/index.ts';
import { backupCommands } from './backups/backups.cli.ts';

export interface CliCommand {
  name: string;
  usage: string;
  help: string;
  run(database: Database, args: string[], config: Readonly<Config>): Promise<number>;
}

/** Commands contributed by features (backup restore, ...). */
export const cliCommands: CliCommand[] = [...authCommands, ...backupCommands];
