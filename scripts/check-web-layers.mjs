// The web client's layer rules, checked on every .vue and .ts file under web/src (or the folder given):
// - components (every .vue file) never talk to the API. They read and change data through their
//   feature's store, which calls the feature's api.ts (the typed client). From web/src/api/client a
//   component may take only the error classes and the idempotency key maker; it imports no api.ts
//   (types alone excepted), directly or through a feature's face, and never fetches;
// - a feature (web/src/features/<name>/) is used by other features through its face, index.ts, only:
//   never its components, store, api.ts or helpers directly.
// - a .vue file's lines are at most 120 columns, as ESLint's max-len holds the .ts files (it does not
//   read .vue files here); a line holding a string or an attribute value is let through, as there.
// Fails naming file and line. The shell (App.vue, router.ts, main.ts, early.ts, entry-server.ts, stores/)
// may still load a feature's screens and helpers directly: its routes load each screen on demand.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ALLOWED_FROM_CLIENT = new Set(['ClientError', 'ApiError', 'idempotencyKey']);
const MAX_LINE = 120;
const HOLDS_STRING = /'[^']*'|"[^"]*"|`[^`]*`/;
const root = process.argv[2] ?? 'web/src';
const featuresDir = path.resolve(root, 'features');

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(vue|ts)$/.test(name) && !/\.(spec|test)\.ts$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** the feature a path is in (web/src/features/<name>/...), or null */
function featureOf(file) {
  const rel = path.relative(featuresDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

/** whether an import of `target` (resolved, without extension) names the face of `feature` */
function isFace(target, feature) {
  const dir = path.join(featuresDir, feature);
  return target === dir || target === path.join(dir, 'index') || target === path.join(dir, 'index.ts');
}

/** the names a feature's face re-exports from an api.ts: a component importing one calls the API */
const faceApiNames = new Map();
function apiNamesOf(feature) {
  if (faceApiNames.has(feature)) return faceApiNames.get(feature);
  const names = new Set();
  const face = path.join(featuresDir, feature, 'index.ts');
  if (existsSync(face)) {
    const text = readFileSync(face, 'utf8');
    for (const m of text.matchAll(/export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+['"](\.\/api(?:\.ts)?)['"]/g)) {
      if (m[1]) continue;
      if (m[2] === '*') names.add('*');
      else for (const n of namesIn(m[2])) if (!n.type) names.add(n.exported);
    }
  }
  faceApiNames.set(feature, names);
  return names;
}

/** `{ a, type B, c as d }` -> [{ name: 'a', exported: 'a', type: false }, ...] */
function namesIn(braces) {
  return braces
    .replace(/[{}]/g, '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .map((n) => {
      const type = /^type\s/.test(n);
      const [name, alias] = n.replace(/^type\s+/, '').split(/\s+as\s+/);
      return { name, exported: alias ?? name, type };
    });
}

const problems = [];
const files = sourceFiles(root);
let components = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const isComponent = file.endsWith('.vue');
  if (isComponent) components++;
  const feature = featureOf(file);
  const where = (index) => `${file}:${text.slice(0, index).split('\n').length}`;
  const imports = [
    ...[...text.matchAll(/(?:import|export)\s+(type\s+)?([^;'"]*?)\s+from\s+['"]([^'"]+)['"]/g)].map((m) => ({
      index: m.index,
      typeOnly: Boolean(m[1]),
      clause: m[2],
      source: m[3],
    })),
    ...[...text.matchAll(/import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g)].map((m) => ({
      index: m.index,
      typeOnly: false,
      clause: '',
      source: m[1] ?? m[2],
    })),
  ];
  for (const { index, typeOnly, clause, source } of imports) {
    const names = /\{([^}]*)\}/.exec(clause) ? namesIn(/\{[^}]*\}/.exec(clause)[0]) : [];
    const defaultOrAll = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, '')
      .trim();
    const values = typeOnly ? [] : names.filter((n) => !n.type);
    const target = source.startsWith('.') ? path.resolve(path.dirname(file), source).replace(/\.ts$/, '') : null;
    // the feature a relative import lands in (path.join: the folder itself counts as inside)
    const targetFeature = target && featureOf(path.join(target, 'x'));

    if (isComponent && !typeOnly) {
      if (source === 'openapi-fetch') problems.push(`${where(index)}: imports openapi-fetch`);
      if (/(^|\/)api\/client$/.test(source)) {
        for (const n of values)
          if (!ALLOWED_FROM_CLIENT.has(n.name)) problems.push(`${where(index)}: imports ${n.name} from the API client`);
        if (defaultOrAll) problems.push(`${where(index)}: imports the API client (${defaultOrAll})`);
      } else if (targetFeature && /(^|[\\/])api$/.test(target) && (values.length || defaultOrAll)) {
        problems.push(`${where(index)}: imports ${path.relative(root, target)}.ts (a component calls its store)`);
      } else if (targetFeature && isFace(target, targetFeature)) {
        const api = apiNamesOf(targetFeature);
        for (const n of values)
          if (api.has(n.name) || api.has('*'))
            problems.push(`${where(index)}: imports ${n.name}, an API call of the ${targetFeature} face`);
      }
    }

    if (feature && targetFeature && targetFeature !== feature && !isFace(target, targetFeature))
      problems.push(
        `${where(index)}: reaches into the ${targetFeature} feature (${source}): ` +
          `import its face, features/${targetFeature}/index.ts`,
      );
  }
  if (isComponent) {
    for (const m of text.matchAll(/\b(fetch|XMLHttpRequest|authedFetch)\s*\(/g))
      problems.push(`${where(m.index)}: calls ${m[1]}`);
    text.split('\n').forEach((line, i) => {
      if (line.length > MAX_LINE && !HOLDS_STRING.test(line))
        problems.push(`${file}:${i + 1}: ${line.length} columns, more than ${MAX_LINE}`);
    });
  }
}
if (problems.length) {
  console.error(
    "Components talk to the API only through their feature's store (web/src/features/<feature>/{api,store}.ts), " +
      `features use each other through their face (index.ts), and .vue lines stay within ${MAX_LINE} columns:`,
  );
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(
  `No component calls the API, no feature reaches into another (${components} components, ${files.length} files)`,
);
