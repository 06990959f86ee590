import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { accounts, categories } from '../src/db/schema/index.ts';
import { build, createAccount, createCategory, createUser, type Client, type TestApp } from './helpers/index.ts';
import { bookedOf } from './helpers/import-formats.ts';
import { multipart } from './helpers/factories/files.ts';

/*
 * The categories and accounts a file names: the preview shows what each maps to (an existing one
 * by name, exactly or but for case and spaces, or one to create) before anything is created; the
 * person changes a mapping in the review; the commit creates the new ones with the rows, all or
 * nothing; a second upload books and creates nothing.
 */

// ezBookkeeping: -88.00 and -20.00 (Dinner), -3.50 (Public Transit), +8000.00 (Salary Income), 500.00 from
// Bank Card to Savings
const EZ = [
  'Time,Timezone,Type,Category,Sub Category,Account,Account Currency,Amount,Account2,Account2 Currency,Account2 Amount,Geographic Location,Tags,Description',
  '2024-03-31 18:00:00,+08:00,Expense,Food & Drink,Dinner,Pocket Money,CNY,-88.00,,,,,,Hotpot',
  '2024-03-30 09:00:00,+08:00,Transfer,Transfer,Bank Transfer,Bank Card,CNY,500.00,Savings,CNY,500.00,,,To savings',
  '2024-03-25 10:00:00,+08:00,Income,Occupational Earnings,Salary Income,Bank Card,CNY,8000.00,,,,,,March salary',
  '2024-03-02 08:15:00,+08:00,Expense,Transportation,Public Transit,Bank Card,CNY,-3.50,,,,,,Metro',
  '2024-03-01 12:00:00,+08:00,Expense,Food & Drink,Dinner,Bank Card,CNY,-20.00,,,,,,Noodles',
].join('\n');

// QIF: Checking pays -25.00 for Groceries and moves 100.00 to [Savings]
const QIF = [
  '!Account',
  'NChecking',
  'TBank',
  '^',
  '!Type:Bank',
  'D01/15/2024',
  'T-25.00',
  'PMarket',
  'LGroceries',
  '^',
  'D01/16/2024',
  'T-100.00',
  'L[Savings]',
  '^',
].join('\n');

interface Method {
  method: string;
  account_id: number | null;
  match: string | null;
  create: { type: string } | null;
}
interface Cat {
  name: string;
  kind: string;
  rows: number;
  category_id: number | null;
  match: string;
}
interface Summary {
  import: number;
  transfer: number;
  duplicate: number;
  methods: Method[];
  categories: Cat[];
  undecided: { rows: number };
}

const upload = (name: string, body: string) =>
  multipart(Buffer.from(body), { filename: name, type: 'application/octet-stream' });

async function counts(t: TestApp, userId: number) {
  const a = await t.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.userId, userId));
  const c = await t.db.select({ name: categories.name }).from(categories).where(eq(categories.userId, userId));
  return { accounts: a.map((x) => x.name).sort(), categories: c.map((x) => x.name).sort() };
}

async function preview(as: Client, name: string, body: string) {
  const res = await as.post('/api/import/bills', upload(name, body));
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ id: number; format: string; summary: Summary }>();
}

const method = (s: Summary, m: string) => s.methods.find((x) => x.method === m)!;
const cat = (s: Summary, n: string) => s.categories.find((x) => x.name === n)!;

describe('names a file gives its categories and accounts', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  it('shows the mapping before creating anything, takes a changed mapping, creates on commit, all or nothing', async () => {
    const user = await createUser(t.db, { baseCurrency: 'CNY' });
    const cash = await createAccount(t.db, user.id, { name: 'pocketmoney', type: 'cash' });
    const piggy = await createAccount(t.db, user.id, { name: 'Piggy bank', type: 'cash' });
    const dinner = await createCategory(t.db, user.id, { kind: 'expense', name: 'Dinner' });
    const salary = await createCategory(t.db, user.id, { kind: 'income', name: 'salaryincome' });
    const as = t.as(user);
    const before = await counts(t, user.id);

    const p = await preview(as, 'ez.csv', EZ);
    assert.equal(p.format, 'ezbookkeeping');
    const s = p.summary;
    assert.deepEqual(
      { import: s.import, transfer: s.transfer, open: s.undecided.rows },
      { import: 4, transfer: 1, open: 0 },
    );
    assert.deepEqual(cat(s, 'Dinner'), {
      name: 'Dinner',
      kind: 'expense',
      rows: 2,
      category_id: dinner.id,
      match: 'exact',
    });
    assert.deepEqual(cat(s, 'Salary Income'), {
      name: 'Salary Income',
      kind: 'income',
      rows: 1,
      category_id: salary.id,
      match: 'similar',
    });
    assert.deepEqual(cat(s, 'Public Transit'), {
      name: 'Public Transit',
      kind: 'expense',
      rows: 1,
      category_id: null,
      match: 'create',
    });
    assert.deepEqual(method(s, 'Pocket Money'), {
      method: 'Pocket Money',
      account_id: cash.id,
      rows: 1,
      match: 'similar',
      create: null,
    });
    assert.deepEqual(method(s, 'Bank Card'), {
      method: 'Bank Card',
      account_id: null,
      rows: 4,
      match: 'create',
      create: { type: 'debit_card' },
    });
    assert.equal(method(s, 'Savings').match, 'create');
    assert.deepEqual(await counts(t, user.id), before, 'the preview created nothing');

    // refused mappings: a name the file does not give, two choices at once, a category of the other kind
    const patch = (mappings: unknown) => as.patch(`/api/import/bills/${p.id}/rows`, { mappings });
    for (const bad of [
      { categories: [{ name: 'Rent', kind: 'expense', create: true }] },
      { categories: [{ name: 'Dinner', kind: 'expense', create: true, category_id: dinner.id }] },
      { categories: [{ name: 'Dinner', kind: 'expense', category_id: salary.id }] },
      { categories: [{ name: 'Dinner', kind: 'expense', create: true }] },
      { accounts: [{ method: 'Nowhere', create: true }] },
      { accounts: [{ method: 'Pocket Money', account_id: 999999 }] },
    ]) {
      const res = await patch(bad);
      assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
    }

    // the person's own choices: Salary Income created after all, Savings is the piggy bank, Bank Card a credit card
    const res = await patch({
      categories: [{ name: 'Salary Income', kind: 'income', create: true }],
      accounts: [
        { method: 'Savings', account_id: piggy.id },
        { method: 'Bank Card', create: true, type: 'credit_card' },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json<{ summary: Summary }>().summary;
    assert.deepEqual(cat(changed, 'Salary Income'), { ...cat(s, 'Salary Income'), category_id: null, match: 'create' });
    assert.deepEqual(method(changed, 'Savings'), {
      method: 'Savings',
      account_id: piggy.id,
      rows: 1,
      match: 'chosen',
      create: null,
    });
    assert.deepEqual(method(changed, 'Bank Card').create, { type: 'credit_card' });
    assert.equal(changed.undecided.rows, 0);
    assert.deepEqual(await counts(t, user.id), before, 'the review created nothing');

    // a commit that fails (an account of the rows archived meanwhile) creates nothing
    await t.db.update(accounts).set({ archived: true }).where(eq(accounts.id, cash.id));
    const failed = await as.post(`/api/import/bills/${p.id}/commit`, {});
    assert.equal(failed.statusCode, 422, failed.body);
    assert.deepEqual(await counts(t, user.id), before, 'the failed commit created nothing');
    assert.equal((await bookedOf(t, user.id)).count, 0);
    await t.db.update(accounts).set({ archived: false }).where(eq(accounts.id, cash.id));

    const done = await as.post(`/api/import/bills/${p.id}/commit`, {});
    assert.equal(done.statusCode, 200, done.body);
    const result = done.json<{ accounts_created?: string[]; categories_created?: string[] }>();
    assert.deepEqual(result.accounts_created, ['Bank Card']);
    assert.deepEqual(result.categories_created?.sort(), ['Public Transit', 'Salary Income']);
    const after1 = await counts(t, user.id);
    assert.deepEqual(after1.accounts, [...before.accounts, 'Bank Card'].sort());
    assert.deepEqual(after1.categories, [...before.categories, 'Public Transit', 'Salary Income'].sort());
    const [card] = await t.db.select().from(accounts).where(eq(accounts.name, 'Bank Card'));
    assert.deepEqual({ type: card!.type, currency: card!.currency }, { type: 'credit_card', currency: 'CNY' });
    const booked = await bookedOf(t, user.id);
    // 88.00 + 3.50 + 20.00 out, 8000.00 in, 500.00 moved
    assert.deepEqual(booked.sums, { expense: 8800 + 350 + 2000, income: 800000, transfer: 50000 });

    // the same file again: everything maps to what exists, nothing is booked or created
    const again = await preview(as, 'ez.csv', EZ);
    assert.equal(again.summary.import + again.summary.transfer, 0);
    assert.deepEqual(method(again.summary, 'Bank Card').match, 'exact');
    assert.ok(again.summary.methods.every((m) => m.create === null));
    assert.equal((await as.post(`/api/import/bills/${again.id}/commit`, {})).statusCode, 200);
    assert.deepEqual(await counts(t, user.id), after1);
    assert.deepEqual(await bookedOf(t, user.id), booked);
  });

  it('QIF: its categories and [transfer] accounts are shown to be created, and created on commit', async () => {
    const user = await createUser(t.db, { baseCurrency: 'USD' });
    const as = t.as(user);
    const before = await counts(t, user.id);
    const p = await preview(as, 'bank.qif', QIF);
    assert.deepEqual(cat(p.summary, 'Groceries'), {
      name: 'Groceries',
      kind: 'expense',
      rows: 1,
      category_id: null,
      match: 'create',
    });
    assert.deepEqual(p.summary.methods.map((m) => [m.method, m.match, m.create?.type]).sort(), [
      ['Checking', 'create', 'debit_card'],
      ['Savings', 'create', 'debit_card'],
    ]);
    assert.equal(p.summary.transfer, 1);
    assert.equal(p.summary.undecided.rows, 0);
    assert.deepEqual(await counts(t, user.id), before);
    const done = await as.post(`/api/import/bills/${p.id}/commit`, {});
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual((await counts(t, user.id)).accounts, [...before.accounts, 'Checking', 'Savings'].sort());
    assert.deepEqual((await bookedOf(t, user.id)).sums, { expense: 2500, income: 0, transfer: 10000 });
  });
});
