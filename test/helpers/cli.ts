import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { entryArgs } from './entry.ts';

/** Runs the command line with only PATH, HOME and `env` in its environment (and `input` on its standard input). */
export function runCli(args: string[], env: Record<string, string>, input?: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...entryArgs('cli'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
    timeout: 120_000,
    ...(input === undefined ? {} : { input }),
  });
}
