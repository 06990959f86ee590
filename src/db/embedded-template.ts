import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

/**
 * A fresh embedded database costs seconds of `initdb` under WebAssembly, then the migrations. Both
 * give the same files every time for one PGlite version and one set of migrations, so they are
 * done once per installation (`npm run db:template`, run after `npm ci`) into a compressed copy of
 * the data folder, and a fresh data folder (and every in-memory test database) starts from it.
 * Without the template everything still works, only slower.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const migrationsFolder = path.join(root, 'migrations');

/** what the template depends on: the PGlite build and every migration file */
export function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json')));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );
  for (const file of files(migrationsFolder).sort())
    hash.update(path.relative(migrationsFolder, file)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** what the blank template depends on: the PGlite build only */
function blankKey(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}

/** an initialised, unmigrated cluster (what `initdb` makes): a restore target, a migration's starting point */
export function blankTemplatePath(): string {
  return path.join(root, 'node_modules/.cache/ledger', `pglite-blank-${blankKey()}.tar.gz`);
}

export function templatePath(): string {
  return path.join(root, 'node_modules/.cache/ledger', `pglite-${templateKey()}.tar.gz`);
}

/** the same template as a data folder, copied with the file system's own speed into a new data folder */
export function templateDir(): string {
  return path.join(root, 'node_modules/.cache/ledger', `pglite-${templateKey()}`);
}

/**
 * Fills an empty data folder from the template folder; false when there is none (or the copy
 * failed: the folder is then left empty for a normal initialisation).
 */
export function copyTemplateInto(dataDir: string): boolean {
  const source = templateDir();
  if (!existsSync(path.join(source, 'PG_VERSION'))) return false;
  try {
    cpSync(source, dataDir, { recursive: true });
    return true;
  } catch {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    return false;
  }
}

/** the template of this installation, or null when it was never built (or the migrations changed since) */
export function loadTemplate(): Blob | null {
  return loadFile(templatePath());
}

/** the blank cluster of this installation's PGlite, or null when it was never built */
export function loadBlankTemplate(): Blob | null {
  return loadFile(blankTemplatePath());
}

function loadFile(file: string): Blob | null {
  try {
    return existsSync(file) ? new Blob([readFileSync(file)]) : null;
  } catch {
    return null;
  }
}

/**
 * Builds the template: a migrated, empty database, kept as a data folder (for new data folders)
 * and as a gzipped tar of it (for databases in memory); and, once per PGlite build, the blank
 * cluster before the migrations, as a gzipped tar.
 */
export async function writeTemplate(): Promise<string> {
  const file = templatePath();
  const dir = templateDir();
  mkdirSync(path.dirname(file), { recursive: true });
  const suffix = `.${randomBytes(4).toString('hex')}.tmp`;
  const work = `${dir}${suffix}`;
  const client = new PGlite(work);
  await client.waitReady;
  try {
    // the cluster as initdb left it, before any migration (blank databases start from it)
    const blank = blankTemplatePath();
    if (!existsSync(blank)) {
      writeFileSync(`${blank}${suffix}`, Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer()));
      renameSync(`${blank}${suffix}`, blank);
    }
    await migrate(drizzle(client), { migrationsFolder });
    const dump = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
    writeFileSync(`${file}${suffix}`, dump);
    renameSync(`${file}${suffix}`, file);
  } finally {
    await client.close();
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return file;
}
