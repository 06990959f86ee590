import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module script without type declarations
import { isStale } from '../../scripts/build.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
let compiled: boolean | undefined;

/**
 * The node arguments that start the server or the command line in a child process: the compiled
 * dist/ when it is built and newer than every source (CI builds it before the tests), else the
 * TypeScript sources through tsx. The compiled code starts in a fraction of the time and CPU.
 * TEST_FROM_SOURCE=1 always takes the sources.
 */
export function entryArgs(name: 'server' | 'cli'): string[] {
  compiled ??= process.env.TEST_FROM_SOURCE !== '1' && !(isStale as () => boolean)();
  return compiled ? [path.join(root, 'dist', `${name}.js`)] : ['--import', 'tsx', path.join(root, 'src', `${name}.ts`)];
}
