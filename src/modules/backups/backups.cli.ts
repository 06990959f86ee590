import type { CliCommand } from '../cli-commands.ts';

export const backupCommands: CliCommand[] = [];
