// Compiles src/ to dist/ with tsc when dist/ is missing or older than the sources. `npm start` and
// `npm run cli` call ensureBuild() first; `npm run build` always builds.
//
// `node scripts/build.mjs --typecheck <report>` (CI) builds dist/ and type-checks everything
// `npm run typecheck` checks in one compile instead of two: one TypeScript program of tsconfig.json
// (src/, test/, bench/, scripts/) with the build's output options, whose src/ files are emitted as
// `npm run build` emits them. The type errors of the whole program go to <report> (empty when there
// are none); like `npm run build`, it fails when a file of src/ has one.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestMtime(p) {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

export function isStale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return inputs.some((p) => existsSync(path.join(root, p)) && newestMtime(path.join(root, p)) > built);
}

export function build() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    throw new Error(
      'dist/ is missing or older than src/, and TypeScript is not installed to build it: run `npm install` (with dev ' +
        'dependencies) or `npm run build` where it is',
    );
  }
  // a clean output: files removed from src/ must not linger in dist/
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  const out = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (out.status !== 0) throw new Error('the TypeScript build failed');
  writeFileSync(stamp, new Date().toISOString() + '\n');
}

export function ensureBuild({ quiet = false } = {}) {
  if (!isStale()) return false;
  if (!quiet) console.error('building dist/ from src/ ...');
  build();
  return true;
}

/**
 * Builds dist/ as build() does and type-checks the whole of tsconfig.json in the same program; writes
 * the type errors to `report` (tsc's own format) and returns how many there are, and how many in src/.
 */
export async function buildAndTypecheck(report) {
  const ts = (await import('typescript')).default;
  const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  const fail = (diagnostics) => {
    throw new Error(ts.formatDiagnostics(diagnostics, formatHost));
  };
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
  const all = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, host);
  const built = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.build.json'), {}, host);
  if (all.errors.length) fail(all.errors);
  if (built.errors.length) fail(built.errors);
  // the build's options (the same checks: tsconfig.build.json extends tsconfig.json and changes
  // only what is written) over every file of tsconfig.json; only the files of src/ are written
  const program = ts.createProgram({ rootNames: all.fileNames, options: built.options });
  const src = path.join(root, 'src') + path.sep;
  const inSrc = (file) => path.resolve(file).startsWith(src);
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    // rootDir is src/ for what is written; the files outside it are only checked
    .filter((d) => d.code !== 6059);
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  for (const file of program.getSourceFiles()) {
    if (!inSrc(file.fileName) || file.isDeclarationFile) continue;
    const emitted = program.emit(file);
    diagnostics.push(...emitted.diagnostics);
  }
  writeFileSync(report, ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), formatHost));
  const inSource = diagnostics.filter((d) => !d.file || inSrc(d.file.fileName)).length;
  if (inSource === 0) writeFileSync(stamp, new Date().toISOString() + '\n');
  return { errors: diagnostics.length, inSource };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--typecheck');
  if (at !== -1) {
    const report = process.argv[at + 1];
    if (!report) {
      console.error('--typecheck needs the file to write the type errors to');
      process.exit(1);
    }
    try {
      const { errors, inSource } = await buildAndTypecheck(path.resolve(report));
      console.log(`dist/ built; ${errors} type errors in the whole program (${report}), ${inSource} of them in src/`);
      if (inSource) {
        console.error(readFileSync(report, 'utf8'));
        process.exit(1);
      }
    } catch (err) {
      console.error(err.message);
      process.exit(1);
    }
    process.exit(0);
  }
  try {
    build();
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
