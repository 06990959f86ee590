import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

/** Runs the command line (`src/cli.ts`) with only PATH, HOME and `env` in its environment. */
export function runCli(args: string[], env: Record<string, string>): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
}
