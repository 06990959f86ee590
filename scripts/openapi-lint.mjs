// Builds the app, writes the served OpenAPI document to a temporary file and lints it with Redocly.
import { spawnSync } from 'node:child_process';
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'openapi.json');
const dump = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/openapi-dump.ts', file], { stdio: 'inherit' });
if (dump.status !== 0) process.exit(dump.status ?? 1);
const lint = spawnSync('npx', ['--no-install', 'redocly', 'lint', '--config', 'redocly.yaml', file], {
  stdio: 'inherit',
});
process.exit(lint.status ?? 1);
