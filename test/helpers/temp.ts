import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

/**
 * Temporary folders for the tests of one file, removed when they have run: call once at the top of
 * the file, then ask the function it gives for a new folder.
 */
export function tempDirs(): (prefix: string) => string {
  const made: string[] = [];
  after(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });
  return (prefix) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
