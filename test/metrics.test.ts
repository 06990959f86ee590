import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { MetricsConfig } from '../src/config.ts';
import { ConfigError, parseMetrics } from '../src/config.ts';
import { tasks } from '../src/modules/index.ts';
import { runSchedulerOnce, type SchedulerTask } from '../src/modules/scheduler.ts';
import { assertError, build, type Client, createUser, multipart, type TestApp, type UserRow } from './helpers/index.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const on = (metrics: Partial<MetricsConfig>): { metrics: MetricsConfig } => ({
  metrics: { token: null, port: null, host: '127.0.0.1', ...metrics },
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, read without prom-client: one sample a line. */
function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('metrics', () => {
  // three app instances on one database: off (the default), a token and a port of its own, a port
  // of its own without a token
  let off: TestApp;
  let t: TestApp;
  let portOnly: TestApp;
  let portOnlyClosed = false;
  let alice: UserRow;
  let asAlice: Client;
  let url: string;
  let tokenUrl: string;
  const scrape = async () => {
    const res = await t.withToken(TOKEN).get('/metrics');
    assert.equal(res.statusCode, 200, res.body);
    return res;
  };

  before(async () => {
    t = await build(on({ token: TOKEN, port: 0 }));
    off = await build({}, { database: t.testDb });
    portOnly = await build(on({ port: 0 }), { database: t.testDb });
    alice = await createUser(t.db);
    asAlice = t.as(alice);
    const a = await portOnly.app.metrics.listen();
    const b = await t.app.metrics.listen();
    assert.ok(a && b);
    assert.equal(a.address, '127.0.0.1');
    url = `http://127.0.0.1:${a.port}`;
    tokenUrl = `http://127.0.0.1:${b.port}`;
  });
  after(async () => {
    await off.close();
    if (!portOnlyClosed) await portOnly.close();
    await t.close();
  });

  describe('off by default', () => {
    it('/metrics is not found, with or without a token, and nothing is measured', async () => {
      await assertError(await off.anon.get('/metrics'), 404, 40401);
      await assertError(await off.withToken(TOKEN).get('/metrics'), 404, 40401);
      assert.equal(off.app.metrics.enabled, false);
      assert.equal(off.app.metrics.registry, null);
      assert.equal(await off.app.metrics.listen(), null);
    });

    it('the OpenAPI document does not list it', async () => {
      const doc = (await t.anon.get('/api/openapi.json')).json<{ paths: Record<string, unknown> }>();
      assert.ok(doc.paths['/api/health']);
      assert.equal(doc.paths['/metrics'], undefined);
    });
  });

  describe('on the main port with a token', () => {
    it('answers 401 in the error envelope without the token or with a wrong one', async () => {
      await assertError(await t.anon.get('/metrics'), 401, 40101);
      await assertError(await t.withToken(TOKEN + 'x').get('/metrics'), 401, 40101);
      await assertError(await t.withToken(TOKEN.slice(0, -1)).get('/metrics'), 401, 40101);
      await assertError(await t.withHeaders({ authorization: `Basic ${TOKEN}` }).get('/metrics'), 401, 40101);
      await assertError(await t.withHeaders({ authorization: 'Bearer ' }).get('/metrics'), 401, 40101);
      // a user's own access token is not the metrics token
      await assertError(await asAlice.get('/metrics'), 401, 40101);
    });

    it('answers the Prometheus text format with the token', async () => {
      const res = await scrape();
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      assert.equal(res.headers['cache-control'], 'no-store');
      const samples = parse(res.body);
      for (const name of [
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
        'process_resident_memory_bytes',
        'ledger_db_pool_connections',
        'ledger_db_pool_idle_connections',
        'ledger_db_pool_in_use_connections',
        'ledger_db_pool_waiting',
      ]) {
        assert.ok(find(samples, name).length, `${name} is missing`);
      }
      const total = find(samples, 'ledger_db_pool_connections')[0]!.value;
      if (t.database.kind === 'pglite') assert.equal(total, 1);
      else {
        assert.ok(total >= 1);
        // every checkout of the pool is timed
        assert.ok(find(samples, 'ledger_db_pool_wait_seconds_count')[0]!.value > 0);
      }
    });

    it('counts requests by route template, scheduler runs and failures, and imports; no label carries an id or a raw path', async () => {
      const group = 5;
      await assertError(await asAlice.get('/api/transactions/123'), 404, 40401);
      await asAlice.get(`/api/groups/${group}/balances`);
      await asAlice.get(`/api/groups/${alice.id}/balances`);
      await assertError(await asAlice.get(`/api/no-such-thing/${alice.id}`), 404, 40401);
      await asAlice.get('/api/transactions', { query: { page: 1 } });

      // a CSV import, a dry run of JSON, a bill read into a preview and committed
      const csv = 'date,kind,amount,category,note\n2026-01-02,expense,12.50,Food,lunch\n2026-01-03,income,50,Salary,\n';
      const imported = await asAlice.post('/api/import', multipart(csv, { filename: 'a.csv', type: 'text/csv' }));
      assert.equal(imported.statusCode, 200, imported.body);
      const json = JSON.stringify([{ date: '2026-02-01', kind: 'expense', amount: 3, category: 'Food', note: 'tea' }]);
      const dry = await asAlice.post('/api/import', multipart(json, { filename: 'a.json', type: 'application/json' }), {
        query: { dry_run: true },
      });
      assert.equal(dry.statusCode, 200, dry.body);
      const bill = readFileSync(new URL('./fixtures/bills/ledger.csv', import.meta.url));
      const preview = await asAlice.post(
        '/api/import/bills',
        multipart(bill, { filename: 'ledger.csv', type: 'text/csv' }),
      );
      assert.equal(preview.statusCode, 200, preview.body);
      const previewId = preview.json<{ id: number }>().id;
      const commit = await asAlice.post(`/api/import/bills/${previewId}/commit`);
      assert.equal(commit.statusCode, 200, commit.body);

      const failing: SchedulerTask = {
        name: 'always-fails',
        run: async () => {
          throw new Error('broken on purpose');
        },
      };
      await runSchedulerOnce(t.app, [...tasks, failing]);

      const samples = parse((await scrape()).body);
      const routes = new Set(find(samples, 'http_requests_total').map((s) => s.labels.route));
      for (const route of [
        '/api/transactions/:id',
        '/api/groups/:id/balances',
        '/api/transactions',
        '/api/import',
        '/api/import/bills',
        '/api/import/bills/:id/commit',
        'unmatched',
      ]) {
        assert.ok(routes.has(route), `route ${route} missing from ${[...routes].join(', ')}`);
      }
      const balances = find(samples, 'http_requests_total', { route: '/api/groups/:id/balances', method: 'GET' });
      assert.equal(
        balances.reduce((n, s) => n + s.value, 0),
        2,
      );
      assert.equal(
        find(samples, 'http_requests_total', { route: '/api/transactions/:id', method: 'GET', status_code: '404' })[0]
          ?.value,
        1,
      );
      const latency = find(samples, 'http_request_duration_seconds_bucket', {
        route: '/api/transactions/:id',
        status_code: '404',
      });
      assert.deepEqual(
        latency.map((s) => s.labels.le),
        ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'],
      );

      for (const task of tasks)
        assert.equal(find(samples, 'ledger_scheduler_runs_total', { task: task.name })[0]?.value, 1, task.name);
      assert.equal(find(samples, 'ledger_scheduler_runs_total', { task: 'always-fails' })[0]?.value, 1);
      assert.equal(find(samples, 'ledger_scheduler_failures_total', { task: 'always-fails' })[0]?.value, 1);
      assert.equal(find(samples, 'ledger_scheduler_failures_total', { task: tasks[0]!.name }).length, 0);
      assert.equal(find(samples, 'ledger_scheduler_run_duration_seconds_count', { task: 'always-fails' })[0]?.value, 1);

      const count = (name: string, labels: Record<string, string>) => find(samples, name, labels)[0]?.value;
      assert.equal(count('ledger_import_bytes_sum', { kind: 'import', format: 'csv' }), Buffer.byteLength(csv));
      assert.equal(count('ledger_import_rows_sum', { kind: 'import', format: 'csv' }), 2);
      assert.equal(count('ledger_import_duration_seconds_count', { kind: 'import', format: 'csv' }), 1);
      assert.equal(count('ledger_import_rows_sum', { kind: 'import_dry_run', format: 'json' }), 1);
      assert.equal(count('ledger_import_bytes_sum', { kind: 'bill_preview', format: 'ledger' }), bill.length);
      assert.equal(
        count('ledger_import_rows_sum', { kind: 'bill_preview', format: 'ledger' }),
        preview.json<{ summary: { total: number } }>().summary.total,
      );
      assert.equal(count('ledger_import_duration_seconds_count', { kind: 'bill_commit', format: 'bill' }), 1);
      assert.equal(
        find(samples, 'ledger_import_bytes_count', { kind: 'bill_commit' }).length,
        0,
        'a commit reads no file',
      );

      // no series is keyed by a raw path, an id or a user
      for (const s of samples) {
        for (const [label, value] of Object.entries(s.labels)) {
          assert.doesNotMatch(value, /\/\d+/, `${s.name}{${label}="${value}"}`);
          if (/^(http_|ledger_)/.test(s.name) && label !== 'status_code' && label !== 'le') {
            assert.doesNotMatch(value, /^\d+$/, `${s.name}{${label}="${value}"}`);
          }
        }
      }
      assert.ok(
        !samples.some((s) =>
          Object.values(s.labels).some((v) => v.includes(String(alice.id)) && /\d{3,}/.test(String(alice.id))),
        ),
      );
    });

    it('an import format outside the closed list is counted as other', async () => {
      t.app.metrics.importTimer('bill_preview', 10)('some-new-format', 1);
      const samples = parse((await scrape()).body);
      assert.equal(find(samples, 'ledger_import_rows_count', { kind: 'bill_preview', format: 'other' })[0]?.value, 1);
      assert.equal(find(samples, 'ledger_import_rows_count', { format: 'some-new-format' }).length, 0);
    });

    it('a second app in the same process keeps a registry of its own', async () => {
      assert.notEqual(portOnly.app.metrics.registry, t.app.metrics.registry);
      const samples = parse(await (await fetch(`${url}/metrics`)).text());
      assert.equal(find(samples, 'http_requests_total', { route: '/api/groups/:id/balances' }).length, 0);
      assert.equal(find(samples, 'ledger_scheduler_runs_total').length, 0);
    });
  });

  describe('on a port of its own', () => {
    it('serves /metrics there without a token, and not on the main port', async () => {
      await portOnly.anon.get('/api/health');
      const res = await fetch(`${url}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const samples = parse(await res.text());
      assert.ok(find(samples, 'process_resident_memory_bytes').length);
      assert.ok(find(samples, 'http_requests_total', { route: '/api/health' }).length);
      await assertError(await portOnly.anon.get('/metrics'), 404, 40401);
    });

    it('answers nothing else there', async () => {
      const res = await fetch(`${url}/api/health`);
      assert.equal(res.status, 404);
      assert.equal((await res.json()).code, 40401);
      const post = await fetch(`${url}/metrics`, { method: 'POST' });
      assert.equal(post.status, 404);
      await post.text();
    });

    it('with METRICS_TOKEN too, the token is required there as well', async () => {
      const none = await fetch(`${tokenUrl}/metrics`);
      assert.equal(none.status, 401);
      assert.deepEqual(await none.json(), { code: 40101, message: 'metrics token missing or invalid' });
      const wrong = await fetch(`${tokenUrl}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } });
      assert.equal(wrong.status, 401);
      await wrong.text();
      const ok = await fetch(`${tokenUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(ok.status, 200);
      assert.ok(parse(await ok.text()).length);
    });

    it('stops listening when the app closes', async () => {
      portOnlyClosed = true;
      await portOnly.close();
      await assert.rejects(fetch(`${url}/metrics`));
    });
  });

  describe('configuration', () => {
    it('is off unless METRICS_TOKEN or METRICS_PORT is set', () => {
      assert.deepEqual(parseMetrics({}, '0.0.0.0', 3000), { token: null, port: null, host: '0.0.0.0' });
      assert.deepEqual(parseMetrics({ METRICS_TOKEN: TOKEN }, '127.0.0.1', 3000), {
        token: TOKEN,
        port: null,
        host: '127.0.0.1',
      });
      assert.deepEqual(parseMetrics({ METRICS_PORT: '9464' }, '0.0.0.0', 3000), {
        token: null,
        port: 9464,
        host: '0.0.0.0',
      });
      assert.deepEqual(parseMetrics({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }, '0.0.0.0', 3000), {
        token: null,
        port: 9464,
        host: '10.0.0.5',
      });
    });

    it('refuses a short or spaced token, a bad port, the main port, a host without a port', () => {
      for (const env of [
        { METRICS_TOKEN: 'short' },
        { METRICS_TOKEN: 'has a space in the middle of it' },
        { METRICS_PORT: '0' },
        { METRICS_PORT: '65536' },
        { METRICS_PORT: 'abc' },
        { METRICS_PORT: '3000' },
        { METRICS_HOST: '127.0.0.1' },
      ]) {
        assert.throws(() => parseMetrics(env, '127.0.0.1', 3000), ConfigError, JSON.stringify(env));
      }
    });
  });
});
