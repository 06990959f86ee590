// The web client's layer rule: components (every .vue file) never talk to the API. They read and
// change data through their feature's store, which calls the feature's api.ts (the typed client).
// Fails, naming file and line, when a component imports the client itself or fetches: from
// web/src/api/client a component may take only the error classes and the idempotency key maker.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ALLOWED_FROM_CLIENT = new Set(['ClientError', 'ApiError', 'idempotencyKey']);
const root = process.argv[2] ?? 'web/src';

function vueFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return vueFiles(full);
    return name.endsWith('.vue') ? [full] : [];
  });
}

const problems = [];
const files = vueFiles(root);
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const text = lines.join('\n');
  const where = (index) => `${file}:${text.slice(0, index).split('\n').length}`;
  for (const m of text.matchAll(/import\s+(type\s+)?([^;]*?)\s+from\s+['"]([^'"]+)['"]/g)) {
    const [, typeOnly, clause, source] = m;
    if (typeOnly) continue;
    if (source === 'openapi-fetch') problems.push(`${where(m.index)}: imports openapi-fetch`);
    if (!/(^|\/)api\/client$/.test(source)) continue;
    const names = /\{([^}]*)\}/.exec(clause)?.[1].split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]).filter(Boolean) ?? [];
    const defaultOrAll = clause.replace(/\{[^}]*\}/, '').replace(/,/g, '').trim();
    for (const name of names) if (!ALLOWED_FROM_CLIENT.has(name) && !/^type\s/.test(name)) problems.push(`${where(m.index)}: imports ${name} from the API client`);
    if (defaultOrAll) problems.push(`${where(m.index)}: imports the API client (${defaultOrAll})`);
  }
  for (const m of text.matchAll(/\b(fetch|XMLHttpRequest|authedFetch)\s*\(/g)) problems.push(`${where(m.index)}: calls ${m[1]}`);
}
if (problems.length) {
  console.error('Components talk to the API only through their feature\'s store (web/src/features/<feature>/{api,store}.ts):');
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`No component calls the API (${files.length} components)`);
