import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import {
  assertError,
  addMember,
  createGroup,
  build,
  type Client,
  createAdmin,
  createUser,
  type DocumentedRoute,
  documentedRoutes,
  firstCategory,
  type Method,
  multipart,
  referenceKeys,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';
import { decideBill } from './helpers/bill-decide.ts';
import {
  oidcIdentities,
  passkeys,
  refreshTokens,
  sessions,
  settlements,
  webhookEndpoints,
} from '../src/db/schema/index.ts';
import { defaultAccount } from '../src/modules/books/index.ts';

/**
 * One user's private rows are invisible to every other user: an id of them in a path is 40401 on
 * every route that takes one, an id of them in a body or query is refused (40001; a group the caller
 * is not in: 40302), and no list, statistic or export of another user ever shows them.
 *
 * The route tables below are checked against the served OpenAPI document, so a route added later
 * without a case here makes this file fail.
 */

/** Every text of Ada's carries this marker; nothing Ben reads may contain it. */
const MARK = 'AAPRIV';
/** a group export (Spliit's JSON) of one expense */
const SPLIIT_EXPORT = JSON.stringify({
  currencyCode: 'CNY',
  participants: [{ id: 'p1', name: 'Ann' }],
  expenses: [
    {
      id: 'x1',
      expenseDate: '2025-06-01',
      title: 'x',
      amount: 100,
      paidById: 'p1',
      paidFor: [{ participantId: 'p1', shares: 1 }],
      splitMode: 'EVENLY',
    },
  ],
});
const NONEXISTENT = 2147480000;

interface IdRoute {
  method: Method;
  path: string;
  /** the id Ben presents: one of Ada's, or of something Ben has no part in */
  foreign: () => number;
  body?: (own: boolean) => unknown;
  query?: string;
  expect: [status: number, code: number];
  /** a fresh id on which Ben's same request succeeds, with that status: the refusal is about whose row it is */
  own?: () => Promise<number>;
  ownStatus?: number;
  /** why a route has no `own` control */
  noControl?: string;
}

/** Routes whose path parameter is not a private row's id, and why. */
const NOT_PRIVATE: Record<string, string> = {
  'GET /api/avatars/{key}': 'public by contract: stored images under generated names',
  'GET /api/budgets/{month}': "a month, not a resource: always the caller's own budget",
  'PUT /api/budgets/{month}': "a month, not a resource: always the caller's own budget",
};

describe('privacy across users', () => {
  let t: TestApp;
  let admin: UserRow;
  let ada: UserRow;
  let ben: UserRow;
  let cy: UserRow;
  let A: Client;
  let B: Client;
  let C: Client;
  let root: Client;
  /** Ben's access token, for routes that take a token in the query */
  let benToken: string;

  // Ada's rows
  let tagA: { id: number; name: string };
  let catA: { id: number; name: string };
  let txA: Record<string, unknown> & { id: number };
  let groupTxA: { id: number };
  let filterA: Record<string, unknown> & { id: number };
  let webhookA: { id: number };
  let ruleA: Record<string, unknown> & { id: number };
  let groupA: { id: number; invite_code: string };
  let feedbackA: { id: number };
  let noticeA: { id: number };
  let settlementA: { id: number } | undefined;
  let adaExpenseIds: number[];
  let accA: { id: number };
  let attachmentA: { id: number };
  let picture: Buffer;
  let accA2: { id: number };
  let importA: { id: number };
  let importRuleA: { id: number };
  let presetA: { id: number };
  let accountA: number;

  // Ben's rows
  let catB: number;
  let tagB: number;
  let txB: { id: number };
  let ruleB: { id: number };
  let filterB: { id: number };
  let groupB: { id: number; invite_code: string };
  let noticeB: { id: number };
  let accB: { id: number };
  let accB2: { id: number };

  let seq = 0;
  const uniq = (prefix: string) => `${prefix} ${++seq}`;

  function ok<T = Record<string, unknown>>(res: LightMyRequestResponse, status = 201): T {
    assert.equal(res.statusCode, status, res.body);
    return res.json() as T;
  }

  function assertField(res: LightMyRequestResponse, field: string, label: string) {
    assertError(res, 400, 40001, label);
    const details = (res.json().details ?? []) as { field: string }[];
    assert.ok(
      details.some((d) => d.field === field),
      `${label}: expected a detail for ${field}, got ${res.body}`,
    );
  }

  const benWebhook = async () =>
    ok<{ id: number }>(
      await B.post('/api/webhooks', { url: 'https://example.com/hooks/ben', events: ['transaction.created'] }),
      201,
    ).id;
  /** an endpoint whose deliveries are refused at once (a loopback address, not allowed here): no network needed */
  const benWebhookNowhere = async () => {
    const id = await benWebhook();
    await t.db.update(webhookEndpoints).set({ url: 'http://127.0.0.1:9/x' }).where(eq(webhookEndpoints.id, id));
    return id;
  };
  const benTx = async () =>
    ok<{ id: number }>(
      await B.post('/api/transactions', {
        kind: 'expense',
        amount: 2,
        category_id: catB,
        date: '2025-06-11',
        note: uniq('ben tx'),
      }),
    );
  const bill = () =>
    multipart(readFileSync(new URL('./fixtures/bills/alipay-web.csv', import.meta.url)), { filename: 'bill.csv' });
  const benPreview = async () => ok<{ id: number }>(await B.post('/api/import/bills', bill()), 200).id;
  /** Ben's preview with his decisions made, ready to commit */
  const benDecidedPreview = async () => {
    const id = await benPreview();
    await decideBill(B, id);
    return id;
  };
  const photo = () => multipart(picture, { filename: 'receipt.png', type: 'image/png' });
  const benAttachment = async () =>
    ok<{ id: number }>(await B.post(`/api/transactions/${(await benTx()).id}/attachments`, photo()), 201);
  const benImportRule = async () =>
    ok<{ id: number }>(await B.post('/api/import-rules', { field: 'note', value: uniq('r'), category_id: catB })).id;
  const PRESET = {
    header: ['d', 'a', 'x'],
    mapping: { date: 'd', date_format: 'YYYY-MM-DD', amount: 'a', sign: 'negative_is_expense' },
  };
  const benPreset = async () =>
    ok<{ id: number }>(await B.post('/api/import/presets', { name: uniq('p'), ...PRESET })).id;
  const benCategory = async () =>
    ok<{ id: number }>(await B.post('/api/categories', { name: uniq('ben cat'), color: '#445566', kind: 'expense' }));
  const benAccount = async () =>
    ok<{ id: number }>(await B.post('/api/accounts', { name: uniq('ben acct'), type: 'cash' }));
  const benGroupNotice = async () =>
    ok<{ id: number }>(
      await B.post('/api/notifications', {
        scope: 'group',
        group_id: groupB.id,
        title: uniq('ben notice'),
        content: 'for the flat',
      }),
    );

  before(async () => {
    t = await build();
    admin = await createAdmin(t.db, { nickname: 'Root' });
    ada = await createUser(t.db, { nickname: 'Ada' });
    ben = await createUser(t.db, { nickname: 'Ben' });
    cy = await createUser(t.db, { nickname: 'Cy' });
    A = t.as(ada);
    B = t.as(ben);
    benToken = await t.tokenFor(ben);
    C = t.as(cy);
    root = t.as(admin);

    tagA = ok(await A.post('/api/tags', { name: `${MARK} tag` }));
    catA = ok(await A.post('/api/categories', { name: `${MARK} cat`, color: '#112233', kind: 'expense' }));
    txA = ok(
      await A.post('/api/transactions', {
        kind: 'expense',
        amount: '123.45',
        category_id: catA.id,
        date: '2025-06-10',
        note: `${MARK} note`,
        tag_ids: [tagA.id],
      }),
    );
    webhookA = ok(
      await A.post('/api/webhooks', {
        url: 'https://example.com/hooks/ada',
        description: `${MARK} webhook`,
        events: ['transaction.created'],
      }),
      201,
    );
    filterA = ok(
      await A.post('/api/filters', {
        name: `${MARK} filter`,
        criteria: { category_ids: [catA.id], tag_ids: [tagA.id], min_amount: 0 },
      }),
    );
    ruleA = ok(
      await A.post('/api/recurring', {
        kind: 'expense',
        amount: 9,
        category_id: catA.id,
        tag_ids: [tagA.id],
        note: `${MARK} rule`,
        frequency: 'monthly',
        start_date: '2099-01-01',
      }),
    );
    groupA = ok(await A.post('/api/groups', { name: `${MARK} group` }));
    groupTxA = ok(
      await A.post('/api/transactions', {
        kind: 'expense',
        amount: 77,
        category_id: catA.id,
        date: '2025-06-12',
        note: `${MARK} group note`,
        group_id: groupA.id,
      }),
    );
    // a payment in a group Ben has no part in
    {
      const dee = await createUser(t.db, { nickname: 'Dee' });
      const g = await createGroup(t.db, cy.id);
      await addMember(t.db, g.id, dee.id);
      [settlementA] = await t.db
        .insert(settlements)
        .values({
          groupId: g.id,
          fromUserId: dee.id,
          toUserId: cy.id,
          amountMinor: 500,
          date: '2025-06-12',
          note: `${MARK} paid`,
          createdBy: dee.id,
        })
        .returning();
    }
    feedbackA = ok(await A.post('/api/feedback', { content: `${MARK} feedback` }));
    ok(await root.post(`/api/admin/feedback/${feedbackA.id}/reply`, { reply: `${MARK} reply` }), 200);
    noticeA = ok(
      await root.post('/api/notifications', {
        scope: 'personal',
        user_id: ada.id,
        title: `${MARK} notice`,
        content: 'for Ada only',
        strong: true,
      }),
    );
    accA = ok(
      await A.post('/api/accounts', {
        name: `${MARK} acct`,
        type: 'debit_card',
        note: `${MARK} account note`,
        opening_balance: '424.24',
      }),
    );
    accA2 = ok(await A.post('/api/accounts', { name: `${MARK} acct 2`, type: 'e_wallet' }));
    picture = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    attachmentA = ok(await A.post(`/api/transactions/${txA.id}/attachments`, photo()), 201);
    ok(
      await A.post('/api/transactions', {
        kind: 'transfer',
        amount: '12.34',
        account_id: accA.id,
        to_account_id: accA2.id,
        date: '2025-06-10',
        note: `${MARK} transfer`,
      }),
    );
    ok(await A.put('/api/rates', { rates: [{ currency: 'USD', date: '2025-06-01', rate: '7.4242' }] }), 200);
    adaExpenseIds = ok<{ list: { id: number }[] }>(await A.get('/api/categories?kind=expense'), 200).list.map(
      (c) => c.id,
    );
    importA = ok(await A.post('/api/import/bills', bill()), 200);
    importRuleA = ok(
      await A.post('/api/import-rules', { field: 'counterparty', value: `${MARK} shop`, category_id: catA.id }),
    );
    presetA = ok(
      await A.post('/api/import/presets', {
        name: `${MARK} bank`,
        header: ['d', 'a'],
        mapping: { date: 'd', date_format: 'YYYY-MM-DD', amount: 'a', sign: 'negative_is_expense' },
      }),
    );
    accountA = (await defaultAccount(t.db, ada.id)).id;
    adaPasskey = await passkeyOf(ada.id);
    adaOidc = await oidcIdentityOf(ada.id);
    adaSession = await sessionOf(ada.id);
    adaToken = await tokenOf(A);
    await passkeyOf(ben.id);
    await sessionOf(ben.id);
    await tokenOf(B);

    catB = (await firstCategory(t.db, ben.id, 'expense')).id;
    tagB = ok<{ id: number }>(await B.post('/api/tags', { name: 'ben tag' })).id;
    txB = ok(
      await B.post('/api/transactions', {
        kind: 'expense',
        amount: 5,
        category_id: catB,
        date: '2025-06-10',
        note: 'ben lunch',
        tag_ids: [tagB],
      }),
    );
    ruleB = ok(
      await B.post('/api/recurring', {
        kind: 'expense',
        amount: 3,
        category_id: catB,
        note: 'ben rule',
        frequency: 'weekly',
        start_date: '2099-01-01',
      }),
    );
    filterB = ok(await B.post('/api/filters', { name: 'ben filter', criteria: { category_ids: [catB] } }));
    groupB = ok(await B.post('/api/groups', { name: 'Ben flat' }));
    noticeB = await benGroupNotice();
    accB = ok<{ list: { id: number }[] }>(await B.get('/api/accounts'), 200).list[0]!;
    accB2 = await benAccount();
    ok(await B.put('/api/rates', { rates: [{ currency: 'EUR', date: '2025-06-01', rate: '8' }] }), 200);
    ok(await B.post('/api/feedback', { content: 'ben feedback' }));
    ok(
      await root.post('/api/notifications', {
        scope: 'personal',
        user_id: ben.id,
        title: 'for Ben',
        content: 'for Ben only',
        strong: true,
      }),
    );
  });
  after(async () => t.close());

  /** A group of Ben's in which Cy owes Ben 10. */
  async function benCreditor(): Promise<{ id: number }> {
    const g = ok<{ id: number; invite_code: string }>(
      await B.post('/api/groups', { name: uniq('split'), split_costs: true }),
    );
    ok(await C.post('/api/groups/join', { invite_code: g.invite_code }), 200);
    ok(
      await B.post('/api/transactions', {
        kind: 'expense',
        amount: 20,
        category_id: catB,
        date: '2025-06-12',
        group_id: g.id,
      }),
    );
    return g;
  }

  /** A payment from Cy to Ben: recorded by Ben (he may take it back) or by Cy (Ben may confirm it). */
  async function benSettlement(byBen: boolean): Promise<{ id: number }> {
    const g = await benCreditor();
    return ok(await (byBen ? B : C).post(`/api/groups/${g.id}/settlements`, { from: cy.id, to: ben.id, amount: 5 }));
  }

  /**
   * Administrator routes, as the document states them (`x-auth`); each one must refuse a
   * non-administrator with 40301 before looking at anything else. Where the document does not
   * state it, that refusal of a request without a body decides.
   */
  async function isAdminRoute(route: DocumentedRoute): Promise<boolean> {
    const url = route.path.replace(/\{[^}]+\}/g, String(NONEXISTENT));
    const res = await B.request(route.method, url);
    const refused = res.statusCode === 403 && res.json().code === 40301;
    if (route.auth === undefined) return refused;
    if (route.auth === 'admin')
      assert.ok(refused, `${route.key} is documented as admin, but a non-administrator got ${res.body}`);
    return route.auth === 'admin';
  }

  let credSeq = 0;
  /** A stored passkey of a user (its key material is never used here). */
  async function passkeyOf(userId: number): Promise<{ id: number; credentialId: string }> {
    const credentialId = `cred-${userId}-${++credSeq}`;
    const [row] = await t.db
      .insert(passkeys)
      .values({
        userId,
        credentialId,
        publicKey: 'AA',
        name: userId === ada.id ? `${MARK} key` : 'key',
        deviceType: 'singleDevice',
      })
      .returning();
    return { id: row!.id, credentialId };
  }
  /** A provider account linked to a user (an OpenID Connect identity). */
  async function oidcIdentityOf(userId: number): Promise<number> {
    const [row] = await t.db
      .insert(oidcIdentities)
      .values({ userId, issuer: 'https://id.example', subject: `sub-${userId}-${++credSeq}`, email: `${MARK}@x.test` })
      .returning();
    return row!.id;
  }
  /** A signed-in session of a user: a family with a live refresh token. */
  async function sessionOf(userId: number): Promise<number> {
    const family = `fam-${userId}-${++credSeq}`;
    await t.db
      .insert(refreshTokens)
      .values({ userId, jtiHash: `${family}-jti`, family, expiresAt: new Date(Date.now() + 86_400_000) });
    const [row] = await t.db
      .insert(sessions)
      .values({ userId, family, userAgent: userId === ada.id ? `${MARK} browser` : 'browser' })
      .returning();
    return row!.id;
  }
  const tokenOf = async (c: Client) =>
    ok<{ id: number }>(await c.post('/api/me/tokens', { name: c === A ? `${MARK} token` : 'token', scopes: ['read'] }))
      .id;
  let adaPasskey: { id: number; credentialId: string };
  let adaOidc: number;
  let adaSession: number;
  let adaToken: number;

  /** Every route taking an id, with what Ben gets for Ada's id (or a group Ben is not in). */
  function idRoutes(): IdRoute[] {
    const routes: IdRoute[] = [
      {
        method: 'PUT',
        path: '/api/me/passkeys/{id}',
        foreign: () => adaPasskey.id,
        body: () => ({ name: 'taken' }),
        expect: [404, 40401],
        own: async () => (await passkeyOf(ben.id)).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/me/passkeys/{id}',
        foreign: () => adaPasskey.id,
        expect: [404, 40401],
        own: async () => (await passkeyOf(ben.id)).id,
        ownStatus: 204,
      },
      {
        method: 'DELETE',
        path: '/api/me/oidc/{id}',
        foreign: () => adaOidc,
        expect: [404, 40401],
        own: () => oidcIdentityOf(ben.id),
        ownStatus: 204,
      },
      {
        method: 'DELETE',
        path: '/api/me/sessions/{id}',
        foreign: () => adaSession,
        expect: [404, 40401],
        own: () => sessionOf(ben.id),
        ownStatus: 204,
      },
      {
        method: 'DELETE',
        path: '/api/me/tokens/{id}',
        foreign: () => adaToken,
        expect: [404, 40401],
        own: () => tokenOf(B),
        ownStatus: 204,
      },
      {
        method: 'GET',
        path: '/api/transactions/{id}',
        foreign: () => txA.id,
        expect: [404, 40401],
        own: async () => (await benTx()).id,
        ownStatus: 200,
      },
      {
        method: 'PUT',
        path: '/api/transactions/{id}',
        foreign: () => txA.id,
        body: () => ({ note: 'taken' }),
        expect: [404, 40401],
        own: async () => (await benTx()).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/transactions/{id}',
        foreign: () => txA.id,
        expect: [404, 40401],
        own: async () => (await benTx()).id,
        ownStatus: 204,
      },
      {
        method: 'PUT',
        path: '/api/tags/{id}',
        foreign: () => tagA.id,
        body: () => ({ name: uniq('renamed'), color: '#000000' }),
        expect: [404, 40401],
        own: async () => ok<{ id: number }>(await B.post('/api/tags', { name: uniq('tag') })).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/tags/{id}',
        foreign: () => tagA.id,
        expect: [404, 40401],
        own: async () => ok<{ id: number }>(await B.post('/api/tags', { name: uniq('tag') })).id,
        ownStatus: 204,
      },
      {
        method: 'PUT',
        path: '/api/filters/{id}',
        foreign: () => filterA.id,
        body: () => ({ name: 'taken', criteria: { kind: 'income' } }),
        expect: [404, 40401],
        own: async () => ok<{ id: number }>(await B.post('/api/filters', { name: uniq('f'), criteria: {} })).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/filters/{id}',
        foreign: () => filterA.id,
        expect: [404, 40401],
        own: async () => ok<{ id: number }>(await B.post('/api/filters', { name: uniq('f'), criteria: {} })).id,
        ownStatus: 204,
      },
      {
        method: 'GET',
        path: '/api/webhooks/{id}',
        foreign: () => webhookA.id,
        expect: [404, 40401],
        own: benWebhook,
        ownStatus: 200,
      },
      {
        method: 'PUT',
        path: '/api/webhooks/{id}',
        foreign: () => webhookA.id,
        body: () => ({ description: 'taken', enabled: false }),
        expect: [404, 40401],
        own: benWebhook,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/webhooks/{id}',
        foreign: () => webhookA.id,
        expect: [404, 40401],
        own: benWebhook,
        ownStatus: 204,
      },
      {
        method: 'POST',
        path: '/api/webhooks/{id}/secret',
        foreign: () => webhookA.id,
        expect: [404, 40401],
        own: benWebhook,
        ownStatus: 200,
      },
      {
        method: 'POST',
        path: '/api/webhooks/{id}/test',
        foreign: () => webhookA.id,
        expect: [404, 40401],
        own: benWebhookNowhere,
        ownStatus: 200,
      },
      {
        method: 'GET',
        path: '/api/webhooks/{id}/deliveries',
        foreign: () => webhookA.id,
        expect: [404, 40401],
        own: benWebhook,
        ownStatus: 200,
      },
      {
        method: 'PUT',
        path: '/api/categories/{id}',
        foreign: () => catA.id,
        body: () => ({ name: uniq('renamed'), color: '#000000', icon: 'x' }),
        expect: [404, 40401],
        own: async () => (await benCategory()).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/categories/{id}',
        foreign: () => catA.id,
        expect: [404, 40401],
        own: async () => (await benCategory()).id,
        ownStatus: 204,
      },
      {
        method: 'POST',
        path: '/api/categories/{id}/migrate',
        foreign: () => catA.id,
        body: () => ({ target_id: catB }),
        expect: [404, 40401],
        own: async () => (await benCategory()).id,
        ownStatus: 200,
      },
      {
        method: 'PUT',
        path: '/api/recurring/{id}',
        foreign: () => ruleA.id,
        body: () => ({ note: 'taken', active: false }),
        expect: [404, 40401],
        own: async () =>
          ok<{ id: number }>(
            await B.post('/api/recurring', {
              kind: 'expense',
              amount: 1,
              category_id: catB,
              frequency: 'daily',
              start_date: '2099-01-01',
            }),
          ).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/recurring/{id}',
        foreign: () => ruleA.id,
        expect: [404, 40401],
        own: async () =>
          ok<{ id: number }>(
            await B.post('/api/recurring', {
              kind: 'expense',
              amount: 1,
              category_id: catB,
              frequency: 'daily',
              start_date: '2099-01-01',
            }),
          ).id,
        ownStatus: 204,
      },
      {
        method: 'POST',
        path: '/api/notifications/{id}/read',
        foreign: () => noticeA.id,
        expect: [404, 40401],
        own: async () =>
          ok<{ id: number }>(
            await root.post('/api/notifications', {
              scope: 'personal',
              user_id: ben.id,
              title: uniq('for Ben'),
              content: 'hi',
            }),
          ).id,
        ownStatus: 204,
      },
      {
        method: 'PUT',
        path: '/api/notifications/{id}',
        foreign: () => noticeA.id,
        body: () => ({ title: 'taken' }),
        expect: [404, 40401],
        own: async () => (await benGroupNotice()).id,
        ownStatus: 200,
      },
      {
        method: 'PUT',
        path: '/api/notifications/{id}/pin',
        foreign: () => noticeA.id,
        body: () => ({ pinned: true }),
        expect: [404, 40401],
        own: async () => (await benGroupNotice()).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/notifications/{id}',
        foreign: () => noticeA.id,
        expect: [404, 40401],
        own: async () => (await benGroupNotice()).id,
        ownStatus: 204,
      },
      // a settlement belongs to its group: outside it, it does not exist
      {
        method: 'POST',
        path: '/api/settlements/{id}/confirm',
        foreign: () => settlementA!.id,
        expect: [404, 40401],
        own: async () => (await benSettlement(false)).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/settlements/{id}',
        foreign: () => settlementA!.id,
        expect: [404, 40401],
        own: async () => (await benSettlement(true)).id,
        ownStatus: 204,
      },
      // groups are shared, not private: an outsider is told 40302 (CONTRACT "Groups")
      ...(['balances', 'settlements/suggested', 'settlements'] as const).map((sub) => ({
        method: 'GET' as const,
        path: `/api/groups/{id}/${sub}`,
        foreign: () => groupA.id,
        expect: [403, 40302] as [number, number],
        own: async () => groupB.id,
        ownStatus: 200,
      })),
      {
        method: 'GET',
        path: '/api/groups/{id}',
        foreign: () => groupA.id,
        expect: [403, 40302],
        own: async () => groupB.id,
        ownStatus: 200,
      },
      {
        method: 'PUT',
        path: '/api/groups/{id}',
        foreign: () => groupA.id,
        body: () => ({ notify_threshold: 100 }),
        expect: [403, 40302],
        own: async () => groupB.id,
        ownStatus: 200,
      },
      {
        method: 'POST',
        path: '/api/groups/{id}/settlements',
        foreign: () => groupA.id,
        body: () => ({ from: cy.id, to: ben.id, amount: 1 }),
        expect: [403, 40302],
        own: async () => (await benCreditor()).id,
        ownStatus: 201,
      },
      {
        method: 'GET',
        path: '/api/groups/{id}/members',
        foreign: () => groupA.id,
        expect: [403, 40302],
        own: async () => groupB.id,
        ownStatus: 200,
      },
      {
        method: 'POST',
        path: '/api/groups/{id}/refresh-code',
        foreign: () => groupA.id,
        expect: [403, 40302],
        own: async () => ok<{ id: number }>(await B.post('/api/groups', { name: uniq('g') })).id,
        ownStatus: 200,
      },
      {
        method: 'POST',
        path: '/api/groups/{id}/dissolve',
        foreign: () => groupA.id,
        expect: [403, 40302],
        own: async () => ok<{ id: number }>(await B.post('/api/groups', { name: uniq('g') })).id,
        ownStatus: 204,
      },
      {
        method: 'POST',
        path: '/api/groups/{id}/leave',
        foreign: () => groupA.id,
        expect: [403, 40302],
        own: async () => {
          const g = ok<{ id: number; invite_code: string }>(await C.post('/api/groups', { name: uniq('cy g') }));
          ok(await B.post('/api/groups/join', { invite_code: g.invite_code }), 200);
          return g.id;
        },
        ownStatus: 204,
      },
      {
        method: 'POST',
        path: '/api/groups/{id}/remove-member',
        foreign: () => groupA.id,
        body: (own) => ({ user_id: own ? cy.id : ada.id }),
        expect: [403, 40302],
        own: async () => {
          ok(await C.post('/api/groups/join', { invite_code: groupB.invite_code }), 200);
          return groupB.id;
        },
        ownStatus: 204,
      },
      {
        method: 'GET',
        path: '/api/accounts/{id}',
        foreign: () => accA.id,
        expect: [404, 40401],
        own: async () => (await benAccount()).id,
        ownStatus: 200,
      },
      {
        method: 'PUT',
        path: '/api/accounts/{id}',
        foreign: () => accA.id,
        body: () => ({ name: 'taken', archived: true }),
        expect: [404, 40401],
        own: async () => (await benAccount()).id,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/accounts/{id}',
        foreign: () => accA.id,
        expect: [404, 40401],
        own: async () => (await benAccount()).id,
        ownStatus: 204,
      },
      {
        method: 'GET',
        path: '/api/accounts/{id}/ledger',
        foreign: () => accA.id,
        expect: [404, 40401],
        own: async () => (await benAccount()).id,
        ownStatus: 200,
      },
      {
        method: 'GET',
        path: '/api/accounts/{id}/balance-series',
        foreign: () => accA.id,
        expect: [404, 40401],
        own: async () => (await benAccount()).id,
        ownStatus: 200,
      },
      {
        method: 'POST',
        path: '/api/transactions/{id}/attachments',
        foreign: () => txA.id,
        body: () => photo(),
        expect: [404, 40401],
        own: async () => (await benTx()).id,
        ownStatus: 201,
      },
      {
        method: 'GET',
        path: '/api/transactions/{id}/attachments',
        foreign: () => txA.id,
        expect: [404, 40401],
        own: async () => (await benTx()).id,
        ownStatus: 200,
      },
      ...(['file', 'thumbnail'] as const).map((sub) => ({
        method: 'GET' as const,
        path: `/api/attachments/{id}/${sub}`,
        foreign: () => attachmentA.id,
        expect: [404, 40401] as [number, number],
        own: async () => (await benAttachment()).id,
        ownStatus: 200,
      })),
      {
        method: 'DELETE',
        path: '/api/attachments/{id}',
        foreign: () => attachmentA.id,
        expect: [404, 40401],
        own: async () => (await benAttachment()).id,
        ownStatus: 204,
      },
      {
        method: 'POST',
        path: '/api/accounts/{id}/reconcile',
        foreign: () => accA.id,
        body: () => ({ balance: 1, date: '2025-06-20' }),
        expect: [404, 40401],
        own: async () => (await benAccount()).id,
        ownStatus: 200,
      },
      {
        method: 'POST',
        path: '/api/accounts/{id}/merge',
        foreign: () => accA.id,
        body: () => ({ target_id: accB.id }),
        expect: [404, 40401],
        own: async () => (await benAccount()).id,
        ownStatus: 200,
      },
      {
        method: 'GET',
        path: '/api/import/bills/{id}',
        foreign: () => importA.id,
        expect: [404, 40401],
        own: benPreview,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/import/bills/{id}',
        foreign: () => importA.id,
        expect: [404, 40401],
        own: benPreview,
        ownStatus: 204,
      },
      {
        method: 'PATCH',
        path: '/api/import/bills/{id}/rows',
        foreign: () => importA.id,
        body: () => ({ rows: [{ row: 1, decision: 'skip' }] }),
        expect: [404, 40401],
        own: benPreview,
        ownStatus: 200,
      },
      {
        method: 'POST',
        path: '/api/import/bills/{id}/commit',
        foreign: () => importA.id,
        expect: [404, 40401],
        own: benDecidedPreview,
        ownStatus: 200,
      },
      {
        method: 'PUT',
        path: '/api/import-rules/{id}',
        foreign: () => importRuleA.id,
        body: () => ({ value: uniq('v') }),
        expect: [404, 40401],
        own: benImportRule,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/import-rules/{id}',
        foreign: () => importRuleA.id,
        expect: [404, 40401],
        own: benImportRule,
        ownStatus: 204,
      },
      {
        method: 'PUT',
        path: '/api/import/presets/{id}',
        foreign: () => presetA.id,
        body: () => ({ name: uniq('n') }),
        expect: [404, 40401],
        own: benPreset,
        ownStatus: 200,
      },
      {
        method: 'DELETE',
        path: '/api/import/presets/{id}',
        foreign: () => presetA.id,
        expect: [404, 40401],
        own: benPreset,
        ownStatus: 204,
      },
      {
        method: 'GET',
        path: '/api/backup/{id}/download',
        foreign: () => 1,
        // Ben's own access token in the query
        query: 'token=BEN',
        expect: [401, 40101],
        noControl: "a backup is no user's row: only its own downloadToken opens it, never a user's access token",
      },
    ];
    return routes;
  }

  it('has a case for every non-administrator route that takes an id', async () => {
    const withParams = documentedRoutes(t.app).filter((r) => r.pathParams.length > 0);
    assert.ok(withParams.length >= 20, 'the document lists the routes');
    const adminKeys: string[] = [];
    const covered = new Set(idRoutes().map((r) => `${r.method} ${r.path}`));
    const uncovered: string[] = [];
    for (const route of withParams) {
      if (await isAdminRoute(route)) {
        adminKeys.push(route.key);
        continue;
      }
      if (NOT_PRIVATE[route.key]) {
        assert.notDeepEqual(route.pathParams, ['id'], `${route.key} takes an id: give it a case`);
        continue;
      }
      assert.deepEqual(route.pathParams, ['id'], `${route.key}: a new kind of path parameter needs a privacy case`);
      if (!covered.has(route.key)) uncovered.push(route.key);
    }
    assert.deepEqual(uncovered, [], 'routes taking an id without a privacy case');
    // every case is a served route, and the administrator routes were told apart
    const served = new Set(withParams.map((r) => r.key));
    assert.deepEqual(
      [...covered].filter((k) => !served.has(k)),
      [],
      'cases for routes that are not served',
    );
    assert.deepEqual(
      Object.keys(NOT_PRIVATE).filter((k) => !served.has(k)),
      [],
      'stale exemptions',
    );
    assert.ok(adminKeys.includes('DELETE /api/admin/users/{id}'), adminKeys.join(', '));
    assert.ok(adminKeys.includes('POST /api/admin/feedback/{id}/reply'), adminKeys.join(', '));
    assert.ok(!adminKeys.some((k) => covered.has(k)));
  });

  it("answers 404 (or 40302 for a group) to Ben on every route given Ada's id, and the same request on Ben's own id succeeds", async () => {
    for (const r of idRoutes()) {
      const label = `${r.method} ${r.path}`;
      const urlOf = (id: number) =>
        r.path.replace('{id}', String(id)) + (r.query ? `?${r.query.replace('BEN', benToken)}` : '');
      const res = await B.request(r.method, urlOf(r.foreign()), r.body?.(false));
      assertError(res, r.expect[0], r.expect[1], `${label} with Ada's id`);
      assert.ok(!res.body.includes(MARK), `${label} leaks: ${res.body}`);
      if (!r.own) {
        assert.ok(r.noControl, `${label} needs a control`);
        continue;
      }
      const id = await r.own();
      const control = await B.request(r.method, urlOf(id), r.body?.(true));
      assert.equal(control.statusCode, r.ownStatus, `${label} on Ben's own id: ${control.body}`);
    }
    // a move target does not help: Ada's category stays out of reach
    assertError(
      await B.delete(`/api/categories/${catA.id}?migrate_to=${catB}`),
      404,
      40401,
      "Ada's category with Ben's target",
    );
    assertError(await B.get(`/api/transactions/${groupTxA.id}`), 404, 40401, "Ada's group transaction");

    await assertAdaIntact();
  });

  async function assertAdaIntact() {
    const tx = ok<Record<string, unknown>>(await A.get(`/api/transactions/${txA.id}`), 200);
    assert.deepEqual(tx, txA);
    const tags = ok<{ list: { id: number; name: string; color: string | null }[] }>(await A.get('/api/tags'), 200).list;
    assert.deepEqual(
      tags.find((x) => x.id === tagA.id),
      tagA,
    );
    const cats = ok<{ list: { id: number; name: string }[] }>(await A.get('/api/categories'), 200).list;
    assert.deepEqual(
      cats.find((x) => x.id === catA.id),
      catA,
    );
    const filters = ok<{ list: { id: number }[] }>(await A.get('/api/filters'), 200).list;
    assert.deepEqual(
      filters.find((x) => x.id === filterA.id),
      filterA,
    );
    const rules = ok<{ list: { id: number }[] }>(await A.get('/api/recurring'), 200).list;
    assert.deepEqual(
      rules.find((x) => x.id === ruleA.id),
      ruleA,
    );
    const notices = ok<{ list: { id: number; read: boolean; pinned: boolean; title: string }[] }>(
      await A.get('/api/notifications?scope=personal&pageSize=100'),
      200,
    ).list;
    const n = notices.find((x) => x.id === noticeA.id);
    assert.ok(n, "Ada's notice is still there");
    assert.deepEqual(
      { read: n.read, pinned: n.pinned, title: n.title },
      { read: false, pinned: false, title: `${MARK} notice` },
    );
    const groups = ok<{ list: { id: number; invite_code: string; member_count: number }[] }>(
      await A.get('/api/groups'),
      200,
    ).list;
    assert.deepEqual(
      groups.map((g) => [g.id, g.invite_code, g.member_count]),
      [[groupA.id, groupA.invite_code, 1]],
    );
  }

  it("refuses Ada's ids used as references in Ben's bodies and queries, on every route that takes one", async () => {
    const spare = (await benCategory()).id;
    const beforeBen = await benCounts();
    const tx = { kind: 'expense', amount: 1, date: '2025-06-11' };
    const rule = { kind: 'expense', amount: 1, frequency: 'monthly', start_date: '2099-01-01' };
    const cases: Record<string, () => Promise<void>> = {
      // an account that is not Ben's matches nothing: an empty answer, nothing of Ada's
      'GET /api/transactions/possible-duplicates q.account_id': async () => {
        const res = await B.get(
          `/api/transactions/possible-duplicates?kind=expense&amount=123.45&currency=CNY&account_id=${accA.id}` +
            '&date=2025-06-10',
        );
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json().list, []);
        assert.ok(!res.body.includes(MARK), res.body);
      },
      // the JSON-RPC message's own id, echoed back, names nothing; the endpoint takes API tokens only
      'POST /api/mcp b.id': async () =>
        assertError(await B.post('/api/mcp', { jsonrpc: '2.0', id: txA.id, method: 'tools/list' }), 403, 40301),
      'POST /api/import/bills q.preset_id': async () =>
        assertField(await B.post(`/api/import/bills?preset_id=${presetA.id}`, bill()), 'preset_id', 'bill preset'),
      'PATCH /api/import/bills/{id}/rows b.bulk.set.account_id': async () =>
        assertField(
          await B.patch(`/api/import/bills/${await benPreview()}/rows`, {
            bulk: { rows: [1], set: { account_id: accountA } },
          }),
          'bulk.set.account_id',
          'bulk account',
        ),
      'PATCH /api/import/bills/{id}/rows b.bulk.set.category_id': async () =>
        assertField(
          await B.patch(`/api/import/bills/${await benPreview()}/rows`, {
            bulk: { rows: [1], set: { category_id: catA.id } },
          }),
          'bulk.set.category_id',
          'bulk category',
        ),
      'POST /api/import-rules b.category_id': async () =>
        assertField(
          await B.post('/api/import-rules', { field: 'note', value: 'x', category_id: catA.id }),
          'category_id',
          'import rule',
        ),
      'PUT /api/import-rules/{id} b.category_id': async () =>
        assertField(
          await B.put(`/api/import-rules/${await benImportRule()}`, { category_id: catA.id }),
          'category_id',
          'import rule update',
        ),
      'PUT /api/import-rules/order b.ids': async () =>
        assertField(await B.put('/api/import-rules/order', { ids: [importRuleA.id] }), 'ids', 'import rule order'),
      'POST /api/import/presets b.account_id': async () =>
        assertField(
          await B.post('/api/import/presets', { name: uniq('p'), ...PRESET, account_id: accountA }),
          'account_id',
          'preset',
        ),
      'PUT /api/import/presets/{id} b.account_id': async () =>
        assertField(
          await B.put(`/api/import/presets/${await benPreset()}`, { account_id: accountA }),
          'account_id',
          'preset update',
        ),
      // a column name, not an id: one that is not in the header is refused
      'POST /api/import/presets b.mapping.external_id': async () =>
        assertField(
          await B.post('/api/import/presets', {
            name: uniq('p'),
            header: PRESET.header,
            mapping: { ...PRESET.mapping, external_id: 'nope' },
          }),
          'mapping.external_id',
          'preset column',
        ),
      'PUT /api/import/presets/{id} b.mapping.external_id': async () =>
        assertField(
          await B.put(`/api/import/presets/${await benPreset()}`, {
            mapping: { ...PRESET.mapping, external_id: 'nope' },
          }),
          'mapping.external_id',
          'preset column update',
        ),
      // an order id is the person's own: the one Ada keeps neither stops Ben's entry nor shows through it
      'POST /api/transactions b.external_id': async () => {
        const order = { source: 'wechat', external_id: 'privacy-4200000001' };
        const hers = ok<{ id: number }>(
          await A.post('/api/transactions', { ...tx, category_id: catA.id, ...order }),
          201,
        );
        const his = ok<{ id: number }>(await B.post('/api/transactions', { ...tx, category_id: catB, ...order }), 201);
        assertError(await B.post('/api/transactions', { ...tx, category_id: catB, ...order }), 409, 40901, 'his own');
        assert.equal((await B.delete(`/api/transactions/${his.id}`)).statusCode, 204);
        assert.equal((await A.delete(`/api/transactions/${hers.id}`)).statusCode, 204);
      },
      'POST /api/transactions b.category_id': async () =>
        assertField(await B.post('/api/transactions', { ...tx, category_id: catA.id }), 'category_id', 'create'),
      'POST /api/transactions b.tag_ids': async () =>
        assertField(
          await B.post('/api/transactions', { ...tx, category_id: catB, tag_ids: [tagB, tagA.id] }),
          'tag_ids',
          'create',
        ),
      'POST /api/transactions b.group_id': async () =>
        assertError(
          await B.post('/api/transactions', { ...tx, category_id: catB, group_id: groupA.id }),
          403,
          40302,
          'create in group',
        ),
      'POST /api/groups/import b.group_id': async () =>
        assertError(
          await B.post('/api/groups/import', { content: SPLIIT_EXPORT, group_id: groupA.id }),
          403,
          40302,
          'group import',
        ),
      'POST /api/groups/import/preview b.group_id': async () =>
        assertError(
          await B.post('/api/groups/import/preview', { content: SPLIIT_EXPORT, group_id: groupA.id }),
          403,
          40302,
          'group import preview',
        ),
      'PUT /api/transactions/{id} b.category_id': async () =>
        assertField(await B.put(`/api/transactions/${txB.id}`, { category_id: catA.id }), 'category_id', 'update'),
      'PUT /api/transactions/{id} b.tag_ids': async () =>
        assertField(await B.put(`/api/transactions/${txB.id}`, { tag_ids: [tagA.id] }), 'tag_ids', 'update'),
      'PUT /api/transactions/{id} b.group_id': async () =>
        assertError(await B.put(`/api/transactions/${txB.id}`, { group_id: groupA.id }), 403, 40302, 'move into group'),
      'GET /api/transactions q.category_ids': async () =>
        assertOnlyBen(await B.get(`/api/transactions?category_ids=${catA.id},${catB}`), 'category filter'),
      'GET /api/transactions q.tag_ids': async () => {
        const res = await B.get(`/api/transactions?tag_ids=${tagA.id}`);
        assertOnlyBen(res, 'tag filter');
        assert.equal(res.json().total, 0);
      },
      'GET /api/transactions q.group_id': async () =>
        assertError(await B.get(`/api/transactions?group_id=${groupA.id}`), 403, 40302, 'group view'),
      'GET /api/transactions q.user_id': async () => {
        const res = await B.get(`/api/transactions?group_id=${groupB.id}&user_id=${ada.id}`);
        assertOnlyBen(res, 'member filter');
        assert.equal(res.json().total, 0);
      },
      'POST /api/recurring b.category_id': async () =>
        assertField(await B.post('/api/recurring', { ...rule, category_id: catA.id }), 'category_id', 'rule'),
      'POST /api/recurring b.tag_ids': async () =>
        assertField(
          await B.post('/api/recurring', { ...rule, category_id: catB, tag_ids: [tagA.id] }),
          'tag_ids',
          'rule',
        ),
      'POST /api/recurring b.group_id': async () =>
        assertError(
          await B.post('/api/recurring', { ...rule, category_id: catB, group_id: groupA.id }),
          403,
          40302,
          'rule in group',
        ),
      'PUT /api/recurring/{id} b.category_id': async () =>
        assertField(await B.put(`/api/recurring/${ruleB.id}`, { category_id: catA.id }), 'category_id', 'rule update'),
      'PUT /api/recurring/{id} b.tag_ids': async () =>
        assertField(await B.put(`/api/recurring/${ruleB.id}`, { tag_ids: [tagA.id] }), 'tag_ids', 'rule update'),
      'POST /api/recurring b.account_id': async () =>
        assertField(
          await B.post('/api/recurring', { ...rule, category_id: catB, account_id: accA.id }),
          'account_id',
          'rule in her account',
        ),
      'POST /api/recurring b.to_account_id': async () =>
        assertField(
          await B.post('/api/recurring', {
            kind: 'transfer',
            amount: 1,
            account_id: accB.id,
            to_account_id: accA.id,
            frequency: 'monthly',
            start_date: '2099-01-01',
          }),
          'to_account_id',
          'rule into her account',
        ),
      'PUT /api/recurring/{id} b.account_id': async () =>
        assertField(
          await B.put(`/api/recurring/${ruleB.id}`, { account_id: accA.id }),
          'account_id',
          'rule update into her account',
        ),
      'PUT /api/recurring/{id} b.to_account_id': async () => {
        // a transfer rule of Ben's own between two of his accounts of one currency, taken back after
        const mine = ok<{ list: { id: number; currency: string; archived: boolean }[] }>(
          await B.get('/api/accounts'),
          200,
        ).list.filter((a) => !a.archived);
        const pair = mine.flatMap((a) =>
          mine.filter((b) => b.id !== a.id && b.currency === a.currency).map((b) => [a.id, b.id] as const),
        )[0];
        assert.ok(pair, 'Ben has two accounts of one currency');
        const own = ok<{ id: number }>(
          await B.post('/api/recurring', {
            kind: 'transfer',
            amount: 1,
            account_id: pair[0],
            to_account_id: pair[1],
            frequency: 'monthly',
            start_date: '2099-01-01',
          }),
        );
        assertField(
          await B.put(`/api/recurring/${own.id}`, { to_account_id: accA.id }),
          'to_account_id',
          'rule update to her account',
        );
        assert.equal((await B.delete(`/api/recurring/${own.id}`)).statusCode, 204);
      },
      'PUT /api/recurring/{id} b.group_id': async () =>
        assertError(await B.put(`/api/recurring/${ruleB.id}`, { group_id: groupA.id }), 403, 40302, 'rule into group'),
      'POST /api/transactions b.account_id': async () =>
        assertField(
          await B.post('/api/transactions', { ...tx, category_id: catB, account_id: accA.id }),
          'account_id',
          'create in her account',
        ),
      'POST /api/transactions b.to_account_id': async () =>
        assertField(
          await B.post('/api/transactions', {
            kind: 'transfer',
            amount: 1,
            date: '2025-06-11',
            account_id: accB.id,
            to_account_id: accA.id,
          }),
          'to_account_id',
          'transfer to her',
        ),
      'POST /api/transactions b.fee_category_id': async () =>
        assertField(
          await B.post('/api/transactions', {
            kind: 'transfer',
            amount: 1,
            date: '2025-06-11',
            account_id: accB.id,
            to_account_id: accB2.id,
            fee: 1,
            fee_category_id: catA.id,
          }),
          'fee_category_id',
          'fee in her category',
        ),
      'PUT /api/transactions/{id} b.account_id': async () =>
        assertField(
          await B.put(`/api/transactions/${txB.id}`, { account_id: accA.id, amount: 1 }),
          'account_id',
          'move into her account',
        ),
      'PUT /api/transactions/{id} b.to_account_id': async () => {
        const transfer = ok<{ id: number }>(
          await B.post('/api/transactions', {
            kind: 'transfer',
            amount: 1,
            date: '2025-06-11',
            account_id: accB.id,
            to_account_id: accB2.id,
          }),
        );
        assertField(
          await B.put(`/api/transactions/${transfer.id}`, { to_account_id: accA.id }),
          'to_account_id',
          'redirect to her',
        );
        assertField(
          await B.put(`/api/transactions/${transfer.id}`, { fee: 1, fee_category_id: catA.id }),
          'fee_category_id',
          'fee in her category',
        );
        assert.equal((await B.delete(`/api/transactions/${transfer.id}`)).statusCode, 204);
      },
      'PUT /api/transactions/{id} b.fee_category_id': async () =>
        assertField(
          await B.put(`/api/transactions/${txB.id}`, { fee_category_id: catA.id }),
          'fee_category_id',
          'fee on an expense',
        ),
      'POST /api/accounts/{id}/merge b.target_id': async () =>
        assertField(
          await B.post(`/api/accounts/${accB2.id}/merge`, { target_id: accA.id }),
          'target_id',
          'merge into hers',
        ),
      'PUT /api/accounts/sort b.ids': async () => {
        const mine = ok<{ list: { id: number }[] }>(await B.get('/api/accounts?include_archived=true'), 200).list.map(
          (x) => x.id,
        );
        assertField(await B.put('/api/accounts/sort', { ids: [...mine, accA.id] }), 'ids', 'with hers');
        assertField(
          await B.put('/api/accounts/sort', { ids: [...mine.slice(1), accA.id] }),
          'ids',
          'one swapped for hers',
        );
      },
      'POST /api/categories/{id}/migrate b.target_id': async () =>
        assertField(await B.post(`/api/categories/${spare}/migrate`, { target_id: catA.id }), 'target_id', 'migrate'),
      'DELETE /api/categories/{id} q.migrate_to': async () => {
        assertField(
          await B.delete(`/api/categories/${spare}?migrate_to=${catA.id}`),
          'migrate_to',
          'delete with target',
        );
        assert.ok(
          ok<{ list: { id: number }[] }>(await B.get('/api/categories'), 200).list.some((c) => c.id === spare),
          'the category was not deleted',
        );
      },
      'PUT /api/categories/sort b.ids': async () => {
        assertField(await B.put('/api/categories/sort', { ids: adaExpenseIds }), 'ids', "Ada's order");
        const mine = ok<{ list: { id: number }[] }>(await B.get('/api/categories?kind=expense'), 200).list.map(
          (c) => c.id,
        );
        assertField(await B.put('/api/categories/sort', { ids: [...mine, catA.id] }), 'ids', 'with one of Ada');
        assertField(
          await B.put('/api/categories/sort', { ids: [...mine.slice(1), catA.id] }),
          'ids',
          'one swapped for Ada',
        );
      },
      'GET /api/budget q.group_id': async () =>
        assertError(await B.get(`/api/budget?group_id=${groupA.id}`), 403, 40302, 'budget'),
      'PUT /api/budget b.group_id': async () =>
        assertError(
          await B.put('/api/budget', { month: '2025-06', amount: 1, group_id: groupA.id }),
          403,
          40302,
          'group budget',
        ),
      'PUT /api/budget/mine b.group_id': async () =>
        assertError(
          await B.put('/api/budget/mine', { month: '2025-06', amount: 1, group_id: groupA.id }),
          403,
          40302,
          'own amount',
        ),
      'POST /api/groups/{id}/remove-member b.user_id': async () =>
        assertError(
          await B.post(`/api/groups/${groupB.id}/remove-member`, { user_id: ada.id }),
          404,
          40401,
          'remove a non-member',
        ),
      'POST /api/notifications b.group_id': async () =>
        assertError(
          await B.post('/api/notifications', { scope: 'group', group_id: groupA.id, title: 'x', content: 'y' }),
          403,
          40302,
          'notice to her group',
        ),
      'POST /api/notifications b.user_id': async () =>
        assertError(
          await B.post('/api/notifications', { scope: 'personal', user_id: ada.id, title: 'x', content: 'y' }),
          403,
          40301,
          'notice to her',
        ),
      'PUT /api/notifications/{id} b.group_id': async () =>
        assertError(
          await B.put(`/api/notifications/${noticeB.id}`, { group_id: groupA.id }),
          403,
          40302,
          'notice moved to her group',
        ),
      'PUT /api/notifications/{id} b.user_id': async () =>
        assertError(
          await B.put(`/api/notifications/${noticeB.id}`, { scope: 'personal', user_id: ada.id }),
          403,
          40301,
          'notice readdressed to her',
        ),
    };
    for (const verb of ['POST', 'PUT'] as const) {
      const url = verb === 'POST' ? '/api/filters' : `/api/filters/${filterB.id}`;
      const send = (criteria: Record<string, unknown>) =>
        verb === 'POST' ? B.post(url, { name: 'probe', criteria }) : B.put(url, { criteria });
      const key = `${verb} ${verb === 'POST' ? '/api/filters' : '/api/filters/{id}'}`;
      cases[`${key} b.criteria.category_ids`] = async () =>
        assertField(await send({ category_ids: [catB, catA.id] }), 'criteria.category_ids', `${key} categories`);
      cases[`${key} b.criteria.tag_ids`] = async () =>
        assertField(await send({ tag_ids: [tagA.id] }), 'criteria.tag_ids', `${key} tags`);
      cases[`${key} b.criteria.group_id`] = async () =>
        assertField(await send({ group_id: groupA.id }), 'criteria.group_id', `${key} group`);
      // a member id only narrows the view of a group Ben is in: naming Ada there shows nothing of hers
      cases[`${key} b.criteria.user_id`] = async () => {
        const res = await send({ group_id: groupB.id, user_id: ada.id });
        if (res.statusCode === 400) return assertField(res, 'criteria.user_id', `${key} member`);
        assert.equal(res.statusCode, verb === 'POST' ? 201 : 200, res.body);
        assertOnlyBen(await B.get(`/api/transactions?group_id=${groupB.id}&user_id=${ada.id}`), 'saved member filter');
        if (verb === 'POST') assert.equal((await B.delete(`/api/filters/${res.json().id}`)).statusCode, 204);
        else assert.equal((await B.put(url, { criteria: { category_ids: [catB] } })).statusCode, 200);
      };
    }
    // a credential id is the authenticator's name for a passkey: Ada's gets Ben nothing
    const foreignCredential = (response: Record<string, string>) => ({
      credential: { id: adaPasskey.credentialId, rawId: adaPasskey.credentialId, type: 'public-key', response },
    });
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: 'bm9uZQ', origin: 'http://localhost:3200' }),
    ).toString('base64url');
    cases['POST /api/auth/passkeys/register/verify b.credential.id'] = async () =>
      assertField(
        await B.post(
          '/api/auth/passkeys/register/verify',
          foreignCredential({ clientDataJSON: clientData, attestationObject: 'AA' }),
        ),
        'credential',
        'passkey registration',
      );
    cases['POST /api/auth/passkeys/login/verify b.credential.id'] = async () =>
      assertError(
        await B.post(
          '/api/auth/passkeys/login/verify',
          foreignCredential({ clientDataJSON: clientData, authenticatorData: 'AA', signature: 'AA' }),
        ),
        401,
        40106,
        'passkey sign-in',
      );
    const adaAccount = ok<{ list: { id: number }[] }>(await A.get('/api/accounts'), 200).list[0]!.id;
    for (const path of ['overview', 'category-share', 'trend', 'max', 'compare', 'summary', 'accounts']) {
      cases[`GET /api/stats/${path} q.tag_id`] = async () =>
        assertField(await B.get(`/api/stats/${path}?tag_id=${tagA.id}&date=2025-06-10`), 'tag_id', `stats ${path}`);
      cases[`GET /api/stats/${path} q.account_id`] = async () =>
        assertField(
          await B.get(`/api/stats/${path}?account_id=${adaAccount}&date=2025-06-10`),
          'account_id',
          `stats ${path}`,
        );
      // a member filter outside a group view, and Ada in Ben's own group view, show nothing of Ada's
      cases[`GET /api/stats/${path} q.user_id`] = async () =>
        assertField(await B.get(`/api/stats/${path}?user_id=${ada.id}&date=2025-06-10`), 'user_id', `stats ${path}`);
      cases[`GET /api/stats/${path} q.group_id`] =
        path === 'accounts'
          ? async () =>
              assertField(
                await B.get(`/api/stats/${path}?group_id=${groupA.id}&date=2025-06-10`),
                'group_id',
                `stats ${path}`,
              )
          : async () =>
              assertError(
                await B.get(`/api/stats/${path}?group_id=${groupA.id}&date=2025-06-10`),
                403,
                40302,
                `stats ${path}`,
              );
    }
    // (a reference inside an array item is not listed by the document walk: checked here on its own)
    assertError(
      await B.put('/api/budgets/2025-06', { categories: [{ category_id: catA.id, amount: 1 }] }),
      400,
      40001,
      'category budget',
    );

    // the table covers every reference field of every non-administrator route
    const expected: string[] = [];
    for (const route of documentedRoutes(t.app)) {
      const keys = referenceKeys(route);
      if (keys.length && !(await isAdminRoute(route))) expected.push(...keys);
    }
    assert.deepEqual(
      expected.filter((k) => !(k in cases)),
      [],
      'reference fields without a privacy case',
    );
    assert.deepEqual(
      Object.keys(cases).filter((k) => !expected.includes(k)),
      [],
      'cases for reference fields that are not served',
    );

    for (const [key, run] of Object.entries(cases)) {
      try {
        await run();
      } catch (err) {
        (err as Error).message = `${key}: ${(err as Error).message}`;
        throw err;
      }
    }

    // nothing was written for Ben, nothing of Ada's moved
    assert.deepEqual(await benCounts(), beforeBen);
    const notice = ok<{ scope: string; group_id: number | null; user_id: number | null }>(
      await B.put(`/api/notifications/${noticeB.id}`, {}),
      200,
    );
    assert.deepEqual([notice.scope, notice.group_id, notice.user_id], ['group', groupB.id, null]);
    const filter = ok<{ list: { id: number; criteria: unknown }[] }>(await B.get('/api/filters'), 200).list.find(
      (f) => f.id === filterB.id,
    );
    assert.deepEqual(filter?.criteria, { category_ids: [catB] });
    await assertAdaIntact();
    const ownTx = ok<{ list: { id: number }[] }>(await A.get(`/api/transactions?category_ids=${catA.id}`), 200).list;
    assert.deepEqual(
      ownTx.map((x) => x.id).sort((a, b) => a - b),
      [txA.id, groupTxA.id].sort((a, b) => a - b),
    );
  });

  async function benCounts() {
    return {
      transactions: ok<{ total: number }>(await B.get('/api/transactions'), 200).total,
      rules: ok<{ list: unknown[] }>(await B.get('/api/recurring'), 200).list.length,
      filters: ok<{ list: unknown[] }>(await B.get('/api/filters'), 200).list.length,
      categories: ok<{ list: unknown[] }>(await B.get('/api/categories'), 200).list.length,
      groups: ok<{ list: unknown[] }>(await B.get('/api/groups'), 200).list.length,
      accounts: ok<{ list: unknown[] }>(await B.get('/api/accounts?include_archived=true'), 200).list.length,
    };
  }

  function assertOnlyBen(res: LightMyRequestResponse, label: string) {
    assert.equal(res.statusCode, 200, `${label}: ${res.body}`);
    const list = res.json().list as { user_id: number }[];
    assert.ok(
      list.every((x) => x.user_id === ben.id),
      `${label}: ${res.body}`,
    );
    assert.ok(!res.body.includes(MARK), `${label}: ${res.body}`);
  }

  it("never answers Ben with Ada's stored response for the same Idempotency-Key", async () => {
    const body = { kind: 'expense', amount: '8.80', category_id: catA.id, date: '2025-06-14', note: `${MARK} keyed` };
    const first = await A.post('/api/transactions', body, { headers: { 'idempotency-key': 'shared-key-1' } });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(
      (await A.post('/api/transactions', body, { headers: { 'idempotency-key': 'shared-key-1' } })).json().id,
      first.json().id,
    );
    // the same key and the same body from Ben is Ben's own request: Ada's category is refused
    const same = await B.post('/api/transactions', body, { headers: { 'idempotency-key': 'shared-key-1' } });
    assertField(same, 'category_id', 'same key, same body');
    assert.ok(!same.body.includes(MARK));
    const own = await B.post(
      '/api/transactions',
      { ...body, category_id: catB, note: 'ben keyed' },
      { headers: { 'idempotency-key': 'shared-key-1' } },
    );
    assert.equal(own.statusCode, 201, own.body);
    assert.notEqual(own.json().id, first.json().id);
    assert.equal(own.json().user_id, ben.id);
    assert.equal(own.headers['idempotent-replayed'], undefined);
    assertError(await B.get(`/api/transactions/${first.json().id}`), 404, 40401, "Ada's keyed transaction");
  });

  it("keeps a group_id of Ada's group out of Ben's import", async () => {
    const file = JSON.stringify([
      {
        date: '2025-06-13',
        kind: 'expense',
        amount: 4.5,
        category: 'Food',
        note: 'ben import',
        tags: [],
        group_id: groupA.id,
      },
    ]);
    const res = await B.post('/api/import', multipart(file, { filename: 'import.json', type: 'application/json' }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().imported, 1);
    const imported = ok<{ list: { note: string; group_id: number | null; user_id: number }[] }>(
      await B.get('/api/transactions?keyword=ben%20import'),
      200,
    ).list;
    assert.deepEqual(
      imported.map((x) => [x.note, x.group_id, x.user_id]),
      [['ben import', null, ben.id]],
    );
    const groupView = ok<{ list: { user_id: number }[] }>(
      await A.get(`/api/transactions?group_id=${groupA.id}`),
      200,
    ).list;
    assert.ok(groupView.every((x) => x.user_id === ada.id));
  });

  it("never shows Ada's rows in Ben's lists, statistics, suggestions or export, while Ada's own show them", async () => {
    const lists: [string, (body: Record<string, unknown>) => number[]][] = [
      ['/api/transactions?pageSize=100', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/tags', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/filters', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/categories', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/recurring', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/feedback/mine?pageSize=100', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/notifications?pageSize=100', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/notifications/unread-count', (b) => (b.strong as { id: number }[]).map((x) => x.id)],
      ['/api/groups', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/me/passkeys', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/me/sessions', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/me/tokens', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/accounts?include_archived=true', (b) => (b.list as { id: number }[]).map((x) => x.id)],
      ['/api/rates', (b) => (b.list as { currency: string }[]).map((x) => (x.currency === 'USD' ? 1 : 2))],
    ];
    const adaIds: Record<string, number[]> = {
      '/api/transactions?pageSize=100': [txA.id, groupTxA.id],
      '/api/tags': [tagA.id],
      '/api/filters': [filterA.id],
      '/api/categories': [catA.id],
      '/api/recurring': [ruleA.id],
      '/api/feedback/mine?pageSize=100': [feedbackA.id],
      '/api/notifications?pageSize=100': [noticeA.id],
      '/api/notifications/unread-count': [noticeA.id],
      '/api/groups': [groupA.id],
      '/api/me/passkeys': [adaPasskey.id],
      '/api/me/sessions': [adaSession],
      '/api/me/tokens': [adaToken],
      '/api/accounts?include_archived=true': [accA.id, accA2.id],
      // Ada's rate is her USD one (1), Ben's his EUR one (2)
      '/api/rates': [1],
    };
    for (const [url, idsOf] of lists) {
      const mine = await A.get(url);
      assert.equal(mine.statusCode, 200, mine.body);
      for (const id of adaIds[url]!) assert.ok(idsOf(mine.json()).includes(id), `Ada's ${url} shows her row ${id}`);
      assert.ok(mine.body.includes(MARK) || url === '/api/rates');

      const theirs = await B.get(url);
      assert.equal(theirs.statusCode, 200, theirs.body);
      assert.ok(!theirs.body.includes(MARK), `Ben's ${url}: ${theirs.body}`);
      const ids = idsOf(theirs.json());
      assert.ok(ids.length > 0, `Ben's ${url} is not empty`);
      for (const id of adaIds[url]!) assert.ok(!ids.includes(id), `Ben's ${url} holds Ada's ${id}`);
    }
    // no balance, rate or net worth of Ada's reaches Ben
    const benAccounts = await B.get('/api/accounts?include_archived=true');
    // read as the answer's numbers, not its text: a timestamp such as 04:24:12.343Z holds "12.34"
    const numbers = (value: unknown): number[] =>
      typeof value === 'number'
        ? [value]
        : value && typeof value === 'object'
          ? Object.values(value).flatMap(numbers)
          : [];
    const benFigures = numbers(benAccounts.json());
    assert.ok(!benFigures.includes(424.24) && !benFigures.includes(12.34), benAccounts.body);
    assert.ok(!(await B.get('/api/rates')).body.includes('7.4242'));
    assert.ok(!(await B.get('/api/accounts/net-worth')).body.includes('424.24'));
    assert.ok((await A.get('/api/accounts')).body.includes('424.24'));
    // the reply to Ada's feedback reached Ada only
    assert.ok((await A.get('/api/notifications?scope=personal&pageSize=100')).body.includes(`${MARK} reply`));

    // statistics and budgets count Ben's own money only
    const stats = ok<{
      overview: { expense: number; count: number };
      category_share: { list: { category_id: number }[] };
    }>(await B.get('/api/stats/summary?date=2025-06-10'), 200);
    const benJune = ok<{ sums: { expense: number; count: number } }>(
      await B.get('/api/transactions?startDate=2025-06-01&endDate=2025-06-30'),
      200,
    ).sums;
    assert.equal(stats.overview.expense, benJune.expense);
    // statistics count income and expense rows; the list also holds Ben's transfers and adjustments
    const benIncome = ok<{ sums: { count: number } }>(
      await B.get('/api/transactions?startDate=2025-06-01&endDate=2025-06-30&kind=income'),
      200,
    ).sums;
    const benExpense = ok<{ sums: { count: number } }>(
      await B.get('/api/transactions?startDate=2025-06-01&endDate=2025-06-30&kind=expense'),
      200,
    ).sums;
    assert.equal(stats.overview.count, benIncome.count + benExpense.count);
    assert.ok(stats.category_share.list.every((c) => c.category_id !== catA.id));
    // the budget counts Ben's own rows whole and, of a record in a group that splits costs, his share
    const benRows = ok<{ list: { kind: string; amount: number; shares: { user_id: number; amount: number }[] }[] }>(
      await B.get('/api/transactions?startDate=2025-06-01&endDate=2025-06-30&kind=expense&pageSize=100'),
      200,
    ).list;
    const benSpent =
      benRows.reduce(
        (sum, r) =>
          sum +
          Math.round(100 * (r.shares.length ? (r.shares.find((x) => x.user_id === ben.id)?.amount ?? 0) : r.amount)),
        0,
      ) / 100;
    assert.ok(
      benRows.some((r) => r.shares.length),
      'Ben has records in a group that splits costs',
    );
    assert.equal(ok<{ spent: number }>(await B.get('/api/budget?month=2025-06'), 200).spent, benSpent);
    const adaJune = ok<{ overview: { expense: number } }>(await A.get('/api/stats/summary?date=2025-06-10'), 200);
    assert.equal(adaJune.overview.expense, 209.25);

    // suggestions come from Ben's own categories and history
    const suggest = ok<{ list: { category_id: number }[] }>(
      await B.get(`/api/categories/suggest?kind=expense&amount=123.45&note=${MARK}`),
      200,
    );
    const benCats = ok<{ list: { id: number }[] }>(await B.get('/api/categories'), 200).list.map((c) => c.id);
    assert.ok(suggest.list.length > 0);
    assert.ok(suggest.list.every((s) => benCats.includes(s.category_id)));

    // the export holds Ben's transactions only, in both formats
    for (const format of ['json', 'csv']) {
      const res = await B.get(`/api/export?startDate=2000-01-01&endDate=2100-12-31&format=${format}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(res.body.includes('ben lunch'), `${format}: ${res.body}`);
      assert.ok(!res.body.includes(MARK), `${format}: ${res.body}`);
      assert.ok(!res.body.includes('123.45'), `${format}: ${res.body}`);
      const own = await A.get(`/api/export?startDate=2000-01-01&endDate=2100-12-31&format=${format}`);
      assert.ok(own.body.includes(`${MARK} note`) && !own.body.includes('ben lunch'), `Ada's ${format}: ${own.body}`);
    }
    const rows = JSON.parse(
      (await B.get('/api/export?startDate=2000-01-01&endDate=2100-12-31&format=json')).body,
    ) as unknown[];
    assert.equal(rows.length, ok<{ total: number }>(await B.get('/api/transactions'), 200).total);
  });
});
