import type { CliCommand } from './cli-command.ts';
import { authCommands, totpCommands } from './identity/index.ts';
import { backupCommands } from './backups/index.ts';

export type { CliCommand };

/** Commands contributed by features (backup restore, ...). */
export const cliCommands: CliCommand[] = [...authCommands, ...totpCommands, ...backupCommands];
