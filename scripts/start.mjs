// `npm start` and `npm run cli`: compile src/ to dist/ when it is missing or stale, then run the
// compiled entry (server by default, `cli` for the command line) in this same process, so that
// signals reach the server directly.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './build.mjs';
import { ensureWebBuild } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entries = { server: 'dist/server.js', cli: 'dist/cli.js' };
const name = process.argv[2] && process.argv[2] in entries ? process.argv.splice(2, 1)[0] : 'server';

try {
  ensureBuild({ quiet: name === 'cli' });
  // the server serves web/dist: build the web client too when it is missing or stale
  if (name === 'server') await ensureWebBuild();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
await import(pathToFileURL(path.join(root, entries[name])).href);
