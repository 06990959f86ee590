import { and, asc, eq, lt, Param, sql, type SQL } from 'drizzle-orm';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { query, type Executor } from '../../db/client.ts';
import type { AccountType } from '../../lib/domain.ts';
import { creatingMethods, fileCategories, nameMatch, type FileCategory } from './bills.names.repo.ts';
import {
  accounts,
  categories,
  importAccountMaps,
  importPresets,
  importRules,
  importSessionRows,
  importSessions,
} from '../../db/schema/index.ts';

// ---- sessions ----

export type NameMatch = 'exact' | 'similar' | 'chosen' | 'create';
export interface MethodOut {
  method: string;
  account_id: number | null;
  rows: number;
  match: NameMatch | null;
  create: { type: AccountType } | null;
}

export type SessionRow = typeof importSessions.$inferSelect;
export type PreviewRow = typeof importSessionRows.$inferSelect;
export type PreviewRowInsert = typeof importSessionRows.$inferInsert;

export async function insertSession(db: Executor, v: typeof importSessions.$inferInsert): Promise<SessionRow> {
  const [row] = await db.insert(importSessions).values(v).returning();
  return row!;
}

export async function findOwnSession(
  db: Executor,
  userId: number,
  id: number,
  now: Date,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(importSessions)
    .where(
      and(
        eq(importSessions.id, id),
        eq(importSessions.userId, userId),
        sql`${importSessions.expiresAt} > ${now.toISOString()}::timestamptz`,
      ),
    );
  return row;
}

export async function lockOwnSession(tx: Executor, userId: number, id: number): Promise<SessionRow | undefined> {
  const rows = await query<{ id: number }>(
    tx,
    sql`select id from import_sessions where id = ${id} and user_id = ${userId} for update`,
  );
  if (!rows.length) return undefined;
  const [row] = await tx.select().from(importSessions).where(eq(importSessions.id, id));
  return row;
}

export async function updateSession(
  db: Executor,
  id: number,
  v: Partial<typeof importSessions.$inferInsert>,
): Promise<void> {
  await db.update(importSessions).set(v).where(eq(importSessions.id, id));
}

export async function deleteSession(db: Executor, id: number): Promise<void> {
  await db.delete(importSessions).where(eq(importSessions.id, id));
}

export async function purgeExpired(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .delete(importSessions)
    .where(lt(importSessions.expiresAt, now))
    .returning({ id: importSessions.id });
  return rows.length;
}

const ROW_COLUMNS = `session_id, row, date, kind, amount_cents, counterparty, note, external_id, method, to_method, account_id, to_account_id,
  category_id, category_name, tags, group_id, original_created_at, decision, reason, refund, existing_id, type`;

/**
 * The PostgreSQL pool behind a handle outside a transaction (COPY needs a connection of its own); null on the embedded
 * database.
 */
function poolOf(db: Executor): pg.Pool | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}

/** A value in COPY's text format: \N for null, backslash escapes for the characters that end a field or a line. */
function copyText(v: string | null): string {
  if (v === null) return '\\N';
  return /[\\\t\n\r]/.test(v)
    ? v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : v;
}

const copyNum = (v: number | null | undefined) => (v === null || v === undefined ? '\\N' : String(v));

/**
 * COPY text is handed over in pieces of about this many characters: a batch as one string (a
 * megabyte of text) would be a large object, kept by the heap until its next full collection,
 * where a piece is young and gone at the next scavenge.
 */
const COPY_PIECE = 16 * 1024;

/** One batch as COPY text lines, in the order of ROW_COLUMNS, in pieces of whole lines. */
function copyPieces(sessionId: number, rows: PreviewRowInsert[]): string[] {
  const pieces: string[] = [];
  let out = '';
  for (const r of rows) {
    if (out.length >= COPY_PIECE) {
      pieces.push(out);
      out = '';
    }
    const created = r.originalCreatedAt
      ? r.originalCreatedAt instanceof Date
        ? r.originalCreatedAt.toISOString()
        : String(r.originalCreatedAt)
      : null;
    out +=
      `${sessionId}\t${r.row}\t${r.date}\t${r.kind}\t${r.amountMinor}\t${copyText(r.counterparty ?? '')}\t${copyText(r.note ?? '')}\t${copyText(r.externalId ?? null)}\t` +
      `${copyText(r.method ?? '')}\t${copyText(r.toMethod ?? null)}\t${copyNum(r.accountId)}\t${copyNum(r.toAccountId)}\t${copyNum(r.categoryId)}\t` +
      `${copyText(r.categoryName ?? null)}\t${copyText(JSON.stringify(r.tags ?? []))}\t${copyNum(r.groupId)}\t${copyText(created)}\t${r.decision}\t` +
      `${copyText(r.reason ?? null)}\t${r.refund ? 't' : 'f'}\t${copyNum(r.existingId)}\t${copyText(r.type ?? '')}\n`;
  }
  if (out) pieces.push(out);
  return pieces;
}

/**
 * Stores a batch of preview rows on the embedded database: one multi-row insert, each column sent as one array
 * (PostgreSQL: rowSink's COPY).
 */
async function insertRows(db: Executor, sessionId: number, rows: PreviewRowInsert[]): Promise<void> {
  if (!rows.length) return;
  const col = <T>(f: (r: PreviewRowInsert) => T) => new Param(rows.map(f));
  await query(
    db,
    sql`insert into import_session_rows (${sql.raw(ROW_COLUMNS)})
        select ${sessionId}::int, k.* from unnest(
          ${col((r) => r.row)}::int[], ${col((r) => r.date)}::date[], ${col((r) => r.kind)}::text[], ${col((r) => r.amountMinor)}::bigint[],
          ${col((r) => r.counterparty ?? '')}::text[], ${col((r) => r.note ?? '')}::text[], ${col((r) => r.externalId ?? null)}::text[],
          ${col((r) => r.method ?? '')}::text[], ${col((r) => r.toMethod ?? null)}::text[], ${col((r) => r.accountId ?? null)}::int[],
          ${col((r) => r.toAccountId ?? null)}::int[], ${col((r) => r.categoryId ?? null)}::int[], ${col((r) => r.categoryName ?? null)}::text[],
          ${col((r) => JSON.stringify(r.tags ?? []))}::jsonb[], ${col((r) => r.groupId ?? null)}::int[],
          ${col((r) => r.originalCreatedAt ?? null)}::timestamptz[], ${col((r) => r.decision)}::text[], ${col((r) => r.reason ?? null)}::text[],
          ${col((r) => r.refund ?? false)}::boolean[], ${col((r) => r.existingId ?? null)}::int[], ${col((r) => r.type ?? '')}::text[]) as k`,
  );
}

/** Where a preview's rows go as they are decided, batch by batch. */
export interface RowSink {
  /** stores a batch; resolves when the next one may be sent */
  write(rows: PreviewRowInsert[]): Promise<void>;
  /** every batch stored: resolves once the rows are in the table */
  end(): Promise<void>;
  /** the read failed: nothing sent is kept */
  abort(): Promise<void>;
}

/**
 * The rows of one preview, stored as the bill is read. On PostgreSQL one COPY for the whole bill on
 * a connection of its own, each batch written into it as soon as it is decided (no statement, no
 * round trip and no wait per batch; the rows appear together when it ends, or not at all). On the
 * embedded database each batch is one insert.
 */
export function rowSink(db: Executor, sessionId: number): RowSink {
  const pool = poolOf(db);
  if (!pool) return { write: (rows) => insertRows(db, sessionId, rows), end: async () => {}, abort: async () => {} };
  let opened: Promise<{ client: pg.PoolClient; copy: ReturnType<typeof copyFrom>; done: Promise<void> }> | null = null;
  let released = false;
  const open = () =>
    (opened ??= pool.connect().then((client) => {
      const copy = client.query(copyFrom(`copy import_session_rows (${ROW_COLUMNS}) from stdin`));
      const done = finished(copy);
      done.catch(() => {});
      return { client, copy, done };
    }));
  return {
    async write(rows) {
      if (!rows.length) return;
      const { copy, done } = await open();
      // a failed COPY ends the wait with its error (done rejects); a full socket buffer, with its drain
      let room = true;
      for (const piece of copyPieces(sessionId, rows)) room = copy.write(piece);
      if (!room) await Promise.race([once(copy, 'drain'), done]);
    },
    async end() {
      if (!opened) return;
      const { client, copy, done } = await opened;
      copy.end();
      released = true;
      try {
        await done;
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      client.release();
    },
    async abort() {
      if (!opened || released) return;
      released = true;
      const got = await opened.catch(() => null);
      if (!got) return;
      // CopyFail: the server drops what it received; the connection is closed rather than reused
      got.copy.destroy(new Error('the bill was not read to its end'));
      await got.done.catch(() => {});
      got.client.release(true);
    },
  };
}

/**
 * Refreshes the planner's statistics of the session rows after a large bill: set-based statements
 * over a session (the commit's insert, its duplicate passes) would otherwise be planned for the few
 * rows the table held before, as nested loops that grow with the square of the bill. The table's
 * size is counted whatever the columns; statistics are gathered for the columns those statements
 * select and join on only (the free text columns, sorted for their statistics, cost most of the
 * whole table's analysis and are never a condition).
 */
export async function analyzeRows(db: Executor): Promise<void> {
  await query(db, sql`analyze import_session_rows (session_id, row, decision, external_id, refund_of_row)`);
}

export async function listRows(
  db: Executor,
  sessionId: number,
  opts: { offset: number; limit: number; decision?: string },
): Promise<{ rows: PreviewRow[]; total: number }> {
  const where = and(
    eq(importSessionRows.sessionId, sessionId),
    opts.decision ? eq(importSessionRows.decision, opts.decision as PreviewRow['decision']) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(importSessionRows)
      .where(where)
      .orderBy(asc(importSessionRows.row))
      .offset(opts.offset)
      .limit(opts.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(importSessionRows)
      .where(where),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function allRows(db: Executor, sessionId: number): Promise<PreviewRow[]> {
  return db
    .select()
    .from(importSessionRows)
    .where(eq(importSessionRows.sessionId, sessionId))
    .orderBy(asc(importSessionRows.row));
}

export async function rowsByNumber(db: Executor, sessionId: number, rows: number[]): Promise<PreviewRow[]> {
  if (!rows.length) return [];
  return query<PreviewRow>(
    db,
    sql`select session_id as "sessionId", row, kind, decision, reason, external_id as "externalId", existing_id as "existingId", method, refund,
               counterparty, note
        from import_session_rows where session_id = ${sessionId} and row = any(${new Param(rows)}::int[])`,
  );
}

/** How many rows the session has. */
export async function countRows(db: Executor, sessionId: number): Promise<number> {
  const [row] = await query<{ n: number }>(
    db,
    sql`select count(*)::int as n from import_session_rows where session_id = ${sessionId}`,
  );
  return Number(row?.n ?? 0);
}

export interface Summary {
  total: number;
  import: number;
  duplicate: number;
  skip: number;
  transfer: number;
  expense_cents: number;
  income_cents: number;
  methods: MethodOut[];
  categories: FileCategory[];
  undecided: { rows: number; category: number; account: number };
}

/** rows to book that still lack a category (kept names of our own export are created at commit) */
const NO_CATEGORY = sql`decision = 'import' and kind <> 'transfer' and category_id is null and category_name is null`;
/** rows to book an account of which is still missing (one the file names and that is to be created is not) */
const noAccount = (sessionId: number) =>
  sql`decision in ('import', 'transfer') and ((account_id is null and method not in ${creatingMethods(sessionId)})
      or (decision = 'transfer' and to_account_id is null and coalesce(to_method, '') not in ${creatingMethods(sessionId)}))`;

export async function summary(db: Executor, sessionId: number): Promise<Summary> {
  const [counts] = await query<Record<string, string | number>>(
    db,
    sql`select count(*) as total,
          count(*) filter (where decision = 'import') as import,
          count(*) filter (where decision = 'duplicate') as duplicate,
          count(*) filter (where decision = 'skip') as skip,
          count(*) filter (where decision = 'transfer') as transfer,
          coalesce(sum(case when refund and (refund_of_id is not null or refund_of_row is not null) then -amount_cents else amount_cents end)
            filter (where decision = 'import' and kind = 'expense'), 0) as expense_cents,
          coalesce(sum(amount_cents) filter (where decision = 'import' and kind = 'income'), 0) as income_cents,
          count(*) filter (where ${NO_CATEGORY} or ${noAccount(sessionId)}) as undecided,
          count(*) filter (where ${NO_CATEGORY}) as no_category,
          count(*) filter (where ${noAccount(sessionId)}) as no_account
        from import_session_rows where session_id = ${sessionId}`,
  );
  const methods = await query<{
    method: string;
    account_id: number | null;
    rows: number;
    match: NameMatch | null;
    create_type: AccountType | null;
  }>(
    db,
    // a method still lacking its account on a row to book has none yet, whatever other rows were given
    sql`select g.method, g.account_id, g.rows, cr.type as create_type,
               case when g.account_id is null then case when cr.type is not null then 'create' end
                    else ${nameMatch(sql`a.name`, sql`g.method`)} end as match
        from (select m.method, case when bool_or(m.open) then null else min(m.account_id) end as account_id, count(*)::int as rows from (
          select method, account_id, account_id is null and decision in ('import', 'transfer') as open
            from import_session_rows where session_id = ${sessionId} and method <> ''
          union all
          select to_method, to_account_id, false from import_session_rows where session_id = ${sessionId} and to_method is not null and to_method <> ''
        ) m group by m.method order by count(*) desc, m.method limit 100) g
        left join accounts a on a.id = g.account_id
        left join lateral (select s.result -> 'create_accounts' ->> g.method as type from import_sessions s where s.id = ${sessionId}) cr on true
        order by g.rows desc, g.method`,
  );
  const n = (k: string) => Number(counts?.[k] ?? 0);
  return {
    total: n('total'),
    import: n('import'),
    duplicate: n('duplicate'),
    skip: n('skip'),
    transfer: n('transfer'),
    expense_cents: n('expense_cents'),
    income_cents: n('income_cents'),
    methods: methods.map((m) => ({
      method: m.method,
      account_id: m.account_id === null ? null : Number(m.account_id),
      rows: Number(m.rows),
      match: m.match,
      create: m.account_id === null && m.create_type ? { type: m.create_type } : null,
    })),
    categories: await fileCategories(db, sessionId),
    undecided: { rows: n('undecided'), category: n('no_category'), account: n('no_account') },
  };
}

// ---- references of the owner ----

export interface AccountRef {
  id: number;
  name: string;
  currency: string;
  archived: boolean;
  isDefault: boolean;
}

export async function userAccounts(db: Executor, userId: number): Promise<AccountRef[]> {
  return db
    .select({
      id: accounts.id,
      name: accounts.name,
      currency: accounts.currency,
      archived: accounts.archived,
      isDefault: accounts.isDefault,
    })
    .from(accounts)
    .where(eq(accounts.userId, userId));
}

export async function accountMaps(db: Executor, userId: number): Promise<Map<string, number>> {
  const rows = await db
    .select({ method: importAccountMaps.method, accountId: importAccountMaps.accountId })
    .from(importAccountMaps)
    .where(eq(importAccountMaps.userId, userId));
  return new Map(rows.map((r) => [r.method, r.accountId]));
}

export async function saveAccountMaps(
  db: Executor,
  userId: number,
  pairs: { method: string; accountId: number }[],
): Promise<void> {
  if (!pairs.length) return;
  await query(
    db,
    sql`insert into import_account_maps (user_id, method, account_id, updated_at)
        select ${userId}::int, m, a, now() from unnest(${new Param(pairs.map((p) => p.method))}::text[], ${new Param(pairs.map((p) => p.accountId))}::int[]) as k(m, a)
        on conflict (user_id, method) do update set account_id = excluded.account_id, updated_at = now()`,
  );
}

export interface CategoryRef {
  id: number;
  kind: string;
  name: string;
  sort: number;
  icon: string;
}

export async function userCategories(db: Executor, userId: number): Promise<CategoryRef[]> {
  return db
    .select({
      id: categories.id,
      kind: categories.kind,
      name: categories.name,
      sort: categories.sort,
      icon: categories.icon,
    })
    .from(categories)
    .where(eq(categories.userId, userId))
    .orderBy(asc(categories.sort), asc(categories.id));
}

export interface OriginalRef {
  id: number;
  categoryId: number | null;
  accountId: number | null;
}

/** A purchase in the books a refund of a bill may reduce, with what it can still absorb. */
export interface BookedPurchase extends OriginalRef {
  externalId: string | null;
  date: string;
  /** the bill's counterparty when the purchase's note starts with it, else '' */
  counterparty: string;
  leftMinor: number;
}

/**
 * The purchases in the books that a refund may reduce: those it names by number, and those of its
 * counterparty in the year before it. Purchases that are rows of this bill too are left out: the
 * bill itself, with their times and marks, already said whether the refund is theirs.
 */
export async function bookedPurchases(
  db: Executor,
  userId: number,
  source: string,
  sessionId: number,
  r: { ids: string[]; counterparty: string; date: string },
): Promise<BookedPurchase[]> {
  const byCounterparty = r.counterparty
    ? sql`(t.note = ${r.counterparty} or starts_with(t.note, ${r.counterparty + ' '}))
          and t.date <= ${r.date}::date and t.date > ${r.date}::date - 366`
    : sql`false`;
  const rows = await query<{
    id: number;
    category_id: number | null;
    account_id: number | null;
    external_id: string | null;
    date: string;
    same_counterparty: boolean;
    left_cents: number | string;
  }>(
    db,
    sql`select t.id, t.category_id, t.account_id, t.external_id, t.date::text as date,
               ${r.counterparty ? sql`(t.note = ${r.counterparty} or starts_with(t.note, ${r.counterparty + ' '}))` : sql`false`} as same_counterparty,
               t.amount_cents - coalesce((select sum(abs(x.amount_cents)) from transactions x where x.refund_of = t.id), 0) as left_cents
        from transactions t
        where t.user_id = ${userId} and t.source = ${source} and t.kind = 'expense' and t.refund_of is null
          and (t.external_id = any(${new Param(r.ids)}::text[]) or (${byCounterparty}))
          and not exists (select 1 from import_session_rows s where s.session_id = ${sessionId} and s.external_id = t.external_id)
        order by t.date desc, t.id desc limit 50`,
  );
  return rows.map((t) => ({
    id: Number(t.id),
    categoryId: t.category_id === null ? null : Number(t.category_id),
    accountId: t.account_id === null ? null : Number(t.account_id),
    externalId: t.external_id,
    date: t.date,
    counterparty: t.same_counterparty ? r.counterparty : '',
    leftMinor: Number(t.left_cents),
  }));
}

/** Gives rows to import a reason that says why, without changing what they do. */
export async function explainRows(db: Executor, sessionId: number, rows: number[], reason: string): Promise<void> {
  if (!rows.length) return;
  await query(
    db,
    sql`update import_session_rows set reason = ${reason}
        where session_id = ${sessionId} and row = any(${new Param(rows)}::int[]) and decision = 'import'`,
  );
}

/** Links refunds to purchases of the same file: their category and account follow the purchase's. */
export async function linkRefunds(db: Executor, sessionId: number, links: [number, number][]): Promise<void> {
  if (!links.length) return;
  await query(
    db,
    sql`update import_session_rows r set refund_of_row = k.p, kind = 'expense', category_id = coalesce(p.category_id, r.category_id), account_id = coalesce(p.account_id, r.account_id)
        from unnest(${new Param(links.map((l) => l[0]))}::int[], ${new Param(links.map((l) => l[1]))}::int[]) as k(r, p)
        join import_session_rows p on p.session_id = ${sessionId} and p.row = k.p
        where r.session_id = ${sessionId} and r.row = k.r`,
  );
}

export async function linkRefundToExisting(
  db: Executor,
  sessionId: number,
  row: number,
  o: OriginalRef,
): Promise<void> {
  await query(
    db,
    sql`update import_session_rows set refund_of_id = ${o.id}, kind = 'expense', category_id = coalesce(${o.categoryId}::int, category_id), account_id = coalesce(${o.accountId}::int, account_id)
        where session_id = ${sessionId} and row = ${row}`,
  );
}

/** Rows set to skip with a reason (only those with one of `from` decisions, when given). */
export async function skipRows(
  db: Executor,
  sessionId: number,
  rows: number[],
  reason: string,
  from?: string[],
): Promise<void> {
  if (!rows.length) return;
  const only = from ? sql` and decision = any(${new Param(from)}::text[])` : sql``;
  await query(
    db,
    sql`update import_session_rows set decision = 'skip', reason = ${reason} where session_id = ${sessionId} and row = any(${new Param(rows)}::int[])${only}`,
  );
}

// ---- rules and presets ----

export type RuleRow = typeof importRules.$inferSelect;
export type PresetRow = typeof importPresets.$inferSelect;

export async function listRules(db: Executor, userId: number): Promise<RuleRow[]> {
  return db
    .select()
    .from(importRules)
    .where(eq(importRules.userId, userId))
    .orderBy(asc(importRules.position), asc(importRules.id));
}

export async function listPresets(db: Executor, userId: number): Promise<PresetRow[]> {
  return db.select().from(importPresets).where(eq(importPresets.userId, userId)).orderBy(asc(importPresets.id));
}

export async function updateRow(
  db: Executor,
  sessionId: number,
  row: number,
  v: {
    kind?: string;
    decision?: string;
    reason?: string | null;
    accountId?: number;
    toAccountId?: number;
    categoryId?: number | null;
    tags?: string[];
    note?: string;
    externalId?: string | null;
    existingId?: number | null;
  },
): Promise<void> {
  const set: Partial<PreviewRowInsert> = { edited: true };
  if (v.externalId !== undefined) set.externalId = v.externalId;
  if (v.existingId !== undefined) set.existingId = v.existingId;
  if (v.kind !== undefined) set.kind = v.kind as PreviewRow['kind'];
  if (v.decision !== undefined) set.decision = v.decision as PreviewRow['decision'];
  if (v.reason !== undefined) set.reason = v.reason;
  if (v.accountId !== undefined) set.accountId = v.accountId;
  if (v.toAccountId !== undefined) set.toAccountId = v.toAccountId;
  if (v.categoryId !== undefined) set.categoryId = v.categoryId;
  // a row given a category of its own leaves the file's name (mapped as a whole in mappings.categories)
  if (typeof v.categoryId === 'number') set.categoryName = null;
  if (v.tags !== undefined) set.tags = v.tags;
  if (v.note !== undefined) set.note = v.note;
  await db
    .update(importSessionRows)
    .set(set)
    .where(and(eq(importSessionRows.sessionId, sessionId), eq(importSessionRows.row, row)));
}

/** One bulk edit: rows chosen by number, method, counterparty and/or decision. Answers the rows changed. */
export async function bulkUpdate(
  db: Executor,
  sessionId: number,
  b: {
    rows?: number[];
    method?: string;
    counterparty?: string;
    decision?: string;
    undecided?: 'category';
    set: { decision?: string; accountId?: number; categoryId?: number; categoryKind?: string; tags?: string[] };
  },
): Promise<number> {
  const sel = sql.join(
    [
      sql`session_id = ${sessionId}`,
      b.rows ? sql`row = any(${new Param(b.rows)}::int[])` : undefined,
      b.undecided === 'category' ? sql`(${NO_CATEGORY})` : undefined,
      b.counterparty !== undefined ? sql`counterparty = ${b.counterparty}` : undefined,
      b.decision !== undefined ? sql`decision = ${b.decision}` : undefined,
    ].filter((x) => x !== undefined),
    sql` and `,
  );
  let n = 0;
  const count = async (stmt: ReturnType<typeof sql>) => {
    const rows = await query<{ row: number }>(db, sql`${stmt} returning row`);
    n = Math.max(n, rows.length);
  };
  const s = b.set;
  if (s.accountId !== undefined) {
    if (b.method !== undefined) {
      await count(
        sql`update import_session_rows set account_id = ${s.accountId}, edited = true where ${sel} and method = ${b.method}`,
      );
      await count(
        sql`update import_session_rows set to_account_id = ${s.accountId}, edited = true where ${sel} and to_method = ${b.method}`,
      );
      // moves whose both ends are now known become transfers again
      await query(
        db,
        sql`update import_session_rows set decision = 'transfer', reason = null
            where session_id = ${sessionId} and kind = 'transfer' and decision = 'skip' and reason = 'no_account'
              and account_id is not null and to_account_id is not null and account_id <> to_account_id`,
      );
    } else await count(sql`update import_session_rows set account_id = ${s.accountId}, edited = true where ${sel}`);
  }
  const methodSel = b.method !== undefined ? sql` and (method = ${b.method} or to_method = ${b.method})` : sql``;
  if (s.categoryId !== undefined)
    await count(
      sql`update import_session_rows set category_id = ${s.categoryId}, category_name = null, edited = true where ${sel}${methodSel} and kind = ${s.categoryKind ?? ''}`,
    );
  if (s.tags !== undefined)
    await count(
      sql`update import_session_rows set tags = ${JSON.stringify(s.tags)}::jsonb, edited = true where ${sel}${methodSel}`,
    );
  if (s.decision !== undefined) {
    const d = s.decision;
    // import and transfer follow the row's kind; rows already in the books stay duplicates
    const guard =
      d === 'skip'
        ? sql``
        : d === 'transfer'
          ? sql` and kind = 'transfer' and not (reason = 'duplicate' and external_id is not null)`
          : sql` and kind <> 'transfer' and not (reason = 'duplicate' and external_id is not null)`;
    await count(
      sql`update import_session_rows set decision = ${d}, reason = ${d === 'skip' ? 'user' : null}, edited = true where ${sel}${methodSel}${guard}`,
    );
  }
  return n;
}

export async function findOwnRule(db: Executor, userId: number, id: number): Promise<RuleRow | undefined> {
  const [row] = await db
    .select()
    .from(importRules)
    .where(and(eq(importRules.id, id), eq(importRules.userId, userId)));
  return row;
}

export async function shiftRules(db: Executor, userId: number, from: number): Promise<void> {
  await db
    .update(importRules)
    .set({ position: sql`${importRules.position} + 1` })
    .where(and(eq(importRules.userId, userId), sql`${importRules.position} >= ${from}`));
}

export async function insertRule(db: Executor, v: typeof importRules.$inferInsert): Promise<RuleRow> {
  const [row] = await db.insert(importRules).values(v).returning();
  return row!;
}

export async function updateRule(
  db: Executor,
  userId: number,
  id: number,
  v: Partial<typeof importRules.$inferInsert>,
): Promise<RuleRow | undefined> {
  const [row] = await db
    .update(importRules)
    .set({ ...v, updatedAt: new Date() })
    .where(and(eq(importRules.id, id), eq(importRules.userId, userId)))
    .returning();
  return row;
}

export async function deleteRule(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(importRules)
    .where(and(eq(importRules.id, id), eq(importRules.userId, userId)))
    .returning({ id: importRules.id });
  return rows.length > 0;
}

export async function setRulePositions(db: Executor, userId: number, ids: number[]): Promise<void> {
  await query(
    db,
    sql`update import_rules r set position = k.pos, updated_at = now()
        from unnest(${new Param(ids)}::int[]) with ordinality as k(id, pos)
        where r.id = k.id and r.user_id = ${userId}`,
  );
}

export async function findOwnPreset(db: Executor, userId: number, id: number): Promise<PresetRow | undefined> {
  const [row] = await db
    .select()
    .from(importPresets)
    .where(and(eq(importPresets.id, id), eq(importPresets.userId, userId)));
  return row;
}

export async function insertPreset(db: Executor, v: typeof importPresets.$inferInsert): Promise<PresetRow> {
  const [row] = await db.insert(importPresets).values(v).returning();
  return row!;
}

export async function updatePreset(
  db: Executor,
  userId: number,
  id: number,
  v: Partial<typeof importPresets.$inferInsert>,
): Promise<PresetRow | undefined> {
  const [row] = await db
    .update(importPresets)
    .set({ ...v, updatedAt: new Date() })
    .where(and(eq(importPresets.id, id), eq(importPresets.userId, userId)))
    .returning();
  return row;
}

export async function deletePreset(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(importPresets)
    .where(and(eq(importPresets.id, id), eq(importPresets.userId, userId)))
    .returning({ id: importPresets.id });
  return rows.length > 0;
}

// ---- commit ----

/**
 * Rows to write whose source and id the books hold: duplicates (after a bill is read, and again at its commit for what
 * reached the books since).
 */
export async function markNewDuplicates(
  tx: Executor,
  userId: number,
  sessionId: number,
  source: string,
): Promise<void> {
  await query(
    tx,
    sql`update import_session_rows r set decision = 'duplicate', reason = 'duplicate', existing_id = t.id
        from transactions t
        where r.session_id = ${sessionId} and r.decision in ('import', 'transfer') and r.external_id is not null
          and t.user_id = ${userId} and t.source = ${source} and t.external_id = r.external_id`,
  );
}

/**
 * Rows to write that share an external id with an earlier row to write: duplicates now (the
 * preview gives different payments under one id ids of their own, so these are the same payment
 * chosen twice by hand). One hashed pass over the session's rows finds the ids written more than
 * once (usually none; no sort of a hundred thousand ids), and the rows after the first of each.
 */
export async function markInFileDuplicates(tx: Executor, sessionId: number): Promise<void> {
  await query(
    tx,
    sql`update import_session_rows r set decision = 'duplicate', reason = 'duplicate_in_file'
        from (select external_id, min(row) as first from import_session_rows
              where session_id = ${sessionId} and decision in ('import', 'transfer') and external_id is not null
              group by external_id having count(*) > 1) d
        where r.session_id = ${sessionId} and r.external_id = d.external_id and r.row > d.first and r.decision in ('import', 'transfer')`,
  );
}

/** A refund's category and account follow its purchase's in the same file. */
export async function followPurchases(db: Executor, sessionId: number): Promise<void> {
  await query(
    db,
    sql`update import_session_rows r set category_id = p.category_id, account_id = p.account_id
        from import_session_rows p
        where r.session_id = ${sessionId} and r.refund and r.kind = 'expense' and r.refund_of_row is not null
          and p.session_id = ${sessionId} and p.row = r.refund_of_row
          and (r.category_id is distinct from p.category_id or r.account_id is distinct from p.account_id)`,
  );
}

/** Categories named by our own export's rows that the user does not have: created, and the rows pointed at them. */
export async function createNamedCategories(
  tx: Executor,
  userId: number,
  sessionId: number,
  room: number,
): Promise<{ refused: { row: number; name: string }[]; created: string[] }> {
  const wanted = await query<{ kind: string; name: string; first_row: number }>(
    tx,
    sql`select r.kind, r.category_name as name, min(r.row)::int as first_row from import_session_rows r
        where r.session_id = ${sessionId} and r.decision = 'import' and r.category_id is null and r.category_name is not null
          and not exists (select 1 from categories c where c.user_id = ${userId} and c.kind = r.kind and c.name = r.category_name)
        group by r.kind, r.category_name order by min(r.row)`,
  );
  const refused = wanted.slice(Math.max(0, room));
  const create = wanted.slice(0, Math.max(0, room));
  if (create.length) {
    await query(
      tx,
      sql`insert into categories (user_id, kind, name, color, icon, sort)
          select ${userId}::int, k.kind, k.name, '#9B9B9B', '', coalesce((select max(sort) + 1 from categories where user_id = ${userId} and kind = k.kind), 0) + k.i - 1
          from unnest(${new Param(create.map((c) => c.kind))}::text[], ${new Param(create.map((c) => c.name))}::text[]) with ordinality as k(kind, name, i)
          on conflict do nothing`,
    );
  }
  await query(
    tx,
    sql`update import_session_rows r set category_id = c.id from categories c
        where r.session_id = ${sessionId} and r.category_id is null and r.category_name is not null
          and c.user_id = ${userId} and c.kind = r.kind and c.name = r.category_name`,
  );
  const created = create.map((c) => c.name);
  if (!refused.length) return { refused: [], created };
  const rows = await query<{ row: number; name: string }>(
    tx,
    sql`select row, category_name as name from import_session_rows where session_id = ${sessionId} and decision = 'import' and category_id is null and category_name is not null order by row`,
  );
  return { refused: rows, created };
}

/** The first 1,000 rows that cannot be written as they stand, with the reason, in row order. */
export async function invalidRows(
  tx: Executor,
  userId: number,
  sessionId: number,
): Promise<{ row: number; message: string; code?: string }[]> {
  // joins, not a subquery per row: a bill of 100,000 rows is checked in one pass
  const rows = await query<{ row: number; message: string }>(
    tx,
    sql`select row, message from (
          select r.row, case
              when r.refund and r.kind = 'expense' and r.refund_of_id is null and not (p.decision = 'import' or p.existing_id is not null) is not false
                then 'the purchase this refund reduces is not imported: import it, or make this row an income'
              when r.account_id is null then 'no_account'
              when r.decision = 'import' and r.kind <> 'transfer' and r.category_id is null then 'no_category'
              when a.id is null then 'account_id must be one of your accounts'
              when r.decision = 'transfer' and b.id is null then 'to_account_id must be one of your accounts'
              when r.decision = 'transfer' and r.to_account_id = r.account_id then 'a transfer needs two different accounts'
              when r.decision = 'transfer' and a.currency <> b.currency then 'a transfer between currencies is recorded by hand'
              when r.decision = 'import' and c.id is null then 'category_id must be one of your categories of the row''s kind'
              when a.currency <> u.base_currency
                   and not exists (select 1 from exchange_rates x where x.user_id = ${userId} and x.currency = a.currency and x.date <= r.date)
                then 'no exchange rate for the account''s currency on or before the row''s date'
            end as message
          from import_session_rows r
          cross join (select base_currency from users where id = ${userId}) u
          left join accounts a on a.id = r.account_id and a.user_id = ${userId} and not a.archived
          left join accounts b on b.id = r.to_account_id and b.user_id = ${userId} and not b.archived
          left join categories c on c.id = r.category_id and c.user_id = ${userId} and c.kind = r.kind
          left join lateral (select p.decision, p.existing_id from import_session_rows p
                             where r.refund and r.kind = 'expense' and r.refund_of_id is null and p.session_id = r.session_id and p.row = r.refund_of_row) p on true
          where r.session_id = ${sessionId} and r.decision in ('import', 'transfer')
        ) v
        where message is not null
        order by row limit 1000`,
  );
  return rows.map(({ row, message }) =>
    message in UNDECIDED
      ? { row: Number(row), code: message, message: UNDECIDED[message as keyof typeof UNDECIDED] }
      : { row: Number(row), message },
  );
}

/** rows still to decide refuse the commit, each named with a code the client words */
const UNDECIDED = {
  no_account: 'no account chosen yet for this row (its payment method has none): choose one, or skip the row',
  no_category: 'no category chosen yet for this row: choose one, or skip the row',
};

/**
 * The session's rows to write as the books writer's set-based insert takes them (insertSelected):
 * in file order, the amount as read in hundredths, in `currency` (the bill's; null: the account's); a
 * group the user no longer writes in (left, dissolved) is answered as none. A refund of a purchase of
 * the same file names that purchase's row while the purchase is written too, else the transaction the
 * purchase already is (a duplicate).
 */
export function rowsToWriteSql(userId: number, sessionId: number, source: string | null, currency: string | null): SQL {
  return sql`select r.row, r.kind, r.amount_cents as hundredths, ${currency}::text as currency, r.category_id, r.note, r.date,
                    case when r.group_id in (select gm.group_id from group_members gm join groups g on g.id = gm.group_id
                                             where gm.user_id = ${userId} and g.dissolved_at is null) then r.group_id end as group_id,
                    r.account_id, r.to_account_id, ${source}::text as source, r.external_id, r.tags, r.original_created_at as created_at,
                    case when r.refund and r.kind = 'expense' then coalesce(r.refund_of_id, case when p.decision not in ('import', 'transfer') then p.existing_id end) end as refund_of,
                    case when r.refund and r.kind = 'expense' and r.refund_of_id is null and p.decision in ('import', 'transfer') then p.row end as refund_of_row
             from import_session_rows r
             -- looked up for the refunds only
             left join lateral (select p.row, p.decision, p.existing_id from import_session_rows p
                                where r.refund and r.kind = 'expense' and r.refund_of_id is null and p.session_id = r.session_id and p.row = r.refund_of_row) p on true
             where r.session_id = ${sessionId} and r.decision in ('import', 'transfer')`;
}

/** The user's tags named by the rows to write, created when missing: name -> id. */
export async function tagsOfRows(tx: Executor, userId: number, sessionId: number): Promise<Map<string, number>> {
  const rows = await query<{ name: string; id: number }>(
    tx,
    sql`with wanted as (
          select distinct t.name from import_session_rows r, jsonb_array_elements_text(r.tags) as t(name)
          where r.session_id = ${sessionId} and r.decision in ('import', 'transfer') and r.tags <> '[]'::jsonb
        ), made as (
          insert into tags (user_id, name) select ${userId}::int, name from wanted on conflict do nothing returning name, id
        )
        select name, id from made
        union all
        select g.name, g.id from tags g join wanted w on w.name = g.name where g.user_id = ${userId}`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.id)]));
}

/** Payment methods not yet mapped: remembered as the account most of their rows used. */
export async function rememberMethods(tx: Executor, userId: number, sessionId: number): Promise<void> {
  await query(
    tx,
    sql`insert into import_account_maps (user_id, method, account_id, updated_at)
        select distinct on (m.method) ${userId}::int, m.method, m.account_id, now() from (
          select method, account_id, count(*) as n from import_session_rows
          where session_id = ${sessionId} and decision in ('import', 'transfer') and method <> '' and account_id is not null group by method, account_id
          union all
          select to_method, to_account_id, count(*) from import_session_rows
          where session_id = ${sessionId} and decision in ('import', 'transfer') and to_method is not null and to_method <> '' and to_account_id is not null group by to_method, to_account_id
        ) m
        order by m.method, m.n desc, m.account_id
        on conflict (user_id, method) do nothing`,
  );
}

export async function deleteRows(tx: Executor, sessionId: number): Promise<void> {
  await tx.delete(importSessionRows).where(eq(importSessionRows.sessionId, sessionId));
}
