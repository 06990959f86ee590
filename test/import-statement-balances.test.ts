import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { build, createAccount, createUser, type Client, type TestApp } from './helpers/index.ts';
import { decideBill } from './helpers/bill-decide.ts';
import { multipart } from './helpers/factories/files.ts';

/*
 * The balance a bank statement states, offered with the preview for reconciliation: OFX LEDGERBAL,
 * the camt closing booked balance (else the latest interim booked one), MT940 :62F:, the last
 * statement of an account winning. The fixtures are written by hand from the OFX 2.2, ISO 20022
 * camt.053 and SWIFT MT940 descriptions; every figure expected here is added up by hand from them.
 */

const file = (name: string) => readFileSync(new URL(`./fixtures/imports/${name}`, import.meta.url));
const upload = (name: string) => multipart(file(name), { filename: name, type: 'application/octet-stream' });

interface Balance {
  method: string;
  account_id: number | null;
  currency: string;
  amount: string;
  date: string;
}
interface Preview {
  id: number;
  format: string;
  balances: Balance[];
  summary: { methods: { method: string; account_id: number | null }[] };
}

async function preview(as: Client, name: string): Promise<Preview> {
  const res = await as.post('/api/import/bills', upload(name));
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Preview>();
}

const balanceOn = async (as: Client, id: number, date: string) =>
  (await as.get(`/api/accounts/${id}`, { query: { date } })).json<{ balance: number }>().balance;

describe('statement balances offered for reconciliation', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  it('OFX: the last LEDGERBAL of each account, with its account; reconciling books the difference', async () => {
    const user = await createUser(t.db, { baseCurrency: 'CNY' });
    // checking opens with 1,000.00; the card with nothing
    const checking = await createAccount(t.db, user.id, {
      name: '储蓄卡 6789',
      currency: 'CNY',
      openingBalance: 100000,
      openingDate: '2025-01-01',
    });
    const card = await createAccount(t.db, user.id, {
      name: '信用卡 4321',
      currency: 'CNY',
      openingDate: '2025-01-01',
    });
    const as = t.as(user);
    const p = await preview(as, 'balances.ofx');
    assert.equal(p.format, 'ofx');
    // the first statement's 5,872.00 of 15 March gives way to the second's; AVAILBAL is not the ledger balance
    assert.deepEqual(p.balances, [
      { method: '6222021234566789', account_id: checking.id, currency: 'CNY', amount: '5600.50', date: '2025-03-31' },
      { method: '4392250012344321', account_id: card.id, currency: 'CNY', amount: '-88.80', date: '2025-03-31' },
    ]);
    // the same key as the summary's methods
    for (const b of p.balances)
      assert.equal(p.summary.methods.find((m) => m.method === b.method)?.account_id, b.account_id);
    // read again page by page: the same balances
    const again = (await as.get(`/api/import/bills/${p.id}`, { query: { page: 1, pageSize: 1 } })).json<Preview>();
    assert.deepEqual(again.balances, p.balances);

    await decideBill(as, p.id);
    assert.equal((await as.post(`/api/import/bills/${p.id}/commit`, {})).statusCode, 200);
    // the books on 31 March: 1,000.00 - 128.00 + 5,000.00 - 300.00 = 5,572.00; the card -88.80
    assert.equal(await balanceOn(as, checking.id, '2025-03-31'), 5572);
    assert.equal(await balanceOn(as, card.id, '2025-03-31'), -88.8);

    // reconciling to the statement: 5,600.50 - 5,572.00 = 28.50 booked as an adjustment
    const [offer] = p.balances;
    const res = await as.post(`/api/accounts/${checking.id}/reconcile`, { balance: offer!.amount, date: offer!.date });
    assert.equal(res.statusCode, 200, res.body);
    const done = res.json<{ adjustment: { amount: number; date: string } | null }>();
    assert.equal(done.adjustment?.amount, 28.5);
    assert.equal(done.adjustment?.date, '2025-03-31');
    assert.equal(await balanceOn(as, checking.id, '2025-03-31'), 5600.5);
    // the card already agrees: nothing to book
    const cardRes = await as.post(`/api/accounts/${card.id}/reconcile`, { balance: '-88.80', date: '2025-03-31' });
    assert.equal(cardRes.json<{ adjustment: unknown }>().adjustment, null);
  });

  it('camt.053: the closing booked balance (a debit is negative), else the latest interim booked one, in yen without decimals', async () => {
    const user = await createUser(t.db, { baseCurrency: 'EUR' });
    const giro = await createAccount(t.db, user.id, { name: 'Giro 3000', currency: 'EUR' });
    const p = await preview(t.as(user), 'balances.camt053.xml');
    assert.equal(p.format, 'camt');
    assert.deepEqual(p.balances, [
      // CLBD 50.00 DBIT, not the opening 100.00 nor the available 950.00
      { method: 'DE89370400440532013000', account_id: giro.id, currency: 'EUR', amount: '-50.00', date: '2025-04-30' },
      // no CLBD: the later of the two ITBD (1200.00 yen written with decimals), not CLAV 5000
      { method: 'JP-77001234', account_id: null, currency: 'JPY', amount: '1200', date: '2025-04-11' },
    ]);
  });

  it('MT940: each account’s last :62F:, the intermediate :62M: not offered', async () => {
    const user = await createUser(t.db, { baseCurrency: 'EUR' });
    const konto = await createAccount(t.db, user.id, { name: 'Konto 7890', currency: 'EUR' });
    const p = await preview(t.as(user), 'balances.sta');
    assert.equal(p.format, 'mt940');
    assert.deepEqual(p.balances, [
      // May closes 1,000.00 - 200.00 (:62M: 800.00) + 50.00 = 850.00; June 850.00 - 900.00 = 50.00 debit
      { method: '10020030/1234567890', account_id: konto.id, currency: 'EUR', amount: '-50.00', date: '2025-06-15' },
      // 100,000 - 3,000 = 97,000 yen; no yen account: the rows wait, and the balance has no account
      { method: '20041111/9876543210', account_id: null, currency: 'JPY', amount: '97000', date: '2025-06-30' },
    ]);
  });

  it('a bill of another format has no balances', async () => {
    const user = await createUser(t.db);
    const p = await preview(t.as(user), 'accounts.qif');
    assert.deepEqual(p.balances, []);
  });
});
