/*
 * Checks on a backup file's content that need neither the file system nor a database: the
 * header, each line, the end marker and its counts, the schema it was taken at, and the tables a
 * restore needs. `backups.archive.ts` feeds them the lines it reads and the tables it finds.
 */

export const BACKUP_FORMAT = 'ledger-backup';
export const BACKUP_VERSION = 1;

/** A backup file that cannot be restored here; the message says why. Nothing was changed. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupHeader {
  format: string;
  version: number;
  schema_version: string;
  schema_tag: string | null;
  created_at: string;
  tables: { name: string; columns: string[] }[];
}

export interface BackupSummary {
  header: BackupHeader;
  rows: Record<string, number>;
}

type Row = Record<string, unknown>;

/** Whether bytes start with the gzip magic number. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** One line of the file as a JSON object; `n` is its 1-based line number, for the message. */
export function parseLine(line: string, n: number): Row {
  try {
    const v = JSON.parse(line) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Row;
  } catch {
    // reported below
  }
  throw new BackupError(`line ${n} is not a JSON object`);
}

function checkHeader(h: Row): BackupHeader {
  if (h.format !== BACKUP_FORMAT) throw new BackupError('not a ledger backup');
  if (h.version !== BACKUP_VERSION)
    throw new BackupError(`backup format version ${String(h.version)} is not supported (expected ${BACKUP_VERSION})`);
  if (typeof h.schema_version !== 'string' || !Array.isArray(h.tables))
    throw new BackupError('the backup header is incomplete');
  for (const t of h.tables as unknown[]) {
    const ok = t && typeof t === 'object' && typeof (t as Row).name === 'string' && Array.isArray((t as Row).columns);
    if (!ok) throw new BackupError('the backup header lists a malformed table');
  }
  return h as unknown as BackupHeader;
}

/**
 * Reads a backup's lines in order and checks them: our format and version, every line well
 * formed, tables in the header's order, and the end marker present with the row counts actually
 * found. `line()` throws BackupError at the first problem; `finish()` at the end of the file.
 */
export class BackupLineCheck {
  private header: BackupHeader | null = null;
  private trailer: Row | null = null;
  private readonly counts: Record<string, number> = {};
  private tableIndex = -1;
  private n = 0;

  line(line: string): void {
    const n = ++this.n;
    if (this.trailer) {
      if (line.trim() === '') return;
      throw new BackupError(`line ${n} follows the end marker`);
    }
    if (!this.header) {
      let h: Row;
      try {
        h = parseLine(line, n);
      } catch {
        throw new BackupError('not a ledger backup (no header line)');
      }
      this.header = checkHeader(h);
      for (const t of this.header.tables) this.counts[t.name] = 0;
      return;
    }
    const obj = parseLine(line, n);
    if (obj.end === true) {
      this.trailer = obj;
      return;
    }
    const t = obj.t;
    if (typeof t !== 'string' || !obj.r || typeof obj.r !== 'object' || Array.isArray(obj.r))
      throw new BackupError(`line ${n} is not a table row`);
    const idx = this.header.tables.findIndex((x) => x.name === t);
    if (idx < 0) throw new BackupError(`line ${n} belongs to table "${t}", which the header does not list`);
    if (idx < this.tableIndex) throw new BackupError(`line ${n}: rows of "${t}" are out of order`);
    this.tableIndex = idx;
    this.counts[t]!++;
  }

  finish(): BackupSummary {
    const { header, trailer, counts } = this;
    if (!header) throw new BackupError('the file is empty');
    if (!trailer) throw new BackupError('the file is truncated (no end marker)');
    const declared = (trailer.rows ?? {}) as Record<string, unknown>;
    for (const t of header.tables) {
      if (declared[t.name] !== counts[t.name]) {
        throw new BackupError(
          `table "${t.name}" holds ${counts[t.name]} rows but the end marker says ${String(declared[t.name])}`,
        );
      }
    }
    return { header, rows: { ...counts } };
  }
}

/** Refuses a backup taken at another schema than this build's (its latest migration). */
export function checkSchemaVersion(
  header: Pick<BackupHeader, 'schema_version' | 'schema_tag'>,
  build: { version: string; tag: string | null },
): void {
  if (header.schema_version !== build.version) {
    throw new BackupError(
      `the backup's schema (${header.schema_tag ?? '?'} ${header.schema_version.slice(0, 12)}) differs from this build's (${build.tag ?? '?'} ${build.version.slice(0, 12)})`,
    );
  }
}

/** Refuses a backup naming a table or column the target database does not have. */
export function checkTargetTables(
  header: Pick<BackupHeader, 'tables'>,
  target: ReadonlyMap<string, { columns: { name: string }[] }>,
): void {
  for (const t of header.tables) {
    const info = target.get(t.name);
    if (!info) throw new BackupError(`table "${t.name}" does not exist in this database`);
    const missing = t.columns.filter((c) => !info.columns.some((x) => x.name === c));
    if (missing.length) throw new BackupError(`table "${t.name}" has no column ${missing.join(', ')}`);
  }
}

/**
 * Tables with every parent (a table it references by foreign key) before it; alphabetical where
 * the keys leave a choice. A table referencing itself only depends on itself; a cycle is an error.
 */
export function orderByForeignKeys<T>(tables: ReadonlyMap<string, T>, fks: { child: string; parent: string }[]): T[] {
  const parents = new Map<string, Set<string>>([...tables.keys()].map((n) => [n, new Set<string>()]));
  for (const fk of fks) if (fk.child !== fk.parent && tables.has(fk.parent)) parents.get(fk.child)?.add(fk.parent);
  const ordered: T[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (done.has(name)) return;
    if (visiting.has(name)) throw new Error(`foreign keys form a cycle through ${name}`);
    visiting.add(name);
    for (const p of [...parents.get(name)!].sort()) visit(p);
    visiting.delete(name);
    done.add(name);
    ordered.push(tables.get(name)!);
  };
  for (const name of [...tables.keys()].sort()) visit(name);
  return ordered;
}
