// Builds the app, writes the served OpenAPI document to a temporary file and lints it with Redocly.
// `--document <file>` lints a document scripts/openapi-dump.ts has already written instead (CI
// writes it once for this lint and the web client's API types check).
import { spawnSync } from 'node:child_process';
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const given = process.argv.indexOf('--document');
let file = given === -1 ? null : process.argv[given + 1];
if (given !== -1 && !file) {
  console.error('--document needs the file scripts/openapi-dump.ts wrote');
  process.exit(1);
}
if (!file) {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  file = path.join(dir, 'openapi.json');
  const dump = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/openapi-dump.ts', file], { stdio: 'inherit' });
  if (dump.status !== 0) process.exit(dump.status ?? 1);
}
const lint = spawnSync('npx', ['--no-install', 'redocly', 'lint', '--config', 'redocly.yaml', file], {
  stdio: 'inherit',
});
process.exit(lint.status ?? 1);
