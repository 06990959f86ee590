// The list's page is written by PostgreSQL as JSON text (transactions.page.ts), while one transaction is
// mapped and serialized in TypeScript. Here both meet on generated rows: every list item equals what
// the transaction itself answers (its files aside), and the whole list body is byte for byte what the
// response schema's serializer writes for it: numbers without trailing zeros in every currency's
// decimals, timestamps as toISOString writes them, any text escaped as JSON.stringify escapes it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import sharp from 'sharp';
import { Value } from 'typebox/value';
import { query } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { nullableAsTypeList } from '../src/lib/serializer-schema.ts';
import { TransactionList } from '../src/modules/transactions/transactions.schemas.ts';
import {
  addMember,
  build,
  createAccount,
  createCategory,
  createTag,
  createTransaction,
  createUser,
  expectOk,
  firstCategory,
  multipart,
  tagTransaction,
  type Client,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

// the serializer Fastify itself compiles responses with (its own dependency), as the app compiles it
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const fjs = fastifyRequire('fast-json-stringify') as (schema: unknown) => (data: unknown) => string;
const serializeList = fjs(nullableAsTypeList(TransactionList));

type Item = { id: number; attachments: unknown[] } & Record<string, unknown>;

// any text PostgreSQL keeps (no NUL): control characters, quotes, backslashes, CJK, emoji, U+2028
const text = fc.string({ unit: 'binary', maxLength: 24 }).map((s) => s.replaceAll('\u0000', ''));
const nonEmpty = (s: string) => (s === '' ? '-' : s);
// minor units within what the API books (15 digits at most), both signs
const minor = fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }).map(Number);
const currency = fc.constantFrom('CNY', 'USD', 'JPY', 'KRW', 'KWD', 'BHD', 'CLP', 'EUR');
// an instant from 1970 to 2100 with microseconds
const micros = fc.bigInt({ min: 0n, max: 4_102_444_800_000_000n });

const rowSpec = fc.record({
  kind: fc.constantFrom('expense', 'income', 'transfer', 'adjustment'),
  amount: minor,
  currency,
  note: text,
  categoryName: fc.option(text.map(nonEmpty), { nil: null }),
  categoryAuto: fc.boolean(),
  tagNames: fc.array(text.map(nonEmpty), { maxLength: 3 }),
  original: fc.option(fc.record({ amount: minor, currency }), { nil: null }),
  toAmount: minor,
  toCurrency: currency,
  rate: fc.option(fc.constantFrom('7.1234', '0.05', '1', '150.5'), { nil: null }),
  linkPrevious: fc.boolean(),
  createdAt: micros,
  updatedAt: micros,
});

describe('the list page written by the database', () => {
  let t: TestApp;
  let alice: UserRow;
  let a: Client;
  let day = 0;
  let n = 0;

  before(async () => {
    t = await build({ receipts: { ocr: false, queue: 0, quotaBytes: 20 * 1024 * 1024 } });
    alice = await createUser(t.db);
    a = t.as(alice);
  });
  after(async () => t.close());

  /** The list of `query` as `who`: its body is the serializer's, and each item what its transaction answers. */
  async function assertPage(who: Client, q: Record<string, string | number>): Promise<Item[]> {
    const res = await who.get('/api/transactions', { query: { pageSize: 100, ...q } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const page = JSON.parse(res.body) as { list: Item[] };
    assert.ok(Value.Check(TransactionList, page), 'the page matches its response schema');
    assert.equal(res.body, serializeList(page), 'the page is what the serializer writes, byte for byte');
    for (const item of page.list) {
      const { attachments, ...rest } = item;
      assert.deepEqual(rest, expectOk(await who.get(`/api/transactions/${item.id}`)));
      const files = expectOk(await who.get(`/api/transactions/${item.id}/attachments`)).list as Item[];
      assert.deepEqual(
        attachments,
        files.map(({ id, mime, name, has_thumbnail }) => ({ id, mime, name, has_thumbnail })),
      );
    }
    return page.list;
  }

  it('writes rows of every kind, currency, text and instant as one transaction answers them', async () => {
    const other = await createAccount(t.db, alice.id, { currency: 'JPY' });
    const expense = await firstCategory(t.db, alice.id);
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowSpec, { minLength: 1, maxLength: 5 }),
        text,
        fc.option(text, { nil: null }),
        async (specs, nickname, avatar) => {
          day += 1;
          const date = new Date(Date.UTC(2001, 0, day)).toISOString().slice(0, 10);
          await t.db.update(users).set({ nickname, avatarUrl: avatar }).where(eq(users.id, alice.id));
          let previous: number | null = null;
          for (const s of specs) {
            const categorized = s.kind === 'expense' || s.kind === 'income';
            const category =
              categorized && s.categoryName !== null
                ? await createCategory(t.db, alice.id, {
                    kind: s.kind as 'expense' | 'income',
                    name: `${s.categoryName}${(n += 1)}`,
                  })
                : null;
            const original = s.original && s.original.currency !== s.currency ? s.original : null;
            const row = await createTransaction(t.db, alice.id, {
              kind: s.kind,
              amountMinor: s.amount,
              currency: s.currency,
              note: s.note,
              date,
              categoryId: categorized ? (category?.id ?? expense.id) : null,
              categoryAuto: s.categoryAuto,
              rate: s.rate,
              originalAmountMinor: original?.amount ?? null,
              originalCurrency: original?.currency ?? null,
              ...(s.kind === 'transfer'
                ? { toAccountId: other.id, toAmount: s.toAmount, toCurrency: s.toCurrency }
                : {}),
              ...(s.linkPrevious && previous !== null ? { refundOf: previous, parentId: previous } : {}),
            });
            previous = row.id;
            const tagIds: number[] = [];
            for (const name of s.tagNames)
              tagIds.push((await createTag(t.db, alice.id, { name: `${name}${(n += 1)}` })).id);
            await tagTransaction(t.db, row.id, tagIds);
            await query(
              t.db,
              sql`update transactions set created_at = 'epoch'::timestamptz + ${String(s.createdAt)}::bigint * interval '1 microsecond',
                updated_at = 'epoch'::timestamptz + ${String(s.updatedAt)}::bigint * interval '1 microsecond'
                where id = ${row.id}`,
            );
          }
          const page = await assertPage(a, { startDate: date, endDate: date });
          assert.equal(page.length, specs.length);
        },
      ),
      { numRuns: Number(process.env.PAGE_JSON_RUNS ?? 40) },
    );
  });

  it("writes a group's records with every split mode, in its currency's decimals, and a row's files", async () => {
    const [bob, carol] = [await createUser(t.db), await createUser(t.db)];
    const category = await firstCategory(t.db, alice.id);
    for (const groupCurrency of ['CNY', 'JPY', 'KWD']) {
      const g = expectOk(
        await a.post('/api/groups', { name: `Trip ${groupCurrency}`, currency: groupCurrency, split_costs: true }),
        201,
      );
      for (const u of [bob, carol]) await addMember(t.db, g.id, u.id);
      const account = await createAccount(t.db, alice.id, { currency: groupCurrency });
      const amount = groupCurrency === 'JPY' ? 1000 : groupCurrency === 'KWD' ? '10.001' : '100.01';
      const record = (split?: object) =>
        a.post('/api/transactions', {
          kind: 'expense',
          amount,
          category_id: category.id,
          date: '2002-02-02',
          group_id: g.id,
          account_id: account.id,
          ...(groupCurrency === 'CNY' ? {} : { rate: groupCurrency === 'JPY' ? '0.0481' : '23.45' }),
          note: `"split" \\ ${groupCurrency}\n`,
          ...(split ? { split } : {}),
        });
      expectOk(await record(), 201);
      expectOk(
        await record({
          mode: 'shares',
          members: [
            { user_id: alice.id, value: 1 },
            { user_id: bob.id, value: 2 },
          ],
        }),
        201,
      );
      expectOk(
        await record({
          mode: 'percent',
          members: [
            { user_id: alice.id, value: 33.33 },
            { user_id: bob.id, value: '33.33' },
            { user_id: carol.id, value: 33.34 },
          ],
        }),
        201,
      );
      expectOk(await record({ mode: 'exact', members: [{ user_id: carol.id, value: amount }] }), 201);
      const items = await assertPage(t.as(bob), { group_id: g.id });
      assert.equal(items.length, 4);
      assert.deepEqual(items.map((i) => (i.split as { mode: string }).mode).sort(), [
        'equal',
        'exact',
        'percent',
        'shares',
      ]);
    }
    // a record nobody shares (a group that does not split costs): shares [] and split null
    const plain = expectOk(await a.post('/api/groups', { name: 'Flat', split_costs: false }), 201);
    expectOk(
      await a.post('/api/transactions', {
        kind: 'expense',
        amount: 3,
        category_id: category.id,
        date: '2002-03-03',
        group_id: plain.id,
      }),
      201,
    );
    const [flat] = await assertPage(a, { group_id: plain.id });
    assert.deepEqual([flat!.shares, flat!.split], [[], null]);

    // files: the list names them in the order they were attached
    const row = await createTransaction(t.db, alice.id, { date: '2002-04-04', note: '附件' });
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const pdf = readFileSync(new URL('./fixtures/receipts/invoice.pdf', import.meta.url));
    const uploaded: unknown[] = [];
    for (const [name, bytes] of [
      ['小票.png', png],
      ['invoice.pdf', pdf],
    ] as const) {
      const res = await a.post(`/api/transactions/${row.id}/attachments`, multipart(bytes, { filename: name }));
      assert.equal(res.statusCode, 201, res.body);
      const { id, mime, has_thumbnail } = res.json<{ id: number; mime: string; has_thumbnail: boolean }>();
      uploaded.push({ id, mime, name, has_thumbnail });
    }
    const [withFiles] = await assertPage(a, { startDate: '2002-04-04', endDate: '2002-04-04' });
    assert.deepEqual(withFiles!.attachments, uploaded);
    assert.deepEqual(
      withFiles!.attachments.map((f) => (f as { has_thumbnail: boolean }).has_thumbnail),
      [true, false],
    );
  });
});
