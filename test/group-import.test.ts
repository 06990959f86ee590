import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, count, eq } from 'drizzle-orm';
import { groupMembers, groups, settlements, transactions, users } from '../src/db/schema/index.ts';
import { addMember, assertError, build, createGroup, createUser, type TestApp } from './helpers/index.ts';

/*
 * Splitwise and Spliit exports become a group. Every expected figure below is worked out by hand
 * from the fixture beside it, not by the reader.
 */

/*
 * Splitwise: nets per row (paid less share). By hand:
 *   Dinner 90.00 (Ann paid, 30 each)           Ann +60   Bo -30   Cy -30
 *   Taxi 40.00 (Bo paid, 20 each Ann and Bo)   Ann -20   Bo +20
 *   Hotel 300.00, owed to Bo and Cy            Ann -100  Bo +50   Cy +50   -> 2 records, 50.00 each
 *   Bo paid Ann 10.00 (Payment)                Ann -10   Bo +10
 *   Snacks 12.00, nobody owes anything         (ignored)
 *   totals                                     Ann -70   Bo +50   Cy +20
 * Records: Dinner, Taxi, Hotel x2 = 4, amounts 90 + 40 + 50 + 50 = 230.00; 1 payment.
 */
const SPLITWISE = [
  'Date,Description,Category,Cost,Currency,Ann,Bo,Cy',
  '',
  '2025-03-01,Dinner,Dining out,90.00,CNY,60.00,-30.00,-30.00',
  '2025-03-02,Taxi,Taxi,40.00,CNY,-20.00,20.00,0.00',
  '2025-03-03,Hotel,Hotel,300.00,CNY,-100.00,50.00,50.00',
  '2025-03-04,Bo paid Ann,Payment,10.00,CNY,-10.00,10.00,0.00',
  '2025-03-05,Snacks,Groceries,12.00,CNY,0.00,0.00,0.00',
  '',
  '2025-03-06,Total balance, , ,CNY,-70.00,50.00,20.00',
  '',
].join('\n');

/*
 * Spliit JSON, amounts in fen. By hand:
 *   e1 Groceries 3000, Ann paid, evenly Ann/Bo/Cy: 1000 each   Ann +2000  Bo -1000  Cy -1000
 *   e2 Train 1000, Bo paid, by shares Ann 1 : Bo 2: 333.33 / 666.67 -> 333 / 667 (larger remainder gets the cent)
 *                                                              Ann -333   Bo +333
 *   e3 Refund -600 (an income Cy received), evenly Bo/Cy: 300 each
 *                                                              Bo +300    Cy -300
 *   e4 reimbursement 500, Bo paid for Ann (a payment)          Ann -500   Bo +500
 *   e5 Tickets 1500, Cy paid, by amount Ann 1000, Cy 500       Ann -1000  Cy +1000
 *   totals                                                     Ann +167   Bo +133   Cy -300
 * Records: e1, e2, e3 (income), e5 = 4; payments 1; total of records 3000 + 1000 + 600 + 1500 = 61.00.
 */
const SPLIIT = JSON.stringify({
  id: 'grp1',
  name: 'Trip',
  currency: '¥',
  currencyCode: 'CNY',
  participants: [
    { id: 'p1', name: 'Ann' },
    { id: 'p2', name: 'Bo' },
    { id: 'p3', name: 'Cy' },
  ],
  expenses: [
    {
      id: 'e1',
      expenseDate: '2025-04-01T00:00:00.000Z',
      title: 'Groceries',
      category: { grouping: 'Food and Drink', name: 'Groceries' },
      amount: 3000,
      paidById: 'p1',
      paidFor: [
        { participantId: 'p1', shares: 1 },
        { participantId: 'p2', shares: 1 },
        { participantId: 'p3', shares: 1 },
      ],
      isReimbursement: false,
      splitMode: 'EVENLY',
      notes: null,
    },
    {
      id: 'e2',
      expenseDate: '2025-04-02T00:00:00.000Z',
      title: 'Train',
      category: { grouping: 'Transportation', name: 'Train' },
      amount: 1000,
      paidById: 'p2',
      paidFor: [
        { participantId: 'p1', shares: 100 },
        { participantId: 'p2', shares: 200 },
      ],
      isReimbursement: false,
      splitMode: 'BY_SHARES',
      notes: null,
    },
    {
      id: 'e3',
      expenseDate: '2025-04-03T00:00:00.000Z',
      title: 'Refund',
      category: { grouping: 'Uncategorized', name: 'General' },
      amount: -600,
      paidById: 'p3',
      paidFor: [
        { participantId: 'p2', shares: 1 },
        { participantId: 'p3', shares: 1 },
      ],
      isReimbursement: false,
      splitMode: 'EVENLY',
      notes: null,
    },
    {
      id: 'e4',
      expenseDate: '2025-04-04T00:00:00.000Z',
      title: 'Reimbursement',
      category: { grouping: 'Uncategorized', name: 'Payment' },
      amount: 500,
      paidById: 'p2',
      paidFor: [{ participantId: 'p1', shares: 1 }],
      isReimbursement: true,
      splitMode: 'EVENLY',
      notes: null,
    },
    {
      id: 'e5',
      expenseDate: '2025-04-05T00:00:00.000Z',
      title: 'Tickets',
      category: { grouping: 'Entertainment', name: 'Movies' },
      amount: 1500,
      paidById: 'p3',
      paidFor: [
        { participantId: 'p1', shares: 1000 },
        { participantId: 'p3', shares: 500 },
      ],
      isReimbursement: false,
      splitMode: 'BY_AMOUNT',
      notes: 'IMAX',
    },
  ],
  participantsCount: 3,
  activities: [],
});

/*
 * Spliit CSV: the payer's column is their share, the others' the negative of theirs. By hand:
 *   Groceries 30 (Ann paid, 10 each)        Ann +20     Bo -10    Cy -10
 *   Train 10 (Bo paid: Ann 3.33, Bo 6.67)   Ann -3.33   Bo +3.33
 *   totals                                  Ann +16.67  Bo -6.67  Cy -10
 */
const SPLIIT_CSV =
  '\uFEFF"Date","Description","Category","Currency","Cost","Original cost","Original currency","Conversion rate",' +
  '"Is Reimbursement","Split mode","Ann","Bo","Cy"\n' +
  '"2025-05-01","Groceries","Groceries","CNY","30.00",,,,"No","Evenly",10,-10,-10\n' +
  '"2025-05-02","Train","Train","CNY","10.00",,,,"No","Unevenly – By shares",-3.33,6.67,0\n';

describe('group import (Splitwise, Spliit)', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => {
    await t.close();
  });

  const netsOf = async (as: ReturnType<TestApp['as']>, groupId: number) => {
    const res = await as.get(`/api/groups/${groupId}/balances`);
    assert.equal(res.statusCode, 200, res.body);
    const list = res.json().list as { nickname: string; net: number }[];
    return Object.fromEntries(list.map((b) => [b.nickname, b.net]));
  };
  const rowsIn = async (groupId: number) =>
    (await t.db.select({ n: count() }).from(transactions).where(eq(transactions.groupId, groupId)))[0]!.n;
  const paymentsIn = async (groupId: number) =>
    (await t.db.select({ n: count() }).from(settlements).where(eq(settlements.groupId, groupId)))[0]!.n;

  it('previews a Splitwise export: people, records, payments and the file totals', async () => {
    const ann = await createUser(t.db, { nickname: 'Ann' });
    const res = await t.as(ann).post('/api/groups/import/preview', { content: SPLITWISE });
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json();
    assert.equal(p.format, 'splitwise');
    assert.equal(p.currency, 'CNY');
    assert.deepEqual(p.group, { id: null, name: 'Splitwise', existing: false });
    assert.deepEqual(
      p.members.map(
        (m: { name: string; user_id: number | null; placeholder: boolean; net: number; stated: number }) => [
          m.name,
          m.user_id,
          m.placeholder,
          m.net,
          m.stated,
        ],
      ),
      [
        ['Ann', ann.id, false, -70, -70],
        ['Bo', null, true, 50, 50],
        ['Cy', null, true, 20, 20],
      ],
    );
    assert.deepEqual([p.expenses, p.payments, p.already_imported, p.ignored, p.total], [4, 1, 0, 1, 230]);
    assert.deepEqual(p.errors, []);
    // nothing written by a preview
    assert.equal((await t.db.select().from(groups).where(eq(groups.ownerId, ann.id))).length, 0);
  });

  it('imports a Splitwise export into a new group whose balances equal the file totals; a second upload books nothing', async () => {
    const ann = await createUser(t.db, { nickname: 'Ann' });
    const as = t.as(ann);
    const res = await as.post('/api/groups/import', { content: SPLITWISE, group_name: '合租' });
    assert.equal(res.statusCode, 201, res.body);
    const out = res.json();
    assert.deepEqual(
      [out.created, out.expenses, out.payments, out.already_imported, out.placeholders],
      [true, 4, 1, 0, 2],
    );
    const g = out.group_id as number;
    const group = (await as.get(`/api/groups/${g}`)).json();
    assert.deepEqual([group.name, group.currency, group.member_count, group.split_costs], ['合租', 'CNY', 3, true]);
    assert.deepEqual(await netsOf(as, g), { Ann: -70, Bo: 50, Cy: 20 });
    assert.equal(await rowsIn(g), 4);
    assert.equal(await paymentsIn(g), 1);
    // records sum to 230.00 (by hand above), none moves an account of Ann's
    const rows = await t.db.select().from(transactions).where(eq(transactions.groupId, g));
    assert.equal(
      rows.reduce((s, r) => s + r.amountMinor, 0),
      23000,
    );
    assert.ok(rows.every((r) => r.accountId === null && r.source === 'splitwise' && r.userId === ann.id));
    // placeholders: members nobody can sign in as
    const placeholders = await t.db
      .select({ nickname: users.nickname, status: users.status, username: users.username, provider: users.provider })
      .from(users)
      .innerJoin(groupMembers, eq(groupMembers.userId, users.id))
      .where(and(eq(groupMembers.groupId, g), eq(groupMembers.role, 'member')));
    assert.deepEqual(placeholders.map((p) => [p.nickname, p.status, p.username, p.provider]).sort(), [
      ['Bo', 'disabled', null, null],
      ['Cy', 'disabled', null, null],
    ]);

    // the same file again goes to the same group and adds nothing
    const again = (await as.post('/api/groups/import/preview', { content: SPLITWISE })).json();
    assert.deepEqual(again.group, { id: g, name: '合租', existing: true });
    assert.deepEqual([again.expenses, again.payments, again.already_imported], [0, 0, 5]);
    assert.deepEqual(
      again.members.map((m: { name: string; placeholder: boolean }) => [m.name, m.placeholder]),
      [
        ['Ann', false],
        ['Bo', false],
        ['Cy', false],
      ],
    );
    const second = await as.post('/api/groups/import', { content: SPLITWISE, group_id: g });
    assert.equal(second.statusCode, 201, second.body);
    assert.deepEqual([second.json().expenses, second.json().payments, second.json().placeholders], [0, 0, 0]);
    assert.equal(await rowsIn(g), 4);
    assert.equal(await paymentsIn(g), 1);
    assert.deepEqual(await netsOf(as, g), { Ann: -70, Bo: 50, Cy: 20 });
  });

  it('refuses a Splitwise file whose rows do not add up to its total balance, naming rows and people, writing nothing', async () => {
    const ann = await createUser(t.db, { nickname: 'Ann' });
    const as = t.as(ann);
    const bad = SPLITWISE.replace('-70.00,50.00,20.00', '-60.00,40.00,20.00')
      .replace('2025-03-02,Taxi', '2025-13-02,Taxi')
      .replace('2025-03-05,Snacks,Groceries,12.00,CNY', '2025-03-05,Snacks,Groceries,12.00,USD');
    // rows in two currencies: the person chooses the group's
    const mixed = (await as.post('/api/groups/import/preview', { content: bad })).json();
    assert.deepEqual(
      mixed.errors.map((e: { code: string; params: Record<string, string> }) => [e.code, e.params]),
      [['group_currencies', { currencies: 'CNY, USD' }]],
    );
    const p = (await as.post('/api/groups/import/preview', { content: bad, currency: 'CNY' })).json();
    assert.deepEqual(
      p.errors.map((e: { row: number; code: string }) => [e.row, e.code]),
      [
        [4, 'group_date'],
        [7, 'group_row_currency'],
      ],
    );
    assert.deepEqual(p.errors[0].params, { value: '2025-13-02' });
    const res = await as.post('/api/groups/import', { content: bad, currency: 'CNY' });
    assertError(res, 422, 42203);
    assert.equal(res.json().errors.length, 2);
    // with its rows fixed, the totals that disagree are named person by person
    const totals = SPLITWISE.replace('-70.00,50.00,20.00', '-60.00,40.00,20.00');
    const refused = await as.post('/api/groups/import', { content: totals });
    assertError(refused, 422, 42203);
    assert.deepEqual(
      refused.json().errors.map((e: { code: string; params: Record<string, string> }) => [e.code, e.params]),
      [
        ['group_total', { person: 'Ann', rows: '-70.00', total: '-60.00' }],
        ['group_total', { person: 'Bo', rows: '50.00', total: '40.00' }],
      ],
    );
    assert.equal((await t.db.select().from(groups).where(eq(groups.ownerId, ann.id))).length, 0);
    // not an export at all
    const none = await as.post('/api/groups/import/preview', { content: 'date,amount\n2025-01-01,3\n' });
    assertError(none, 422, 42203);
    assert.equal(none.json().errors[0].code, 'group_format');
  });

  it('imports a Spliit JSON export into an existing group: members matched, payer and shares kept, balances as computed by hand', async () => {
    const ann = await createUser(t.db, { nickname: 'Ann' });
    const bo = await createUser(t.db, { nickname: 'bo' });
    const group = await createGroup(t.db, ann.id, { name: 'Trip', currency: 'CNY', splitCosts: true });
    await addMember(t.db, group.id, bo.id);
    const as = t.as(ann);
    const p = (await as.post('/api/groups/import/preview', { content: SPLIIT, group_id: group.id })).json();
    assert.equal(p.format, 'spliit-json');
    assert.deepEqual(
      p.members.map((m: { name: string; user_id: number | null; net: number }) => [m.name, m.user_id, m.net]),
      [
        ['Ann', ann.id, 1.67],
        ['Bo', bo.id, 1.33],
        ['Cy', null, -3],
      ],
    );
    assert.deepEqual([p.expenses, p.payments, p.total], [4, 1, 61]);
    const res = await as.post('/api/groups/import', { content: SPLIIT, group_id: group.id });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.json().created, res.json().placeholders], [false, 1]);
    assert.deepEqual(await netsOf(as, group.id), { Ann: 1.67, bo: 1.33, Cy: -3 });
    // the train's shares as Spliit apportions them: 3.33 and 6.67, paid by Bo
    const train = (await t.db.select().from(transactions).where(eq(transactions.externalId, 'e2')))[0]!;
    assert.equal(train.paidBy, bo.id);
    const shares = (await as.get(`/api/transactions/${train.id}`)).json();
    assert.deepEqual(
      (shares.shares as { user_id: number; amount: number }[]).map((s) => [s.user_id, s.amount]).sort(),
      [
        [ann.id, 3.33],
        [bo.id, 6.67],
      ].sort(),
    );
    const refund = (await t.db.select().from(transactions).where(eq(transactions.externalId, 'e3')))[0]!;
    assert.deepEqual([refund.kind, refund.amountMinor], ['income', 600]);
    // a second upload adds nothing
    const again = await as.post('/api/groups/import', { content: SPLIIT, group_id: group.id });
    assert.deepEqual([again.json().expenses, again.json().payments, again.json().already_imported], [0, 0, 5]);
    assert.equal(await rowsIn(group.id), 4);
    assert.equal(await paymentsIn(group.id), 1);
    assert.deepEqual(await netsOf(as, group.id), { Ann: 1.67, bo: 1.33, Cy: -3 });
  });

  it('takes the members the person names, and only members of the group', async () => {
    const me = await createUser(t.db, { nickname: 'me' });
    const cy = await createUser(t.db, { nickname: 'Cyrus' });
    const group = await createGroup(t.db, me.id, { currency: 'CNY' });
    await addMember(t.db, group.id, cy.id);
    const as = t.as(me);
    const stranger = await createUser(t.db);
    assertError(
      await as.post('/api/groups/import/preview', {
        content: SPLIIT_CSV,
        group_id: group.id,
        members: [{ name: 'Ann', user_id: stranger.id }],
      }),
      400,
      40001,
    );
    const members = [
      { name: 'Ann', user_id: me.id },
      { name: 'Cy', user_id: cy.id },
      { name: 'Bo', user_id: null },
    ];
    const res = await as.post('/api/groups/import', { content: SPLIIT_CSV, group_id: group.id, members });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.json().expenses, res.json().placeholders], [2, 1]);
    assert.deepEqual(await netsOf(as, group.id), { me: 16.67, Bo: -6.67, Cyrus: -10 });
  });

  it('refuses a Spliit CSV row whose payer it cannot tell, and a group the caller does not own', async () => {
    const me = await createUser(t.db, { nickname: 'Ann' });
    const csv = `${SPLIIT_CSV}"2025-05-03","Bo paid Ann","Payment","CNY","5.00",,,,"Yes","Unevenly – By amount",-5,0,0\n`;
    const p = (await t.as(me).post('/api/groups/import/preview', { content: csv })).json();
    assert.deepEqual(
      p.errors.map((e: { row: number; code: string }) => [e.row, e.code]),
      [[4, 'group_payer_unknown']],
    );
    const owner = await createUser(t.db);
    const group = await createGroup(t.db, owner.id, { currency: 'CNY' });
    await addMember(t.db, group.id, me.id);
    assertError(await t.as(me).post('/api/groups/import', { content: SPLIIT, group_id: group.id }), 403, 40302);
    const other = await createGroup(t.db, owner.id, { currency: 'CNY' });
    assertError(await t.as(me).post('/api/groups/import/preview', { content: SPLIIT, group_id: other.id }), 403, 40302);
  });

  it('refuses a file in another currency than the group', async () => {
    const me = await createUser(t.db, { nickname: 'Ann' });
    const group = await createGroup(t.db, me.id, { currency: 'EUR' });
    const res = await t.as(me).post('/api/groups/import', { content: SPLIIT, group_id: group.id });
    assertError(res, 422, 42203);
    assert.deepEqual(res.json().errors[0].params, { currency: 'CNY', group: 'EUR' });
  });
});
