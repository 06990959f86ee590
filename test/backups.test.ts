import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { DEFAULT_UPLOAD_LIMITS } from '../src/config.ts';
import { createDatabase, query, runMigrations, tableExists, type Database, type Executor } from '../src/db/client.ts';
import {
  accounts,
  attachmentFiles,
  attachments,
  backups,
  exchangeRates,
  budgets,
  categoryBudgets,
  idempotencyKeys,
  images,
  recurringRules,
  savedFilters,
  systemConfig,
  trackEvents,
  userSetups,
  transactions,
  transactionTags,
  transactionShares,
  settlements,
  users,
  sessions,
  passkeys,
  webauthnChallenges,
  apiTokens,
  importAccountMaps,
  importPresets,
  importRules,
  importSessionRows,
  importSessions,
  totpFactors,
  recoveryCodes,
  oidcIdentities,
  oidcFlows,
  webhookEndpoints,
  webhookDeliveries,
  webhookAttempts,
} from '../src/db/schema/index.ts';
import {
  BackupError,
  buildSchemaVersion,
  describeTables,
  inspectBackup,
  restoreBackup,
  writeBackup,
} from '../src/modules/backups/backups.archive.ts';
import { signDownloadToken } from '../src/modules/backups/backups.service.ts';
import {
  addMember,
  blankPgDatabase,
  build,
  type Client,
  createAdmin,
  createFeedback,
  createGroup,
  createNotification,
  createRefreshToken,
  createTag,
  createTestDatabase,
  inDefaultAccount,
  createTransaction,
  createUser,
  firstCategory,
  markRead,
  onPostgres,
  pgServerAnswers,
  pgServerLabel,
  runCli,
  TEST_SECRET,
  type TestApp,
} from './helpers/index.ts';

const ALL_BYTES = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every table gets rows, with awkward values, and a few tables get more than one read batch. */
async function fillEveryTable(db: Executor) {
  const admin = await createAdmin(db, {
    nickname: 'Admin "quoted" \\ back',
    timezone: 'Asia/Shanghai',
    avatarUrl: '/api/avatars/a.png',
  });
  const u = await createUser(db, {
    nickname: 'Zoë 🌟\nnew line',
    slogan: "it's",
    deletedAt: new Date('2026-01-02T03:04:05.678Z'),
  });
  const v = await createUser(db, { isDemo: true, provider: null, providerSubject: null, status: 'disabled' });
  await createRefreshToken(db, u.id, {
    jtiHash: 'h1',
    family: 'f1',
    expiresAt: new Date('2027-01-01T00:00:00Z'),
    rotatedAt: new Date(),
    revokedAt: new Date(),
  });
  const g = await createGroup(db, admin.id, { dissolvedAt: new Date('2026-05-05T05:05:05.555Z') });
  await addMember(db, g.id, u.id);
  const t1 = await createTag(db, u.id, { color: '#ABCDEF' });
  const t2 = await createTag(db, u.id);
  const cat = await firstCategory(db, u.id);
  const [rule] = await db
    .insert(recurringRules)
    .values({
      userId: u.id,
      kind: 'expense',
      amountMinor: 123456,
      categoryId: cat.id,
      tagIds: [t1.id, t2.id],
      groupId: g.id,
      frequency: 'monthly',
      interval: 2,
      startDate: '2024-02-29',
      endDate: null,
      nextDate: '2024-04-29',
      note: 'rent',
    })
    .returning();
  const big = await createTransaction(db, u.id, {
    amountMinor: 99_999_999_999_999,
    date: '2024-02-29',
    groupId: g.id,
    recurringId: rule!.id,
    note: 'big\ttab',
    paidBy: u.id,
  });
  await db.insert(transactionShares).values({
    transactionId: big.id,
    userId: u.id,
    groupId: g.id,
    amountMinor: 99_999_999_999_999,
    mode: 'exact',
    value: '999999999999.99',
  });
  await db.insert(settlements).values({
    groupId: g.id,
    fromUserId: admin.id,
    toUserId: u.id,
    amountMinor: 1234,
    date: '2024-03-01',
    note: 'cash',
    createdBy: admin.id,
    confirmedAt: new Date('2024-03-02T00:00:00.000Z'),
  });
  // more rows than one read batch: single, composite and missing primary keys
  const booking = await inDefaultAccount(db, u.id, 0);
  const many = await db
    .insert(transactions)
    .values(
      Array.from({ length: 1100 }, (_, i) => ({
        userId: u.id,
        kind: 'expense' as const,
        amountMinor: i + 1,
        categoryId: cat.id,
        date: '2026-03-01',
        note: `n${i}`,
        ...booking,
        baseAmount: i + 1,
      })),
    )
    .returning({ id: transactions.id });
  await db.insert(transactionTags).values(
    many.flatMap((m) => [
      { transactionId: m.id, tagId: t1.id },
      { transactionId: m.id, tagId: t2.id },
    ]),
  );
  await db.insert(idempotencyKeys).values(
    Array.from({ length: 1050 }, (_, i) => ({
      userId: u.id,
      scope: 'transactions',
      key: `k${i}`,
      requestHash: 'x',
      status: 'done' as const,
      responseStatus: 201,
      responseBody: { id: i, nested: [1, 'two', null] },
    })),
  );
  await db
    .insert(savedFilters)
    .values({ userId: u.id, name: 'mine', criteria: { category_ids: [cat.id], min_amount: 0, keyword: '%_' } });
  await db.insert(budgets).values([
    { userId: u.id, month: '2026-02', amountMinor: 50000, carryOver: true },
    { groupId: g.id, month: '2026-02', amountMinor: 90000 },
    { userId: u.id, groupId: g.id, month: '2026-02', amountMinor: 10000 },
  ]);
  await db
    .insert(categoryBudgets)
    .values({ userId: u.id, month: '2026-02', categoryId: cat.id, amountMinor: 12345, carryOver: true });
  const n = await createNotification(db, {
    scope: 'group',
    title: 'hello',
    content: 'world',
    groupId: g.id,
    createdBy: admin.id,
    pinned: true,
    publishAt: new Date('2026-01-01T00:00:00.123Z'),
    linkUrl: 'https://example.com/?a=1&b=2',
  });
  await markRead(db, n.id, u.id);
  await createFeedback(db, u.id, {
    content: 'please',
    contact: 'mail',
    status: 'replied',
    reply: 'ok',
    repliedAt: new Date(),
    repliedBy: admin.id,
  });
  await db.insert(systemConfig).values({ key: 'tagline', value: 'unicode ✓ and "quotes"' }).onConflictDoNothing();
  await db.insert(images).values({
    key: `${randomBytes(16).toString('hex')}.png`,
    userId: u.id,
    contentType: 'image/png',
    data: ALL_BYTES,
    size: ALL_BYTES.length,
    width: 1,
    height: 1,
  });
  // an attachment's rows (its file on disk is the attachments test's: this backup is of rows)
  const sha = 'ab'.repeat(32);
  await db.insert(attachmentFiles).values({ sha256: sha, mime: 'image/png', size: 3, width: 1, height: 1 });
  await db
    .insert(attachments)
    .values({ transactionId: many[0]!.id, userId: u.id, sha256: sha, uploadSha256: sha, name: '小票.png' });
  await db.insert(userSetups).values({ userId: u.id, outcome: 'finished' });
  await db.insert(trackEvents).values([
    { userId: u.id, eventType: 'open', page: '/p', data: { a: 1.5, b: [true, false], c: { d: 'é' } } },
    { userId: null, eventType: 'anon', data: null },
  ]);
  // money: a second account in another currency, a rate, a transfer with its fee, and a refund that points at a
  // later row
  await db
    .insert(exchangeRates)
    .values({ userId: u.id, currency: 'USD', date: '2026-01-31', rate: '7.123456789012', source: 'fetched' });
  const [usd] = await db
    .insert(accounts)
    .values({
      userId: u.id,
      name: 'US card',
      type: 'credit_card',
      currency: 'USD',
      openingBalance: -12345,
      openingDate: '2026-01-01',
      note: 'trip',
    })
    .returning();
  const cash = await inDefaultAccount(db, u.id, 0);
  const [transfer] = await db
    .insert(transactions)
    .values({
      userId: u.id,
      kind: 'transfer',
      amountMinor: 71235,
      date: '2026-02-01',
      accountId: cash.accountId,
      currency: cash.currency,
      baseAmount: 71235,
      toAccountId: usd!.id,
      toAmount: 10000,
      toCurrency: 'USD',
    })
    .returning();
  await db.insert(transactions).values({
    userId: u.id,
    kind: 'expense',
    categoryId: cat.id,
    amountMinor: 500,
    date: '2026-02-01',
    ...cash,
    baseAmount: 500,
    parentId: transfer!.id,
  });
  const [refund] = await db
    .insert(transactions)
    .values({
      userId: u.id,
      kind: 'income',
      categoryId: cat.id,
      amountMinor: 300,
      date: '2026-02-03',
      ...cash,
      baseAmount: 300,
      source: 'alipay',
      externalId: '2026020322001',
    })
    .returning();
  const [purchase] = await db
    .insert(transactions)
    .values({
      userId: u.id,
      kind: 'expense',
      categoryId: cat.id,
      amountMinor: 900,
      date: '2026-02-02',
      accountId: usd!.id,
      currency: 'USD',
      baseAmount: 6411,
      rate: '7.123456789012',
      source: 'alipay',
      externalId: '2026020222001',
    })
    .returning();
  await db.update(transactions).set({ refundOf: purchase!.id }).where(eq(transactions.id, refund!.id));
  // bill import: a rule, a column mapping, a remembered payment method and a preview with a row
  await db.insert(importRules).values({
    userId: u.id,
    position: 1,
    field: 'counterparty',
    match: 'contains',
    value: '美团',
    kind: 'expense',
    categoryId: cat.id,
  });
  const [preset] = await db
    .insert(importPresets)
    .values({
      userId: u.id,
      name: '示例银行',
      header: ['日期', '金额'],
      mapping: { date: '日期', date_format: 'YYYY-MM-DD', amount: '金额', sign: 'negative_is_expense' },
      accountId: usd!.id,
    })
    .returning();
  await db.insert(importAccountMaps).values({ userId: u.id, method: '招商银行储蓄卡(1234)', accountId: usd!.id });
  const [session] = await db
    .insert(importSessions)
    .values({
      userId: u.id,
      format: 'mapped',
      source: 'bank:0123456789ab',
      container: 'csv',
      encoding: 'gb18030',
      presetId: preset!.id,
      status: 'ready',
      rowCount: 1,
      expiresAt: new Date('2026-02-04T00:00:00Z'),
    })
    .returning();
  await db.insert(importSessionRows).values({
    sessionId: session!.id,
    row: 1,
    date: '2026-02-03',
    kind: 'expense',
    amountMinor: 1234,
    counterparty: '青禾小馆',
    note: '青禾小馆 晚餐',
    externalId: 'BK1\t',
    method: '',
    accountId: usd!.id,
    categoryId: cat.id,
    tags: ['晚餐'],
    decision: 'import',
    refund: false,
    type: '',
  });
  await db
    .insert(backups)
    .values({ name: 'backup-old', size: 1234, status: 'failed', error: 'disk full', createdBy: admin.id });
  // sign-in: a password account, its session, a passkey, a pending challenge and an API token (text arrays included)
  const w = await createUser(db, {
    username: 'Pass.Word-user',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    failedSignIns: 2,
    lastSignInAt: new Date('2026-02-02T02:02:02.002Z'),
  });
  await db.insert(sessions).values({ userId: w.id, family: 'f1', userAgent: 'Mozilla/5.0 "quoted"', ip: '::1' });
  await db.insert(passkeys).values({
    userId: w.id,
    credentialId: 'Y3JlZA',
    publicKey: 'cHVibGlj',
    counter: 7,
    transports: ['internal', 'hybrid'],
    name: 'Laptop',
    deviceType: 'multiDevice',
    backedUp: true,
  });
  await db.insert(webauthnChallenges).values({
    challenge: 'Y2hhbGxlbmdl',
    purpose: 'register',
    userId: w.id,
    expiresAt: new Date('2026-03-03T03:03:03.003Z'),
  });
  await db.insert(apiTokens).values({
    userId: w.id,
    name: 'script',
    scopes: ['read', 'write'],
    prefix: 'lgr_abcd',
    tokenHash: 'f'.repeat(64),
    expiresAt: new Date('2027-01-01T00:00:00Z'),
  });
  await db.insert(totpFactors).values({ userId: w.id, secret: 'v1.aXY.Y2lwaGVy.dGFn', lastStep: 59_000_000 });
  await db.insert(recoveryCodes).values({ userId: w.id, codeHash: 'e'.repeat(64) });
  await db.insert(oidcIdentities).values({ userId: w.id, issuer: 'https://id.example', subject: 'sub-1' });
  await db.insert(oidcFlows).values({
    stateHash: 'd'.repeat(64),
    nonce: 'n0nce',
    codeVerifier: 'v'.repeat(43),
    purpose: 'link',
    userId: w.id,
    expiresAt: new Date('2026-03-03T03:03:03.003Z'),
  });
  const [endpoint] = await db
    .insert(webhookEndpoints)
    .values({
      userId: w.id,
      url: 'https://hooks.example/in',
      secret: 'whsec_c2VjcmV0',
      events: ['transaction.created'],
    })
    .returning();
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({
      messageId: 'msg_1',
      endpointId: endpoint!.id,
      userId: w.id,
      type: 'transaction.created',
      payload: { id: 1, note: '“quoted” 午饭' },
    })
    .returning();
  await db.insert(webhookAttempts).values({ deliveryId: delivery!.id, statusCode: 500, error: 'busy', durationMs: 12 });
  return { admin, u, v };
}

/** Every row of every table, rendered by PostgreSQL itself (to_jsonb, in UTC), sorted. */
async function snapshot(db: Database['db']): Promise<Record<string, string[]>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local time zone 'UTC'`);
    const out: Record<string, string[]> = {};
    for (const t of await describeTables(tx)) {
      const rows = await query<{ j: string }>(tx, sql`select to_jsonb(x)::text as j from ${sql.identifier(t.name)} x`);
      out[t.name] = rows.map((r) => r.j).sort();
    }
    return out;
  });
}

const blankPglite = () => createDatabase({ databaseUrl: null, embeddedDbDir: null, blank: true });

// Nothing in here uses the suite's database (blank embedded databases, and PostgreSQL databases of
// its own on the local server): it proves the same on both suites, and runs on the embedded one.
describe(
  'backup file and restore',
  { skip: onPostgres && 'does not use the suite database: runs on the embedded suite' },
  () => {
    let dir: string;
    let source: Database;
    let file: string;
    let baseline: Record<string, string[]>;

    before(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'ledger-backup-'));
      source = await blankPglite();
      await runMigrations(source);
      await fillEveryTable(source.db);
      baseline = await snapshot(source.db);
      file = path.join(dir, 'full.json.gz');
      await writeBackup(source.db, file);
    });
    after(async () => {
      await source.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('has rows in every table to begin with', () => {
      for (const [table, rows] of Object.entries(baseline)) assert.ok(rows.length > 0, `table ${table} is empty`);
      assert.ok(
        baseline.transaction_tags!.length > 2000 &&
          baseline.idempotency_keys!.length > 1000 &&
          baseline.transactions!.length > 1000,
      );
    });

    it('writes a gzip of JSON lines: header, rows table by table in key order, end marker', async () => {
      const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
      const header = JSON.parse(lines[0]!);
      assert.equal(header.format, 'ledger-backup');
      assert.equal(header.version, 1);
      assert.equal(header.schema_version, buildSchemaVersion().version);
      assert.match(header.schema_version, /^[0-9a-f]{64}$/);
      assert.ok(header.schema_tag);
      assert.ok(Date.parse(header.created_at) > 0);
      const names = header.tables.map((t: { name: string }) => t.name);
      assert.deepEqual([...names].sort(), Object.keys(baseline).sort());
      // parents come before the tables that reference them
      for (const [child, parent] of [
        ['transactions', 'categories'],
        ['categories', 'users'],
        ['transaction_tags', 'transactions'],
        ['transactions', 'recurring_rules'],
        ['notification_reads', 'notifications'],
        ['group_members', 'groups'],
      ]) {
        assert.ok(names.indexOf(parent) < names.indexOf(child), `${parent} before ${child}`);
      }
      const trailer = JSON.parse(lines.at(-1)!);
      assert.equal(trailer.end, true);
      for (const [t, rows] of Object.entries(baseline)) assert.equal(trailer.rows[t], rows.length, t);
      const rows = lines.slice(1, -1).map((l) => JSON.parse(l));
      const seen = rows.map((r) => r.t).filter((t, i, a) => i === 0 || a[i - 1] !== t);
      assert.deepEqual(
        seen,
        names.filter((n: string) => trailer.rows[n] > 0),
      );
      const txIds = rows.filter((r) => r.t === 'transactions').map((r) => r.r.id);
      assert.deepEqual(
        txIds,
        [...txIds].sort((a, b) => a - b),
      );
      const img = rows.find((r) => r.t === 'images').r;
      assert.equal(Buffer.from(img.data, 'base64').toString('hex'), ALL_BYTES.toString('hex'));
      const big = rows.find((r) => r.t === 'transactions' && r.r.note === 'big\ttab').r;
      assert.equal(big.amount_cents, '99999999999999');
      assert.equal(big.date, '2024-02-29');
      assert.match(big.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      const deleted = rows.find((r) => r.t === 'users' && r.r.deleted_at).r;
      assert.equal(deleted.deleted_at, '2026-01-02T03:04:05.678000Z');
    });

    it('restores into a blank embedded database with identical rows and working sequences', async () => {
      const target = await blankPglite();
      try {
        const summary = await restoreBackup(target, file);
        assert.equal(summary.rows.transactions, baseline.transactions!.length);
        assert.deepEqual(await snapshot(target.db), baseline);
        const [img] = await target.db.select().from(images);
        assert.ok(img!.data.equals(ALL_BYTES));
        const maxUser = Math.max(...(await target.db.select({ id: users.id }).from(users)).map((r) => r.id));
        const fresh = await createUser(target.db);
        assert.equal(fresh.id, maxUser + 1);
      } finally {
        await target.close();
      }
    });

    it('restores into a database a server has already started on (settings seeded, no users)', async () => {
      const target = await blankPglite();
      try {
        await runMigrations(target);
        await target.db.insert(systemConfig).values([
          { key: 'tagline', value: 'seeded at start-up' },
          { key: 'app_version', value: '0.0.1' },
        ]);
        await restoreBackup(target, file);
        assert.deepEqual(await snapshot(target.db), baseline);
      } finally {
        await target.close();
      }
    });

    it("marks the restored backup's own row completed and rows cut off in the source failed", async () => {
      const src = await blankPglite();
      const target = await blankPglite();
      try {
        await runMigrations(src);
        await src.db.insert(backups).values([
          { name: 'self', status: 'pending' },
          { name: 'cut-off', status: 'pending' },
          { name: 'done-before', status: 'completed', size: 10 },
        ]);
        const own = path.join(dir, 'self.json.gz');
        await writeBackup(src.db, own);
        await restoreBackup(target, own);
        const rows = await target.db.select().from(backups).orderBy(backups.id);
        assert.deepEqual(
          rows.map((r) => [r.name, r.status]),
          [
            ['self', 'completed'],
            ['cut-off', 'failed'],
            ['done-before', 'completed'],
          ],
        );
        assert.equal(rows[0]!.size, statSync(own).size);
        assert.ok(rows[0]!.completedAt && rows[1]!.error);
        assert.equal(rows[2]!.size, 10);
      } finally {
        await src.close();
        await target.close();
      }
    });

    it('moves embedded -> PostgreSQL -> embedded without losing anything', async (t) => {
      if (!(await pgServerAnswers())) {
        t.skip(`no PostgreSQL server answers at ${pgServerLabel()}`);
        return;
      }
      const blank = await blankPgDatabase('ledger_restore');
      const onPg = await createDatabase({ databaseUrl: blank.url, embeddedDbDir: null, poolSize: 3 });
      const back = await blankPglite();
      try {
        await restoreBackup(onPg, file);
        assert.deepEqual(await snapshot(onPg.db), baseline);
        const fromPg = path.join(dir, 'from-pg.json.gz');
        await writeBackup(onPg.db, fromPg);
        await restoreBackup(back, fromPg);
        assert.deepEqual(await snapshot(back.db), baseline);
        // new rows continue after the restored ids on PostgreSQL too
        const [maxTx] = await query<{ m: number }>(onPg.db, sql`select max(id)::int as m from transactions`);
        const u = await createUser(onPg.db);
        const tx = await createTransaction(onPg.db, u.id);
        assert.equal(tx.id, maxTx!.m + 1);
        // and the restored database refuses a second restore
        await assert.rejects(restoreBackup(onPg, file), (e) => e instanceof BackupError && /not empty/.test(e.message));
      } finally {
        await onPg.close();
        await back.close();
        await blank.drop();
      }
    });

    describe('refusals, before anything is touched', () => {
      const lines = () => gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
      const variant = (name: string, content: Buffer) => {
        const p = path.join(dir, name);
        writeFileSync(p, content);
        return p;
      };
      const cases: [string, () => string, RegExp][] = [
        ['not gzip', () => variant('plain.json', Buffer.from('{"format":"ledger-backup"}\n')), /not a gzip file/],
        ['empty file', () => variant('empty.gz', Buffer.alloc(0)), /not a gzip file/],
        ['gzip of something else', () => variant('other.gz', gzipSync('hello world\n')), /not a ledger backup/],
        [
          'another JSON format',
          () => variant('other2.gz', gzipSync('{"format":"other","version":1}\n')),
          /not a ledger backup/,
        ],
        ['empty gzip', () => variant('nothing.gz', gzipSync('')), /empty/],
        [
          'a newer format version',
          () =>
            variant(
              'v2.gz',
              gzipSync([JSON.stringify({ ...JSON.parse(lines()[0]!), version: 2 }), ...lines().slice(1)].join('\n')),
            ),
          /version 2/,
        ],
        [
          'truncated gzip',
          () => variant('cut.gz', readFileSync(file).subarray(0, Math.floor(readFileSync(file).length * 0.7))),
          /truncated or corrupt/,
        ],
        ['no end marker', () => variant('noend.gz', gzipSync(lines().slice(0, -1).join('\n') + '\n')), /no end marker/],
        [
          'counts that do not add up',
          () => variant('count.gz', gzipSync([...lines().slice(0, 2), ...lines().slice(3)].join('\n'))),
          /holds \d+ rows but the end marker says/,
        ],
        [
          'a broken row',
          () => variant('broken.gz', gzipSync([lines()[0], '{"t":"users","r":', ...lines().slice(1)].join('\n'))),
          /line 2 is not a JSON object/,
        ],
        [
          'an unknown table',
          () => variant('unknown.gz', gzipSync([lines()[0], '{"t":"nope","r":{}}', ...lines().slice(1)].join('\n'))),
          /does not list/,
        ],
        [
          'another schema version',
          () =>
            variant(
              'schema.gz',
              gzipSync(
                [
                  JSON.stringify({ ...JSON.parse(lines()[0]!), schema_version: 'f'.repeat(64) }),
                  ...lines().slice(1),
                ].join('\n'),
              ),
            ),
          /schema .* differs/,
        ],
        ['a missing file', () => path.join(dir, 'does-not-exist.gz'), /cannot read/],
        // 64 MiB of one line without an end (a gzip bomb of 64 KB): stopped at the line limit, not held whole
        [
          'a line without end',
          () =>
            variant(
              'endless.gz',
              gzipSync(Buffer.concat([Buffer.from(lines()[0]! + '\n'), Buffer.alloc(64 * 1024 * 1024, 0x61)]), {
                level: 9,
              }),
            ),
          /longer than 16777216 bytes/,
        ],
      ];
      // every refusal happens before the database is touched, so one blank database serves them all
      let blank: Database;
      before(async () => {
        blank = await blankPglite();
      });
      after(async () => blank.close());
      for (const [what, make, message] of cases) {
        it(`refuses ${what}`, async () => {
          await assert.rejects(
            restoreBackup(blank, make()),
            (e) => e instanceof BackupError && message.test(e.message),
          );
          assert.equal(await tableExists(blank.db, 'users'), false, 'the database was not touched');
        });
      }

      it('stops reading a file that inflates past its limit (a gzip bomb)', async () => {
        // a real backup under a limit smaller than it inflates to
        await assert.rejects(
          inspectBackup(file, { ...DEFAULT_UPLOAD_LIMITS, backupMaxBytes: 1024 }),
          (e) => e instanceof BackupError && /inflates past 1024 bytes/.test(e.message),
        );
      });

      it('refuses a database that has users, leaving it as it was', async () => {
        await assert.rejects(
          restoreBackup(source, file),
          (e) => e instanceof BackupError && /not empty/.test(e.message),
        );
        assert.deepEqual(await snapshot(source.db), baseline);
      });

      it('restores in one transaction: a row that cannot be inserted leaves nothing behind', async () => {
        const all = lines();
        const bad = all.map((l) => {
          const o = JSON.parse(l);
          if (o.t === 'transactions' && o.r.note === 'n5') o.r.category_id = 987654;
          return JSON.stringify(o);
        });
        const p = variant('fk.gz', gzipSync(bad.join('\n') + '\n'));
        const target = await blankPglite();
        try {
          await assert.rejects(restoreBackup(target, p));
          for (const table of Object.keys(baseline)) {
            const [row] = await query<{ n: number }>(
              target.db,
              sql`select count(*)::int as n from ${sql.identifier(table)}`,
            );
            assert.equal(row!.n, 0, table);
          }
        } finally {
          await target.close();
        }
      });
    });

    describe('command line', () => {
      const cli = (args: string[], env: Record<string, string>) =>
        runCli(args, { JWT_SECRET: TEST_SECRET, LOG_LEVEL: 'silent', ...env });

      it('backup:restore restores into an empty embedded database, and refuses bad files and a second run', async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-cli-'));
        try {
          const notGzip = path.join(dir, 'cli-plain.txt');
          writeFileSync(notGzip, 'hello');
          const refused = cli(['backup:restore', notGzip], { DATA_DIR: dataDir });
          assert.equal(refused.status, 1);
          assert.match(refused.stderr, /restore refused: not a gzip file/);

          const ok = cli(['backup:restore', file], { DATA_DIR: dataDir });
          assert.equal(ok.status, 0, ok.stderr);
          assert.match(ok.stdout, /restored .* into the embedded database/);
          const again = cli(['backup:restore', file], { DATA_DIR: dataDir });
          assert.equal(again.status, 1);
          assert.match(again.stderr, /restore refused: the target database is not empty/);

          const out = path.join(dir, 'cli-made.json.gz');
          const made = cli(['backup:create', out], { DATA_DIR: dataDir });
          assert.equal(made.status, 0, made.stderr);
          const restoredDb = await blankPglite();
          try {
            await restoreBackup(restoredDb, out);
            assert.deepEqual(await snapshot(restoredDb.db), baseline);
          } finally {
            await restoredDb.close();
          }
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      });

      it('backup:restore restores into PostgreSQL through DATABASE_URL', async (t) => {
        if (!(await pgServerAnswers())) {
          t.skip(`no PostgreSQL server answers at ${pgServerLabel()}`);
          return;
        }
        const blank = await blankPgDatabase('ledger_restore');
        const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-cli-'));
        try {
          const ok = cli(['backup:restore', file], { DATA_DIR: dataDir, DATABASE_URL: blank.url });
          assert.equal(ok.status, 0, ok.stderr);
          assert.match(ok.stdout, /into the PostgreSQL database/);
          const db = await createDatabase({ databaseUrl: blank.url, embeddedDbDir: null, poolSize: 2 });
          try {
            assert.deepEqual(await snapshot(db.db), baseline);
          } finally {
            await db.close();
          }
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
          await blank.drop();
        }
      });
    });
  },
);

describe('backup operations over HTTP', () => {
  let t: TestApp;
  let dataDir: string;
  let root: Client;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-backups-'));
    t = await build({ dataDir });
    const admin = await createAdmin(t.db);
    root = t.as(admin);
    const u = await createUser(t.db);
    await createTransaction(t.db, u.id);
  });
  after(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const list = async (api = root) =>
    (await api.get('/api/backup', { query: { pageSize: 100 } })).json() as {
      list: Record<string, unknown>[];
      total: number;
    };
  const settled = (id: number, api = root) =>
    waitFor(async () => {
      const row = (await list(api)).list.find((b) => b.id === id);
      return row && row.status !== 'pending' ? row : undefined;
    }, `backup ${id}`);

  it('creates a backup in the background, lists it with a download token, and serves the file', async () => {
    const res = await root.post('/api/backup');
    assert.equal(res.statusCode, 201, res.body);
    const { id } = res.json();
    assert.ok(Number.isInteger(id));
    const row = await settled(id);
    assert.equal(row.status, 'completed');
    assert.match(row.name as string, /^backup-\d{8}T\d{6}Z-[0-9a-f]{8}$/);
    assert.ok(Date.parse(row.created_at as string) > 0);
    const onDisk = path.join(dataDir, 'backups', `${row.name}.json.gz`);
    assert.equal(row.size, readFileSync(onDisk).length);
    assert.deepEqual(readdirSync(path.join(dataDir, 'backups')), [`${row.name}.json.gz`]);
    const summary = await inspectBackup(onDisk);
    assert.equal(summary.rows.users, 2);

    const token = row.downloadToken as string;
    assert.match(token, /^\d{13}\.[0-9a-f]{64}$/);
    const expiresAt = Number(token.split('.')[0]);
    assert.ok(expiresAt > Date.now() + 9 * 60_000 && expiresAt <= Date.now() + 10 * 60_000);

    const dl = await t.anon.get(`/api/backup/${id}/download?token=${token}`);
    assert.equal(dl.statusCode, 200, dl.body);
    assert.equal(dl.headers['content-type'], 'application/gzip');
    assert.equal(dl.headers['content-disposition'], `attachment; filename="${row.name}.json.gz"`);
    assert.equal(dl.headers['cache-control'], 'no-store');
    assert.equal(dl.headers['referrer-policy'], 'no-referrer');
    assert.equal(dl.headers['x-content-type-options'], 'nosniff');
    assert.ok(dl.rawPayload.equals(readFileSync(onDisk)));
  });

  it('refuses bad, expired and mismatched download tokens with 40101', async () => {
    const { id } = (await root.post('/api/backup')).json();
    const row = await settled(id);
    const other = (await list()).list.find((b) => b.id !== id && b.status === 'completed')!;
    const good = row.downloadToken as string;
    const [exp, mac] = good.split('.') as [string, string];
    const tokens: Record<string, string | undefined> = {
      missing: undefined,
      empty: '',
      garbage: 'nope',
      "another backup's token": other.downloadToken as string,
      'tampered mac': `${exp}.${mac.slice(0, -1)}${mac.endsWith('0') ? '1' : '0'}`,
      'extended expiry': `${Number(exp) + 60_000}.${mac}`,
      expired: signDownloadToken(TEST_SECRET, id, Date.now() - 1000),
      'signed with the raw secret': `${exp}.${(await import('node:crypto')).createHmac('sha256', TEST_SECRET).update(`${id}.${exp}`).digest('hex')}`,
      'an access token': await t.tokenFor(await createAdmin(t.db)),
    };
    for (const [what, token] of Object.entries(tokens)) {
      const url =
        token === undefined
          ? `/api/backup/${id}/download`
          : `/api/backup/${id}/download?token=${encodeURIComponent(token)}`;
      const res = await root.get(url);
      assert.equal(res.statusCode, 401, what);
      assert.equal(res.json().code, 40101, what);
    }
    // a valid token made for a later expiry works: only the signature and the time matter
    const later = signDownloadToken(TEST_SECRET, id, Date.now() + 60_000);
    assert.equal((await t.anon.get(`/api/backup/${id}/download?token=${later}`)).statusCode, 200);
    assert.equal((await t.anon.get(`/api/backup/abc/download?token=${later}`)).json().code, 40001);
  });

  it('gives no token to pending or failed backups, and records failures', async () => {
    const broken = mkdtempSync(path.join(tmpdir(), 'ledger-broken-'));
    writeFileSync(path.join(broken, 'backups'), 'a file where the folder should be');
    const other = await build({ dataDir: broken }, { database: t.testDb });
    await t.db.insert(backups).values({ name: 'backup-pending-row', status: 'pending' });
    try {
      const otherAdmin = other.as(await createAdmin(t.db));
      const { id } = (await otherAdmin.post('/api/backup')).json();
      const row = await settled(id, otherAdmin);
      assert.equal(row.status, 'failed');
      assert.equal('downloadToken' in row, false);
      const [stored] = await t.db.select().from(backups).where(eq(backups.id, id));
      assert.ok(stored!.error && stored!.error.length > 0);
      const pending = (await list()).list.find((b) => b.name === 'backup-pending-row')!;
      assert.equal(pending.status, 'pending');
      assert.equal('downloadToken' in pending, false);
      // a valid token of a backup that is not completed finds nothing
      const res = await t.anon.get(
        `/api/backup/${id}/download?token=${signDownloadToken(TEST_SECRET, id, Date.now() + 60_000)}`,
      );
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 40401);
    } finally {
      await other.close();
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('marks backups left pending by a stopped process as failed at start-up', async () => {
    const [row] = await t.db
      .insert(backups)
      .values({ name: 'backup-interrupted', status: 'pending', createdAt: new Date(Date.now() - 7 * 3600_000) })
      .returning();
    const restarted = await build({ dataDir }, { database: t.testDb });
    try {
      const [stored] = await t.db.select().from(backups).where(eq(backups.id, row!.id));
      assert.equal(stored!.status, 'failed');
      assert.match(stored!.error ?? '', /interrupted/);
    } finally {
      await restarted.close();
    }
  });

  it('lists newest first with pagination', async () => {
    const all = await list();
    assert.equal(all.total, all.list.length);
    const times = all.list.map((b) => Date.parse(b.created_at as string));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    const page = (await root.get('/api/backup?pageSize=1&page=2')).json();
    assert.equal(page.total, all.total);
    assert.deepEqual(
      page.list.map((b: { id: number }) => b.id),
      [all.list[1]!.id],
    );
    for (const qs of ['page=0', 'pageSize=101', 'pageSize=abc']) {
      assert.equal((await root.get(`/api/backup?${qs}`)).json().code, 40001, qs);
    }
  });

  it('deletes the row and the file; a missing backup is 40401', async () => {
    const { id } = (await root.post('/api/backup')).json();
    const row = await settled(id);
    const onDisk = path.join(dataDir, 'backups', `${row.name}.json.gz`);
    assert.ok(existsSync(onDisk));
    const del = await root.delete(`/api/backup/${id}`);
    assert.equal(del.statusCode, 204, del.body);
    assert.equal(del.body, '');
    assert.equal(existsSync(onDisk), false);
    assert.equal(
      (await list()).list.some((b) => b.id === id),
      false,
    );
    const again = await root.delete(`/api/backup/${id}`);
    assert.equal(again.statusCode, 404);
    assert.equal(again.json().code, 40401);
    // the token issued before the deletion no longer finds anything
    const dl = await t.anon.get(`/api/backup/${id}/download?token=${row.downloadToken}`);
    assert.equal(dl.json().code, 40401);
    assert.equal((await root.delete('/api/backup/999999')).json().code, 40401);
  });

  it('finishes a running backup before the app closes; one deleted while running leaves no file', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'ledger-closing-'));
    try {
      const other = await build({ dataDir: own }, { database: t.testDb });
      const api = other.as(await createAdmin(t.db));
      const { id } = (await api.post('/api/backup')).json();
      const { id: doomed } = (await api.post('/api/backup')).json();
      assert.equal((await api.delete(`/api/backup/${doomed}`)).statusCode, 204);
      await other.close();
      const [row] = await t.db.select().from(backups).where(eq(backups.id, id));
      assert.equal(row!.status, 'completed');
      assert.deepEqual(readdirSync(path.join(own, 'backups')), [`${row!.name}.json.gz`]);
      assert.equal((await t.db.select().from(backups).where(eq(backups.id, doomed))).length, 0);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('is for administrators only, except the download which needs its token', async () => {
    const user = t.as(await createUser(t.db));
    for (const [method, url] of [
      ['GET', '/api/backup'],
      ['POST', '/api/backup'],
      ['DELETE', '/api/backup/1'],
    ] as const) {
      assert.equal((await user.request(method, url)).json().code, 40301, `${method} ${url}`);
      assert.equal((await t.anon.request(method, url)).json().code, 40101, `${method} ${url}`);
    }
    assert.equal((await root.get('/api/backup/1/download')).json().code, 40101);
  });
});

describe('test database helper compatibility', () => {
  it('backs up the suite database (embedded or PostgreSQL) and restores it into a blank embedded one', async () => {
    const testDb = await createTestDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-backup-'));
    const target = await blankPglite();
    try {
      await fillEveryTable(testDb.database.db);
      const file = path.join(dir, 'suite.json.gz');
      await writeBackup(testDb.database.db, file);
      await restoreBackup(target, file);
      assert.deepEqual(await snapshot(target.db), await snapshot(testDb.database.db));
    } finally {
      await target.close();
      await testDb.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
