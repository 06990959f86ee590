import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../src/db/client.ts';
import { idempotencyKeys, users } from '../src/db/schema/index.ts';
import { AppError } from '../src/lib/errors.ts';
import {
  parseIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  requestHash,
  withIdempotency,
} from '../src/modules/idempotency/index.ts';
import { createTestDatabase, createUser, onPostgres, type TestDatabase } from './helpers/index.ts';

const code = (err: unknown) => (err instanceof AppError ? err.code : err);

describe('idempotency keys', () => {
  let tdb: TestDatabase;
  let db: Db;

  before(async () => {
    tdb = await createTestDatabase();
    db = tdb.database.db;
  });
  after(async () => tdb.drop());

  /** an operation that counts its runs */
  function op<T>(result: { status: number; body: T }) {
    const state = { runs: 0 };
    const run = async () => {
      state.runs++;
      return result;
    };
    return { state, run };
  }
  const rowsOf = (userId: number) => db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));

  it('checks the header: absent is fine, 1 to 64 visible ASCII characters, else 40001', () => {
    assert.equal(parseIdempotencyKey(undefined), undefined);
    assert.equal(parseIdempotencyKey(null), undefined);
    for (const ok of [
      'a',
      'x'.repeat(64),
      'Z9-_.~!"#$%&\'()*+,/:;<=>?@[\\]^`{|}',
      '550e8400-e29b-41d4-a716-446655440000',
    ])
      assert.equal(parseIdempotencyKey(ok), ok);
    for (const bad of ['', 'x'.repeat(65), 'a b', 'é', '\t', 'a\n', '\u007f', ['a', 'b']]) {
      assert.throws(
        () => parseIdempotencyKey(bad),
        (e: unknown) => code(e) === 40001,
        JSON.stringify(bad),
      );
    }
  });

  it('hashes bodies independently of key order, and file bytes by content', () => {
    assert.equal(requestHash({ a: 1, b: { c: [1, 2], d: 'x' } }), requestHash({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    assert.equal(requestHash({ a: 1, skip: undefined }), requestHash({ a: 1 }));
    assert.notEqual(requestHash({ a: 1 }), requestHash({ a: '1' }));
    assert.notEqual(requestHash({ list: [1, 2] }), requestHash({ list: [2, 1] }));
    assert.equal(requestHash({ file: Buffer.from('abc'), q: 1 }), requestHash({ q: 1, file: Buffer.from('abc') }));
    assert.notEqual(requestHash({ file: Buffer.from('abc') }), requestHash({ file: Buffer.from('abd') }));
    assert.match(requestHash(undefined), /^[0-9a-f]{64}$/);
  });

  it('runs every time without a key', async () => {
    const u = await createUser(db);
    const { state, run } = op({ status: 201, body: { id: 1 } });
    for (let i = 0; i < 3; i++) {
      const out = await withIdempotency(db, { userId: u.id, scope: 's', key: undefined, body: {} }, run);
      assert.deepEqual(out, { status: 201, body: { id: 1 }, replayed: false });
    }
    assert.equal(state.runs, 3);
    assert.equal((await rowsOf(u.id)).length, 0);
  });

  it('runs once and replays the stored answer for the same body; another body is 42202', async () => {
    const u = await createUser(db);
    const { state, run } = op({
      status: 201,
      body: { id: 7, amount: 12.5, when: new Date('2026-01-02T03:04:05.006Z'), gone: undefined },
    });
    const req = { userId: u.id, scope: 'transactions.create', key: 'k1', body: { amount: '12.50', kind: 'expense' } };
    const first = await withIdempotency(db, req, run);
    assert.equal(first.replayed, false);
    assert.equal(first.status, 201);
    const again = await withIdempotency(db, { ...req, body: { kind: 'expense', amount: '12.50' } }, run);
    assert.equal(state.runs, 1);
    assert.equal(again.replayed, true);
    assert.equal(again.status, 201);
    // what was stored is the JSON the client got the first time
    assert.deepEqual(again.body, JSON.parse(JSON.stringify(first.body)));
    await assert.rejects(
      withIdempotency(db, { ...req, body: { amount: '13', kind: 'expense' } }, run),
      (e: unknown) => code(e) === 42202,
    );
    assert.equal(state.runs, 1);
    const [row] = await rowsOf(u.id);
    assert.equal(row!.status, 'done');
    assert.equal(row!.responseStatus, 201);
  });

  it('keeps keys apart per user and per scope', async () => {
    const u1 = await createUser(db);
    const u2 = await createUser(db);
    const { state, run } = op({ status: 200, body: { ok: true } });
    await withIdempotency(db, { userId: u1.id, scope: 'a', key: 'shared', body: 1 }, run);
    await withIdempotency(db, { userId: u2.id, scope: 'a', key: 'shared', body: 2 }, run);
    await withIdempotency(db, { userId: u1.id, scope: 'b', key: 'shared', body: 3 }, run);
    assert.equal(state.runs, 3);
  });

  it('writes the operation and its answer in one transaction: a failure after the write leaves neither', async () => {
    const u = await createUser(db);
    const req = { userId: u.id, scope: 's', key: 'atomic', body: { x: 1 } };
    const before = await db.select().from(users).where(eq(users.id, u.id));
    // the write succeeds inside the transaction, then the process "fails" before the answer is recorded
    await assert.rejects(
      withIdempotency(db, req, async (tx) => {
        await tx.update(users).set({ nickname: 'written' }).where(eq(users.id, u.id));
        throw new Error('connection lost');
      }),
      /connection lost/,
    );
    assert.deepEqual(await db.select().from(users).where(eq(users.id, u.id)), before, 'the write was rolled back');
    assert.equal((await rowsOf(u.id)).length, 0, 'no pending key is left behind');
    // the retry runs exactly once and then replays
    let runs = 0;
    const run = async (tx: Executor) => {
      runs++;
      await tx.update(users).set({ nickname: 'written' }).where(eq(users.id, u.id));
      return { status: 201, body: { ok: true } };
    };
    assert.equal((await withIdempotency(db, req, run)).replayed, false);
    assert.equal((await withIdempotency(db, req, run)).replayed, true);
    assert.equal(runs, 1);
    const [row] = await rowsOf(u.id);
    assert.equal(row!.status, 'done');
  });

  it('releases the key when the first attempt throws or answers non-2xx', async () => {
    const u = await createUser(db);
    const req = { userId: u.id, scope: 's', key: 'retry', body: { x: 1 } };
    const boom = new AppError(403, 40302, 'not a member');
    await assert.rejects(
      withIdempotency(db, req, async () => {
        throw boom;
      }),
      (e: unknown) => e === boom,
    );
    assert.equal((await rowsOf(u.id)).length, 0);
    const refused = await withIdempotency(db, req, async () => ({ status: 422, body: { code: 42203 } }));
    assert.deepEqual(refused, { status: 422, body: { code: 42203 }, replayed: false });
    assert.equal((await rowsOf(u.id)).length, 0);
    const { state, run } = op({ status: 201, body: { id: 3 } });
    assert.equal((await withIdempotency(db, req, run)).replayed, false);
    assert.equal((await withIdempotency(db, req, run)).replayed, true);
    assert.equal(state.runs, 1);
  });

  it('answers 40903 while the first is running, and the first still completes', async () => {
    const u = await createUser(db);
    const req = { userId: u.id, scope: 's', key: 'slow', body: { x: 1 } };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const slow = withIdempotency(db, req, async () => {
      runs++;
      await gate;
      return { status: 201, body: { id: 1 } };
    });
    // wait until the first is running
    for (let i = 0; i < 200 && runs === 0; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(runs, 1);
    await assert.rejects(
      withIdempotency(db, req, async () => ({ status: 201, body: { id: 2 } })),
      (e: unknown) => code(e) === 40903,
    );
    await assert.rejects(
      withIdempotency(db, { ...req, body: { x: 2 } }, async () => ({ status: 201, body: { id: 2 } })),
      (e: unknown) => code(e) === 42202,
    );
    release();
    assert.deepEqual(await slow, { status: 201, body: { id: 1 }, replayed: false });
    const replay = await withIdempotency(db, req, async () => ({ status: 201, body: { id: 3 } }));
    assert.deepEqual(replay, { status: 201, body: { id: 1 }, replayed: true });
    assert.equal(runs, 1);
  });

  it('forgets keys after 24 hours and takes over a claim abandoned for 10 minutes', async () => {
    const u = await createUser(db);
    const where = (key: string) => and(eq(idempotencyKeys.userId, u.id), eq(idempotencyKeys.key, key));
    const { state, run } = op({ status: 201, body: { id: 1 } });
    await withIdempotency(db, { userId: u.id, scope: 's', key: 'old', body: 1 }, run);
    await withIdempotency(db, { userId: u.id, scope: 's', key: 'other-old', body: 1 }, run);
    await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 24 * 3_600_000 - 60_000) })
      .where(eq(idempotencyKeys.userId, u.id));
    // an expired key is free, whatever body it had
    const fresh = await withIdempotency(db, { userId: u.id, scope: 's', key: 'old', body: 2 }, run);
    assert.equal(fresh.replayed, false);
    assert.equal(state.runs, 3);
    assert.deepEqual(
      await db.select().from(idempotencyKeys).where(where('other-old')),
      [],
      "the user's expired keys are cleared",
    );
    // a key pending for 9 minutes is still in progress; after 10 it is abandoned
    await db.insert(idempotencyKeys).values({
      userId: u.id,
      scope: 's',
      key: 'stuck',
      requestHash: requestHash(5),
      status: 'pending',
      createdAt: new Date(Date.now() - 9 * 60_000),
    });
    await assert.rejects(
      withIdempotency(db, { userId: u.id, scope: 's', key: 'stuck', body: 5 }, run),
      (e: unknown) => code(e) === 40903,
    );
    await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
      .where(where('stuck'));
    assert.equal((await withIdempotency(db, { userId: u.id, scope: 's', key: 'stuck', body: 5 }, run)).replayed, false);
    assert.equal(state.runs, 4);
    // a completed answer is kept for the whole day
    await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 23 * 3_600_000) })
      .where(where('stuck'));
    assert.equal((await withIdempotency(db, { userId: u.id, scope: 's', key: 'stuck', body: 5 }, run)).replayed, true);
    assert.equal(state.runs, 4);
  });

  it('purges expired keys of every user', async () => {
    const u1 = await createUser(db);
    const u2 = await createUser(db);
    const old = new Date(Date.now() - 25 * 3_600_000);
    await db.insert(idempotencyKeys).values([
      {
        userId: u1.id,
        scope: 's',
        key: 'p1',
        requestHash: 'h',
        status: 'done',
        responseStatus: 201,
        responseBody: {},
        createdAt: old,
      },
      {
        userId: u2.id,
        scope: 's',
        key: 'p2',
        requestHash: 'h',
        status: 'done',
        responseStatus: 201,
        responseBody: {},
        createdAt: old,
      },
      { userId: u2.id, scope: 's', key: 'p3', requestHash: 'h', status: 'done', responseStatus: 201, responseBody: {} },
    ]);
    assert.ok((await purgeExpiredIdempotencyKeys(db)) >= 2);
    assert.deepEqual(
      (await rowsOf(u2.id)).map((r) => r.key),
      ['p3'],
    );
    assert.deepEqual(await rowsOf(u1.id), []);
  });

  it(`lets exactly one of 10 concurrent requests run (${onPostgres ? 'PostgreSQL pool' : 'embedded database'})`, async () => {
    const u = await createUser(db);
    let runs = 0;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        withIdempotency(db, { userId: u.id, scope: 's', key: 'race', body: { same: true } }, async () => {
          runs++;
          await new Promise((r) => setTimeout(r, 30));
          return { status: 201, body: { id: 42 } };
        }),
      ),
    );
    assert.equal(runs, 1);
    for (const o of outcomes) {
      if (o.status === 'fulfilled') assert.deepEqual(o.value.body, { id: 42 });
      else assert.equal(code(o.reason), 40903);
    }
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled' && !o.value.replayed).length, 1);
  });
});
