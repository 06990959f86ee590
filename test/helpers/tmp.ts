import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';

/**
 * Gives the calling suite a temporary folder of its own (TMPDIR, which os.tmpdir() reads), so that
 * other processes writing to the shared one (browsers of the browser tests, say) are not taken for
 * files the code under test left behind. Call inside a describe.
 */
export function ownTmpDir(): void {
  const sharedTmp = process.env.TMPDIR;
  before(() => {
    process.env.TMPDIR = mkdtempSync(path.join(tmpdir(), 'ledger-upload-tmp-'));
  });
  after(() => {
    const own = process.env.TMPDIR!;
    if (sharedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = sharedTmp;
    rmSync(own, { recursive: true, force: true });
  });
}
