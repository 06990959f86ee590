// Sizes of the built web client: the JavaScript the first screen loads (the entry and its static
// imports) and each chunk loaded on demand, raw and gzipped. `--max-first=<KB>` fails above a budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.join('web', 'dist');
const readManifest = () => JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const size = (file) => {
  const bytes = readFileSync(path.join(dist, file));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

/** The chunks a page loads before it runs: the entry and, recursively, its static imports. */
export function firstScreenChunks(manifest = readManifest()) {
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) walk(dep);
  };
  walk(entry);
  return [...seen].map((k) => manifest[k].file);
}

export function sizes() {
  const manifest = readManifest();
  const first = firstScreenChunks(manifest);
  const total = first.map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  const lazy = Object.values(manifest)
    .filter((c) => c.file.endsWith('.js') && !first.includes(c.file) && (c.isDynamicEntry || c.name))
    .map((c) => ({ name: c.name ?? c.file, ...size(c.file) }))
    .sort((a, b) => b.gzip - a.gzip);
  return { first: total, lazy };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve('scripts/web-sizes.mjs')) {
  const { first, lazy } = sizes();
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`first screen JavaScript: ${kb(first.raw)} raw, ${kb(first.gzip)} gzipped`);
  for (const c of lazy.slice(0, 8)) console.log(`  on demand ${c.name}: ${kb(c.raw)} raw, ${kb(c.gzip)} gzipped`);
  const max = process.argv.find((a) => a.startsWith('--max-first='));
  if (max && first.gzip > Number(max.split('=')[1]) * 1024) {
    console.error(
      `the first screen loads ${kb(first.gzip)} of gzipped JavaScript, over the ${max.split('=')[1]} KB budget`,
    );
    process.exit(1);
  }
}
