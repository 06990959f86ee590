import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addDays, todayIn } from '../src/lib/dates.ts';
import { createLogger } from '../src/lib/logger.ts';
import { build, type Client, createAdmin, createUser, type TestApp } from './helpers/index.ts';

const TZ = 'America/Los_Angeles';
const line = (level: number, msg: string, extra: Record<string, unknown> = {}, time = '2026-01-01T00:00:00.000Z') =>
  JSON.stringify({ level, time, pid: 1, hostname: 'h', ...extra, msg }) + '\n';

describe('log files', () => {
  let t: TestApp;
  let dir: string;
  let root: Client;
  const today = todayIn(TZ);
  const old = addDays(today, -30);

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ledger-logs-'));
    t = await build({ logDir: dir, appTimezone: TZ });
    root = t.as(await createAdmin(t.db));
    // an old day: every level, a custom level, a line that is no entry at all
    writeFileSync(
      path.join(dir, `app-${old}.log`),
      [
        line(10, 'trace one'),
        line(20, 'debug one'),
        line(30, 'request completed', { reqId: 'r-1', res: { statusCode: 200 } }, '2025-12-01T10:00:00.000Z'),
        line(30, 'Second INFO with Needle', {}, '2025-12-01T11:00:00.000Z'),
        line(40, 'warn one'),
        line(50, 'error one', { err: { type: 'Error', message: 'boom' } }),
        line(60, 'fatal one'),
        line(35, 'custom level'),
        'not json at all\n',
        '{"broken": \n',
        '\n',
        JSON.stringify({ time: 1767225600000, level: 30, msg: 'epoch time' }) + '\n',
      ].join(''),
    );
    writeFileSync(path.join(dir, `app-${today}.log`), line(30, 'today first') + line(50, 'today error'));
    // not log files of ours: never listed or read
    writeFileSync(path.join(dir, 'other.log'), line(30, 'x'));
    writeFileSync(path.join(dir, 'app-2025-13-01.log'), line(30, 'x'));
    writeFileSync(path.join(dir, `app-${old}.log.1`), line(30, 'x'));
    mkdirSync(path.join(dir, 'app-2025-11-11.log'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the daily files newest first', async () => {
    const res = await root.get('/api/logs/files');
    assert.equal(res.statusCode, 200, res.body);
    const { list } = res.json();
    assert.deepEqual(
      list.map((f: { name: string }) => f.name),
      [`app-${today}.log`, `app-${old}.log`],
    );
    assert.equal(list[1].date, old);
    assert.ok(list[1].size > 100);
  });

  it('counts entries per level for one day or the last n days', async () => {
    const one = (await root.get(`/api/logs/stats?date=${old}`)).json();
    assert.deepEqual(one.list, [
      { date: old, total: 9, levels: { trace: 1, debug: 1, info: 3, warn: 1, error: 1, fatal: 1 } },
    ]);
    const week = (await root.get('/api/logs/stats')).json().list;
    assert.equal(week.length, 7);
    assert.deepEqual(
      week.map((d: { date: string }) => d.date),
      [0, 1, 2, 3, 4, 5, 6].map((n) => addDays(today, -n)),
    );
    assert.deepEqual(week[0], {
      date: today,
      total: 2,
      levels: { trace: 0, debug: 0, info: 1, warn: 0, error: 1, fatal: 0 },
    });
    assert.deepEqual(week[1].levels, { trace: 0, debug: 0, info: 0, warn: 0, error: 0, fatal: 0 });
    const long = (await root.get('/api/logs/stats?days=90')).json().list;
    assert.equal(long.length, 90);
    assert.equal(long[30].date, old);
    assert.equal(long[30].total, 9);
    // a file that grows is counted again
    appendFileSync(path.join(dir, `app-${today}.log`), line(40, 'later warning'));
    const again = (await root.get('/api/logs/stats?days=1')).json().list;
    assert.equal(again[0].total, 3);
    assert.equal(again[0].levels.warn, 1);
  });

  it('validates the statistics query', async () => {
    for (const qs of [
      'days=0',
      'days=91',
      'days=x',
      'date=2025-02-30',
      'date=20251201',
      `date=${old}&days=3`,
      'date=..%2F..%2Fetc%2Fpasswd',
    ]) {
      const res = await root.get(`/api/logs/stats?${qs}`);
      assert.equal(res.statusCode, 400, qs);
      assert.equal(res.json().code, 40001, qs);
    }
  });

  it('queries one day newest first, with exact level and case-insensitive keyword', async () => {
    const res = await root.get(`/api/logs/query?date=${old}`);
    assert.equal(res.statusCode, 200, res.body);
    const { list, total } = res.json();
    assert.equal(total, 9);
    assert.deepEqual(
      list.map((e: { msg: string }) => e.msg),
      [
        'epoch time',
        'custom level',
        'fatal one',
        'error one',
        'warn one',
        'Second INFO with Needle',
        'request completed',
        'debug one',
        'trace one',
      ],
    );
    assert.deepEqual(list[0], { time: '2026-01-01T00:00:00.000Z', level: 'info', msg: 'epoch time' });
    assert.equal(list[1].level, '35');
    assert.deepEqual(list[6], {
      time: '2025-12-01T10:00:00.000Z',
      level: 'info',
      msg: 'request completed',
      pid: 1,
      hostname: 'h',
      reqId: 'r-1',
      res: { statusCode: 200 },
    });
    assert.deepEqual(list[3].err, { type: 'Error', message: 'boom' });

    const infos = (await root.get(`/api/logs/query?date=${old}&level=info`)).json();
    assert.equal(infos.total, 3);
    assert.ok(infos.list.every((e: { level: string }) => e.level === 'info'));
    const errors = (await root.get(`/api/logs/query?date=${old}&level=error`)).json();
    assert.deepEqual(
      errors.list.map((e: { msg: string }) => e.msg),
      ['error one'],
    );
    const needle = (await root.get(`/api/logs/query?date=${old}&keyword=nEEdLe`)).json();
    assert.deepEqual(
      needle.list.map((e: { msg: string }) => e.msg),
      ['Second INFO with Needle'],
    );
    // the keyword looks at the whole raw line, not only the message
    const byField = (await root.get(`/api/logs/query?date=${old}&keyword=R-1`)).json();
    assert.equal(byField.total, 1);
    const both = (await root.get(`/api/logs/query?date=${old}&keyword=one&level=warn`)).json();
    assert.deepEqual(
      both.list.map((e: { msg: string }) => e.msg),
      ['warn one'],
    );
    const paged = (await root.get(`/api/logs/query?date=${old}&pageSize=4&page=3`)).json();
    assert.equal(paged.total, 9);
    assert.deepEqual(
      paged.list.map((e: { msg: string }) => e.msg),
      ['trace one'],
    );
    const beyond = (await root.get(`/api/logs/query?date=${old}&pageSize=4&page=9`)).json();
    assert.deepEqual(beyond, { list: [], total: 9 });
  });

  it('defaults to today in APP_TIMEZONE and answers an empty page for a day without a file', async () => {
    const res = (await root.get('/api/logs/query')).json();
    assert.equal(res.list[0].msg, 'later warning');
    assert.equal(res.list.at(-1).msg, 'today first');
    assert.deepEqual((await root.get('/api/logs/query?date=2020-01-01')).json(), { list: [], total: 0 });
  });

  it('pages deep into a large file correctly', async () => {
    const day = '2025-10-10';
    const rows: string[] = [];
    for (let i = 0; i < 7000; i++) rows.push(line(i % 3 === 0 ? 40 : 30, `entry ${i}`));
    writeFileSync(path.join(dir, `app-${day}.log`), rows.join(''));
    const msgs = (qs: string) => root.get(`/api/logs/query?date=${day}&${qs}`).then((r) => r.json());
    const shallow = await msgs('pageSize=100&page=2');
    assert.equal(shallow.total, 7000);
    assert.deepEqual(shallow.list.map((e: { msg: string }) => e.msg).slice(0, 2), ['entry 6899', 'entry 6898']);
    const deep = await msgs('pageSize=100&page=60');
    assert.equal(deep.list.length, 100);
    assert.equal(deep.list[0].msg, 'entry 1099');
    assert.equal(deep.list[99].msg, 'entry 1000');
    const last = await msgs('pageSize=100&page=70');
    assert.equal(last.list.at(-1).msg, 'entry 0');
    const warnDeep = await msgs('level=warn&pageSize=100&page=23');
    // warnings are entries 0, 3, ..., 6999 (2334 of them); page 23 holds newest-first positions 2200..2299
    assert.equal(warnDeep.total, 2334);
    assert.equal(warnDeep.list[0].msg, `entry ${(2333 - 2200) * 3}`);
    assert.equal(warnDeep.list.length, 100);
    const warnDeeper = await msgs('level=warn&pageSize=100&page=60');
    assert.deepEqual(warnDeeper.list, []);
  });

  it('validates the query and never leaves LOG_DIR', async () => {
    for (const qs of [
      'level=verbose',
      'level=30',
      'date=2025-12-1',
      'date=..%2Fsecret',
      'date=2025-12-01%2F..',
      'keyword=',
      `keyword=${'k'.repeat(201)}`,
      'pageSize=101',
    ]) {
      const res = await root.get(`/api/logs/query?${qs}`);
      assert.equal(res.statusCode, 400, qs);
      assert.equal(res.json().code, 40001, qs);
    }
  });

  it('reads what the service logger writes', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'ledger-logs-'));
    try {
      const { logger, close } = createLogger({ level: 'info', logDir: own, timezone: TZ, stdout: false });
      logger.info({ reqId: 'abc', req: { url: '/api/export?token=secret' } }, 'hello from the logger');
      logger.error({ err: new Error('kaput') }, 'it failed');
      logger.debug('not written at info');
      close();
      await new Promise((r) => setTimeout(r, 100));
      const app = await build({ logDir: own, appTimezone: TZ }, { database: t.testDb });
      try {
        const h = app.as(await createAdmin(t.db));
        const res = (await h.get('/api/logs/query')).json();
        assert.equal(res.total, 2);
        assert.equal(res.list[0].msg, 'it failed');
        assert.equal(res.list[0].level, 'error');
        assert.equal(res.list[0].err.message, 'kaput');
        assert.equal(res.list[1].reqId, 'abc');
        assert.equal(res.list[1].req.url, '/api/export?token=[REDACTED]');
        assert.ok(Date.parse(res.list[1].time) > 0);
        const files = (await h.get('/api/logs/files')).json();
        assert.deepEqual(
          files.list.map((f: { date: string }) => f.date),
          [todayIn(TZ)],
        );
      } finally {
        await app.close();
      }
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('answers an empty list when LOG_DIR does not exist', async () => {
    const app = await build({ logDir: path.join(dir, 'missing', 'deeper') }, { database: t.testDb });
    try {
      const h = app.as(await createAdmin(t.db));
      assert.deepEqual((await h.get('/api/logs/files')).json(), { list: [] });
      assert.deepEqual((await h.get('/api/logs/query')).json(), { list: [], total: 0 });
    } finally {
      await app.close();
    }
  });

  it('is for administrators only', async () => {
    const asUser = t.as(await createUser(t.db));
    for (const url of ['/api/logs/files', '/api/logs/stats', '/api/logs/query']) {
      assert.equal((await asUser.get(url)).json().code, 40301);
      assert.equal((await t.anon.get(url)).json().code, 40101);
    }
  });
});
