import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { exchangeRates } from '../src/db/schema/index.ts';
import { crossRate, parseEcbXml, ratesFetchTask, resetRatesFetch } from '../src/modules/rates/rates.fetch.ts';
import { runSchedulerOnce } from '../src/modules/scheduler.ts';
import { assertError, build, createAdmin, createUser, expectOk, type TestApp, type UserRow } from './helpers/index.ts';

const ECB = (date: string, usd: string) => `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube>
    <Cube time='${date}'>
      <Cube currency='USD' rate='${usd}'/>
      <Cube currency='JPY' rate='162.35'/>
      <Cube currency='GBP' rate='0.8372'/>
      <Cube currency='CNY' rate='7.6543'/>
    </Cube>
  </Cube>
</gesmes:Envelope>`;

describe('daily exchange-rate fetch (ECB XML)', () => {
  let t: TestApp;
  let server: Server;
  let url: string;
  let body = ECB('2026-03-02', '1.0850');
  let status = 200;
  let hits = 0;
  let cny: UserRow;
  let eur: UserRow;

  before(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.writeHead(status, { 'content-type': 'text/xml' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-daily.xml`;
    t = await build();
    cny = await createUser(t.db, { nickname: 'Yuan' });
    eur = await createUser(t.db, { nickname: 'Euro', baseCurrency: 'EUR' });
    expectOk(await t.as(cny).post('/api/accounts', { name: 'US', type: 'debit_card', currency: 'USD' }), 201);
    expectOk(await t.as(cny).post('/api/accounts', { name: 'EU', type: 'debit_card', currency: 'EUR' }), 201);
    expectOk(await t.as(eur).post('/api/accounts', { name: 'Yen', type: 'cash', currency: 'JPY' }), 201);
    expectOk(await t.as(eur).post('/api/accounts', { name: 'Dinar', type: 'cash', currency: 'KWD' }), 201);
  });
  after(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const deps = (ratesUrl: string | null) => ({
    db: t.db,
    config: { appTimezone: 'UTC', ratesUrl },
    log: pino({ level: 'silent' }),
    userState: t.app.userState,
  });
  const rateOf = async (userId: number, currency: string, date: string) =>
    (
      await t.db
        .select()
        .from(exchangeRates)
        .where(
          and(eq(exchangeRates.userId, userId), eq(exchangeRates.currency, currency), eq(exchangeRates.date, date)),
        )
    )[0];

  it('derives cross rates exactly, rounded half away from zero to 12 decimals', () => {
    const day = parseEcbXml(ECB('2026-03-02', '1.0850'))!;
    assert.equal(day.date, '2026-03-02');
    assert.equal(crossRate(day, 'USD', 'CNY'), '7.05465437788');
    assert.equal(crossRate(day, 'EUR', 'CNY'), '7.6543');
    assert.equal(crossRate(day, 'JPY', 'EUR'), '0.006159531876');
    assert.equal(crossRate(day, 'KWD', 'EUR'), null);
    assert.equal(parseEcbXml('<html>maintenance</html>'), null);
  });

  it('does nothing without RATES_URL (the default)', async () => {
    resetRatesFetch();
    await runSchedulerOnce(deps(null), [ratesFetchTask], new Date('2026-03-02T16:00:00Z'));
    assert.equal(hits, 0);
  });

  it("stores the day's rates of every user's foreign accounts, once a day, never over a rate entered by hand", async () => {
    resetRatesFetch();
    expectOk(await t.as(cny).put('/api/rates', { rates: [{ currency: 'EUR', date: '2026-03-02', rate: '7.7' }] }));
    await runSchedulerOnce(deps(url), [ratesFetchTask], new Date('2026-03-02T16:00:00Z'));
    assert.equal(hits, 1);
    assert.deepEqual(
      [(await rateOf(cny.id, 'USD', '2026-03-02'))?.rate, (await rateOf(cny.id, 'USD', '2026-03-02'))?.source],
      ['7.05465437788', 'fetched'],
    );
    assert.deepEqual(
      [(await rateOf(cny.id, 'EUR', '2026-03-02'))?.rate, (await rateOf(cny.id, 'EUR', '2026-03-02'))?.source],
      ['7.7', 'manual'],
    );
    assert.equal((await rateOf(eur.id, 'JPY', '2026-03-02'))?.rate, '0.006159531876');
    assert.equal(await rateOf(eur.id, 'KWD', '2026-03-02'), undefined, 'not quoted');
    const list = expectOk<{ list: { currency: string; source: string }[] }>(await t.as(cny).get('/api/rates'));
    assert.deepEqual(list.list.map((r) => `${r.currency}:${r.source}`).sort(), ['EUR:manual', 'USD:fetched']);

    // the same day again: no request
    await runSchedulerOnce(deps(url), [ratesFetchTask], new Date('2026-03-02T17:00:00Z'));
    assert.equal(hits, 1);
    // the next day: a new document
    body = ECB('2026-03-03', '1.1');
    await runSchedulerOnce(deps(url), [ratesFetchTask], new Date('2026-03-03T16:00:00Z'));
    assert.equal(hits, 2);
    assert.equal((await rateOf(cny.id, 'USD', '2026-03-03'))?.rate, '6.958454545455');
    // a booking in USD uses it
    const food = expectOk<{ list: { id: number }[] }>(await t.as(cny).get('/api/categories?kind=expense')).list[0]!.id;
    const accs = expectOk<{ list: { id: number; currency: string }[] }>(await t.as(cny).get('/api/accounts'));
    const tx = expectOk<{ rate: string }>(
      await t.as(cny).post('/api/transactions', {
        kind: 'expense',
        amount: 10,
        category_id: food,
        account_id: accs.list.find((a) => a.currency === 'USD')!.id,
        date: '2026-03-04',
      }),
      201,
    );
    assert.equal(tx.rate, '6.958454545455');
  });

  it('survives a failing source and tries again an hour later', async () => {
    resetRatesFetch();
    status = 503;
    const before = hits;
    await runSchedulerOnce(deps(url), [ratesFetchTask], new Date('2026-03-05T10:00:00Z'));
    assert.equal(hits, before + 1);
    await runSchedulerOnce(deps(url), [ratesFetchTask], new Date('2026-03-05T10:30:00Z'));
    assert.equal(hits, before + 1, 'not before an hour');
    status = 200;
    body = ECB('2026-03-05', '1.2');
    await runSchedulerOnce(deps(url), [ratesFetchTask], new Date('2026-03-05T11:01:00Z'));
    assert.equal(hits, before + 2);
    assert.ok(await rateOf(cny.id, 'USD', '2026-03-05'));
  });

  it('is turned on and off by an administrator, whose choice overrides RATES_URL', async () => {
    resetRatesFetch();
    const admin = t.as(await createAdmin(t.db));
    type Settings = {
      enabled: boolean;
      url: string | null;
      from_environment: boolean;
      last_fetched_at: string | null;
      last_rates_date: string | null;
      last_error: string | null;
    };
    // the test app has no RATES_URL: off, and rates fetched before are dated
    const off = expectOk<Settings>(await admin.get('/api/admin/rates-fetch'));
    assert.deepEqual(
      [off.enabled, off.url, off.from_environment, off.last_rates_date, off.last_error],
      [false, null, false, '2026-03-05', null],
    );
    assert.ok(off.last_fetched_at);
    assertError(await t.as(cny).get('/api/admin/rates-fetch'), 403, 40301, 'not an administrator');
    assertError(
      await admin.put('/api/admin/rates-fetch', { url: 'ftp://example.org/x.xml' }),
      400,
      40001,
      'not http(s)',
    );
    assertError(await admin.put('/api/admin/rates-fetch', { url: 'not an address' }), 400, 40001, 'not an address');

    const on = expectOk<Settings>(await admin.put('/api/admin/rates-fetch', { url }));
    assert.deepEqual([on.enabled, on.url, on.from_environment], [true, url, false]);
    // the scheduler without RATES_URL now fetches from the address chosen
    body = ECB('2026-03-06', '1.25');
    const before = hits;
    await runSchedulerOnce(deps(null), [ratesFetchTask], new Date('2026-03-06T09:00:00Z'));
    assert.equal(hits, before + 1);
    assert.equal((await rateOf(cny.id, 'USD', '2026-03-06'))?.source, 'fetched');
    assert.equal(expectOk<Settings>(await admin.get('/api/admin/rates-fetch')).last_rates_date, '2026-03-06');

    // a failing source is reported to the administrator
    status = 500;
    await runSchedulerOnce(deps(null), [ratesFetchTask], new Date('2026-03-07T09:00:00Z'));
    assert.match(expectOk<Settings>(await admin.get('/api/admin/rates-fetch')).last_error ?? '', /HTTP 500/);
    status = 200;

    // off: not even RATES_URL of the environment is fetched
    const offAgain = expectOk<Settings>(await admin.put('/api/admin/rates-fetch', { url: null }));
    assert.deepEqual([offAgain.enabled, offAgain.url], [false, null]);
    const hitsOff = hits;
    await runSchedulerOnce(deps(url), [ratesFetchTask], new Date('2026-03-08T09:00:00Z'));
    assert.equal(hits, hitsOff);
  });
});
