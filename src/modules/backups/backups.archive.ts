import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../../config.ts';
import { fileStore } from '../attachments/index.ts';
import {
  migrationsFolder,
  query,
  runMigrations,
  tableExists,
  type Database,
  type Db,
  type Executor,
  type Tx,
} from '../../db/client.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  BackupLineCheck,
  checkSchemaVersion,
  checkTargetTables,
  isGzip,
  orderByForeignKeys,
  type BackupHeader,
  type BackupSummary,
} from './backups.check.ts';

export { BACKUP_FORMAT, BACKUP_VERSION, BackupError, type BackupHeader, type BackupSummary } from './backups.check.ts';

/**
 * The backup file: a gzip of JSON lines.
 *   line 1     {"format":"ledger-backup","version":1,"schema_version":...,"created_at":...,"tables":[{name,columns}]}
 *   then       {"t":"<table>","r":{<row>}} for every row, table by table in foreign-key-safe order
 *   last line  {"end":true,"rows":{"<table>":<count>}}
 * Values are kept exactly: bytea as base64, timestamps as ISO 8601 with microseconds, 64-bit integers
 * and numerics as strings, calendar dates as YYYY-MM-DD, JSON as JSON; ids are kept.
 */
const BATCH_ROWS = 1000;
const ATTACHMENT_FILES = 'attachment_files';
const INSERT_BATCH_BYTES = 4 * 1024 * 1024;

export interface ColumnInfo {
  name: string;
  /** the type's name in pg_type (int4, timestamptz, bytea, ...) */
  type: string;
  /** identity or serial: its sequence is reset after a restore */
  sequence: boolean;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** primary key columns; empty: rows are paged by their physical position */
  key: string[];
}

interface Journal {
  entries: { tag: string; when: number }[];
}

function journal(): Journal {
  return JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

/** The schema this build expects: the hash of its latest migration, as drizzle records it once applied. */
export function buildSchemaVersion(): { version: string; tag: string | null } {
  const files = readMigrationFiles({ migrationsFolder });
  const last = files[files.length - 1];
  if (!last) throw new Error('no migrations found');
  const tag = journal().entries.find((e) => e.when === last.folderMillis)?.tag ?? null;
  return { version: last.hash, tag };
}

/** The schema a database is at: the latest migration applied to it. */
export async function databaseSchemaVersion(db: Executor): Promise<{ version: string; tag: string | null }> {
  const [row] = await query<{ hash: string; created_at: string | number }>(
    db,
    sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1`,
  );
  if (!row) throw new Error('the database has no applied migrations');
  const tag = journal().entries.find((e) => e.when === Number(row.created_at))?.tag ?? null;
  return { version: row.hash, tag };
}

/** Every table of the public schema with its columns and key, parents before children. */
export async function describeTables(db: Executor): Promise<TableInfo[]> {
  const cols = await query<{ table: string; name: string; type: string; seq: boolean; generated: string }>(
    db,
    sql`select c.relname as "table", a.attname as name, t.typname as type,
               (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false)) as seq,
               a.attgenerated as generated
        from pg_attribute a
        join pg_class c on c.oid = a.attrelid
        join pg_namespace n on n.oid = c.relnamespace
        join pg_type t on t.oid = a.atttypid
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attnum`,
  );
  const keys = await query<{ table: string; name: string }>(
    db,
    sql`select c.relname as "table", a.attname as name
        from pg_index i
        join pg_class c on c.oid = i.indrelid
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where n.nspname = 'public' and i.indisprimary
        order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const fks = await query<{ child: string; parent: string }>(
    db,
    sql`select ch.relname as child, pa.relname as parent
        from pg_constraint k
        join pg_class ch on ch.oid = k.conrelid
        join pg_class pa on pa.oid = k.confrelid
        join pg_namespace n on n.oid = ch.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const tables = new Map<string, TableInfo>();
  for (const c of cols) {
    let t = tables.get(c.table);
    if (!t) tables.set(c.table, (t = { name: c.table, columns: [], key: [] }));
    // generated columns are computed again on insert
    if (c.generated === '' || c.generated === null)
      t.columns.push({ name: c.name, type: c.type, sequence: Boolean(c.seq) });
  }
  for (const k of keys) tables.get(k.table)?.key.push(k.name);

  return orderByForeignKeys(tables, fks);
}

/** The SQL expression that renders one column losslessly into JSON. */
function encodeColumn(col: ColumnInfo): SQL {
  const c = sql`t.${sql.identifier(col.name)}`;
  switch (col.type) {
    case 'bytea':
      return sql`translate(encode(${c}, 'base64'), E'\n', '')`;
    case 'timestamptz':
      return sql`to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
    case 'timestamp':
      return sql`to_char(${c}, 'YYYY-MM-DD"T"HH24:MI:SS.US')`;
    case 'date':
      return sql`to_char(${c}, 'YYYY-MM-DD')`;
    case 'int2':
    case 'int4':
    case 'bool':
    case 'text':
    case 'varchar':
    case 'json':
    case 'jsonb':
      return c;
    default:
      // int8, numeric, floats, times, arrays, anything else: its exact text form, parsed back on restore
      return sql`${c}::text`;
  }
}

/** Reads one table in primary-key order, `BATCH_ROWS` rows at a time; yields the rows as JSON text. */
async function* tableRows(db: Executor, table: TableInfo): AsyncGenerator<string[]> {
  const fields = sql.join(
    table.columns.map((c) => sql`${encodeColumn(c)} as ${sql.identifier(c.name)}`),
    sql`, `,
  );
  const keyCols = table.key.length ? table.key.map((k) => sql`t.${sql.identifier(k)}`) : [sql`t.ctid`];
  const keySelect = sql.join(
    keyCols.map((k, i) => (table.key.length ? sql`${k} as ${sql.identifier(`k${i}`)}` : sql`${k}::text as k0`)),
    sql`, `,
  );
  const order = sql.join(keyCols, sql`, `);
  let last: unknown[] | null = null;
  for (;;) {
    let after = sql``;
    if (last) {
      after = table.key.length
        ? sql`where (${order}) > (${sql.join(
            last.map((v) => sql`${v}`),
            sql`, `,
          )})`
        : sql`where t.ctid > ${last[0]}::tid`;
    }
    const rows = await query<Record<string, unknown> & { r: string }>(
      db,
      sql`select ${keySelect}, (select row_to_json(x) from (select ${fields}) x)::text as r
          from ${sql.identifier(table.name)} t ${after}
          order by ${order}
          limit ${BATCH_ROWS}`,
    );
    if (!rows.length) return;
    yield rows.map((r) => r.r);
    const tail = rows[rows.length - 1]!;
    last = keyCols.map((_, i) => tail[`k${i}`]);
    if (rows.length < BATCH_ROWS) return;
  }
}

/**
 * Writes a backup of every table to `file`, read in one consistent snapshot. The file appears only
 * once complete (written to a temporary name, then renamed). Returns the file's size in bytes.
 */
export async function writeBackup(
  db: Db,
  file: string,
  dataDir?: string,
): Promise<{ size: number; rows: Record<string, number> }> {
  // attached files travel inside their attachment_files rows (`f`, `th`: base64), so that a restore
  // brings back the rows and the files together
  const store = dataDir ? fileStore(dataDir) : null;
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const counts: Record<string, number> = {};
  try {
    await db.transaction(
      async (tx) => {
        const schema = await databaseSchemaVersion(tx);
        const tables = await describeTables(tx);
        const header: BackupHeader = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          schema_version: schema.version,
          schema_tag: schema.tag,
          created_at: new Date().toISOString(),
          tables: tables.map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) })),
        };
        async function* lines() {
          yield JSON.stringify(header) + '\n';
          for (const table of tables) {
            counts[table.name] = 0;
            const prefix = `{"t":${JSON.stringify(table.name)},"r":`;
            for await (const batch of tableRows(tx, table)) {
              counts[table.name]! += batch.length;
              if (store && table.name === ATTACHMENT_FILES) {
                for (const r of batch) yield `${prefix}${r}${await store.backupFields(JSON.parse(r) as Row)}}\n`;
              } else yield batch.map((r) => `${prefix}${r}}\n`).join('');
            }
          }
          yield JSON.stringify({ end: true, rows: counts }) + '\n';
        }
        await pipeline(Readable.from(lines()), createGzip(), createWriteStream(tmp, { flags: 'wx' }));
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  return { size: (await stat(file)).size, rows: counts };
}

type Row = Record<string, unknown>;

/**
 * Streams the lines of a backup file; gzip errors (a truncated or corrupt file) surface as
 * BackupError. Inflated bytes and each line's length are counted: a gzip bomb or a line without
 * end stops at its limit instead of filling memory.
 */
async function* backupLines(
  file: string,
  limits: Pick<UploadLimits, 'backupMaxBytes' | 'backupMaxLineBytes'> = DEFAULT_UPLOAD_LIMITS,
): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  source.on('error', (err) => gunzip.destroy(err));
  const inflated = source.pipe(gunzip);
  let total = 0;
  let pending: Buffer[] = [];
  let pendingLen = 0;
  const line = (part: Buffer) => {
    const bytes = pending.length ? Buffer.concat([...pending, part]) : part;
    pending = [];
    pendingLen = 0;
    const text = bytes.toString('utf8');
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  const tooLong = () => new BackupError(`a line of the file is longer than ${limits.backupMaxLineBytes} bytes`);
  try {
    for await (const chunk of inflated as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limits.backupMaxBytes)
        throw new BackupError(`the file inflates past ${limits.backupMaxBytes} bytes (BACKUP_MAX_INFLATED_MB)`);
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        if (pendingLen + nl - start > limits.backupMaxLineBytes) throw tooLong();
        yield line(chunk.subarray(start, nl));
        start = nl + 1;
      }
      if (start < chunk.length) {
        pendingLen += chunk.length - start;
        if (pendingLen > limits.backupMaxLineBytes) throw tooLong();
        pending.push(chunk.subarray(start));
      }
    }
    if (pendingLen) yield line(Buffer.alloc(0));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code?.startsWith('Z_') || /unexpected end of file|incorrect header check/i.test(e.message)) {
      throw new BackupError(`the file is truncated or corrupt (${e.message})`);
    }
    throw err;
  } finally {
    gunzip.destroy();
    source.destroy();
  }
}

/**
 * Reads the whole file once and checks it: gzip, our format and version, every line well formed,
 * tables in the header's order, and the trailer present with the row counts actually found.
 */
export async function inspectBackup(
  file: string,
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<BackupSummary> {
  const fh = await open(file, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new BackupError(`cannot read ${file}: ${err.code ?? err.message}`);
  });
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await fh.read(magic, 0, 2, 0);
    if (!isGzip(magic.subarray(0, bytesRead))) throw new BackupError('not a gzip file');
  } finally {
    await fh.close();
  }
  const check = new BackupLineCheck();
  for await (const line of backupLines(file, limits)) check.line(line);
  return check.finish();
}

function toHex(base64: unknown): unknown {
  return typeof base64 === 'string' ? `\\x${Buffer.from(base64, 'base64').toString('hex')}` : base64;
}

/**
 * Restores a backup into an empty database (embedded or PostgreSQL). Refuses, before changing
 * anything, a file that is not a complete backup of this build's schema, and a database that holds
 * any user. Then migrates and inserts every row in one transaction, and resets the id sequences.
 */
export async function restoreBackup(
  database: Database,
  file: string,
  log: (msg: string) => void = () => {},
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
  dataDir?: string,
): Promise<BackupSummary> {
  const summary = await inspectBackup(file, limits);
  const store = dataDir ? fileStore(dataDir) : null;
  checkSchemaVersion(summary.header, buildSchemaVersion());
  const db = database.db;
  await refuseUnlessEmpty(db);
  log(
    `backup of ${summary.header.created_at}: ${Object.values(summary.rows).reduce((a, b) => a + b, 0)} rows in ${summary.header.tables.length} tables`,
  );

  await runMigrations(database);
  const target = new Map((await describeTables(db)).map((t) => [t.name, t]));
  checkTargetTables(summary.header, target);

  await db.transaction(async (tx) => {
    // an empty database may still hold rows written at start-up (system settings): the backup's replace them
    for (const t of [...target.values()].reverse()) await tx.execute(sql`delete from ${sql.identifier(t.name)}`);
    await insertRows(tx, { file, limits, header: summary.header, target, store });
    await resetSequences(tx, target);
    await settlePendingBackups(tx, file);
  });
  log(
    `restored ${Object.entries(summary.rows)
      .map(([t, c]) => `${t} ${c}`)
      .join(', ')}`,
  );
  return summary;
}

/** A database that holds any user is not restored into. */
async function refuseUnlessEmpty(db: Db): Promise<void> {
  if (!(await tableExists(db, 'users'))) return;
  const [row] = await query<{ any: boolean }>(db, sql`select exists (select 1 from users) as any`);
  if (row?.any)
    throw new BackupError('the target database is not empty (it has users); restore only into an empty database');
}

/** Where the rows of a checked backup file go. */
interface RestoreSource {
  file: string;
  limits: UploadLimits;
  header: BackupHeader;
  target: Map<string, TableInfo>;
  /** the attachment store, whose files the rows of attachment_files bring back; none without a data folder */
  store: ReturnType<typeof fileStore> | null;
}

/** The table being inserted into, the columns the backup has of it, and those of them that are bytea. */
interface TableInsert {
  table: TableInfo;
  columns: string[];
  bytea: string[];
}

/**
 * Inserts the rows of the file, table by table, in batches of BATCH_ROWS rows or INSERT_BATCH_BYTES
 * bytes of JSON, each batch one statement; bytea values go in as hex, attachment files are written back.
 */
async function insertRows(tx: Tx, source: RestoreSource): Promise<void> {
  const { file, limits, header, target, store } = source;
  let current: TableInsert | null = null;
  let batch: Row[] = [];
  let bytes = 0;
  const flush = async () => {
    if (current && batch.length) await insertBatch(tx, current, batch);
    batch = [];
    bytes = 0;
  };
  let first = true;
  for await (const line of backupLines(file, limits)) {
    if (first) {
      first = false;
      continue;
    }
    if (line.trim() === '') continue;
    const obj = JSON.parse(line) as Row;
    if (obj.end === true) break;
    const name = obj.t as string;
    if (current?.table.name !== name) {
      await flush();
      current = tableInsert(target.get(name)!, header.tables.find((t) => t.name === name)!.columns);
    }
    const row = obj.r as Row;
    if (store && name === ATTACHMENT_FILES) await store.restoreFields(row, obj);
    for (const c of current.bytea) row[c] = toHex(row[c]);
    batch.push(row);
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= INSERT_BATCH_BYTES) await flush();
  }
  await flush();
}

function tableInsert(table: TableInfo, columns: string[]): TableInsert {
  const bytea = table.columns.filter((c) => c.type === 'bytea' && columns.includes(c.name)).map((c) => c.name);
  return { table, columns, bytea };
}

async function insertBatch(tx: Tx, into: TableInsert, batch: Row[]): Promise<void> {
  const cols = sql.join(
    into.columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  await tx.execute(
    sql`insert into ${sql.identifier(into.table.name)} (${cols}) overriding system value
        select ${cols} from json_populate_recordset(null::${sql.identifier(into.table.name)}, ${JSON.stringify(batch)}::json)`,
  );
}

/** Each id sequence continues after the largest id restored (or starts afresh on an empty table). */
async function resetSequences(tx: Tx, target: Map<string, TableInfo>): Promise<void> {
  for (const t of target.values()) {
    for (const c of t.columns.filter((x) => x.sequence)) {
      const qualified = `public.${JSON.stringify(t.name)}`;
      await tx.execute(
        sql`select setval(pg_get_serial_sequence(${qualified}, ${c.name}),
                          coalesce((select max(${sql.identifier(c.name)}) from ${sql.identifier(t.name)}), 1),
                          (select max(${sql.identifier(c.name)}) from ${sql.identifier(t.name)}) is not null)`,
      );
    }
  }
}

/**
 * The copy was taken while its own row (and maybe others) said "pending": the row of the file
 * being restored is complete by definition, any other was cut off in the source.
 */
async function settlePendingBackups(tx: Tx, file: string): Promise<void> {
  const fileName = path.basename(file);
  const size = (await stat(file)).size;
  await tx.execute(
    sql`update backups set
          status = case when name || '.json.gz' = ${fileName} then 'completed' else 'failed' end,
          size = case when name || '.json.gz' = ${fileName} then ${size} else size end,
          error = case when name || '.json.gz' = ${fileName} then null else 'interrupted: it was still being written when this backup was taken' end,
          completed_at = coalesce(completed_at, now())
        where status = 'pending'`,
  );
}
