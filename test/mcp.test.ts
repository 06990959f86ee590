// The assistant endpoint, through the Model Context Protocol SDK's own client over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  addMember,
  build,
  countTransactions,
  createCategory,
  createGroup,
  createUser,
  type TestApp,
  type UserRow,
} from './helpers/index.ts';

type ToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

describe('the assistant endpoint (MCP over Streamable HTTP)', () => {
  let t: TestApp;
  let base: string;
  let me: UserRow;
  let roommate: UserRow;
  let food: { id: number };
  let writeToken: string;
  let readToken: string;
  const clients: McpClient[] = [];

  async function connect(token: string, lang = 'zh-CN'): Promise<McpClient> {
    const client = new McpClient({ name: 'test-assistant', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}`, 'accept-language': lang } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }
  const call = async (client: McpClient, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  async function token(scopes: string[]): Promise<string> {
    const res = await t.as(me).post('/api/me/tokens', { name: `mcp ${scopes.join('+')}`, scopes });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().token;
  }

  before(async () => {
    t = await build();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    me = await createUser(t.db, { nickname: '小明' });
    roommate = await createUser(t.db, { nickname: '阿强' });
    food = await createCategory(t.db, me.id, { name: '餐饮' });
    const group = await createGroup(t.db, me.id, { name: '室友', currency: 'CNY' });
    await addMember(t.db, group.id, roommate.id);
    writeToken = await token(['read', 'write']);
    readToken = await token(['read']);
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t?.close();
  });

  it('lists every tool, each with a JSON schema, to a write token', async () => {
    const client = await connect(writeToken);
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name).sort();
    assert.deepEqual(names, [
      'accounts',
      'budget_status',
      'category_shares',
      'group_balances',
      'list_categories',
      'list_groups',
      'period_summary',
      'record_entry',
      'record_group_expense',
      'record_settlement',
      'search_entries',
    ]);
    for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', tool.name);
    const record = tools.find((x) => x.name === 'record_entry')!;
    assert.ok(record.inputSchema.properties?.idempotency_key, 'write tools take an idempotency key');
  });

  it('records an entry once per idempotency key, answers in the person’s language, and reads it back', async () => {
    const client = await connect(writeToken);
    const before = await countTransactions(t.db, me.id);
    const args = {
      amount: '35',
      category_id: food.id,
      note: '午饭',
      date: '2026-11-20',
      idempotency_key: 'lunch-1120',
    };
    const first = await call(client, 'record_entry', args);
    assert.ok(!first.isError, first.content[0]?.text);
    assert.match(first.content[0]!.text, /^已记账：2026-11-20 支出 CNY 35\.00 · 餐饮 · 午饭/);
    const again = await call(client, 'record_entry', args);
    assert.ok(!again.isError, again.content[0]?.text);
    assert.match(again.content[0]!.text, /未重复记账/);
    assert.equal(await countTransactions(t.db, me.id), before + 1, 'recorded once');
    const found = await call(client, 'search_entries', { keyword: '午饭' });
    assert.match(found.content[0]!.text, /共 1 条/);
    const list = (await t.as(me).get('/api/transactions?keyword=午饭')).json().list;
    assert.equal(list.length, 1);
    assert.equal(list[0].amount, 35);
  });

  it('records a shared expense from one line in the group the line names, then settles it', async () => {
    const client = await connect(writeToken);
    const res = await call(client, 'record_group_expense', {
      text: '午饭 35 和室友AA',
      category_id: food.id,
      idempotency_key: 'aa-1',
    });
    assert.ok(!res.isError, res.content[0]?.text);
    const tx = (res.structuredContent as { transaction: { group_id: number; amount: number; shares: unknown[] } })
      .transaction;
    assert.equal(tx.amount, 35);
    assert.equal(tx.shares.length, 2, 'split between the two members');
    const balances = await call(client, 'group_balances', { group_id: tx.group_id });
    // computed by hand: 35 split equally, 小明 paid, so 阿强 owes 17.50; 小明's books count the 35 paid
    assert.match(balances.content[0]!.text, /阿强 #\d+: CNY -17\.50/);
    assert.match(balances.content[0]!.text, /阿强 付给 小明 CNY 17\.50/);
    const settled = await call(client, 'record_settlement', {
      group_id: tx.group_id,
      from: roommate.id,
      to: me.id,
      amount: '17.5',
      idempotency_key: 'settle-1',
    });
    assert.ok(!settled.isError, settled.content[0]?.text);
    const replay = await call(client, 'record_settlement', {
      group_id: tx.group_id,
      from: roommate.id,
      to: me.id,
      amount: '17.5',
      idempotency_key: 'settle-1',
    });
    assert.ok(!replay.isError, replay.content[0]?.text);
    const after = await call(client, 'group_balances', { group_id: tx.group_id });
    assert.match(after.content[0]!.text, /已无需结算/);
  });

  it('answers the summary tools in English for an English request', async () => {
    const client = await connect(writeToken, 'en-GB');
    const summary = await call(client, 'period_summary', { period: 'month', date: '2026-11-20' });
    assert.match(summary.content[0]!.text, /^2026-11-01 to 2026-11-30: income CNY 0\.00, expense CNY 70\.00/);
    const shares = await call(client, 'category_shares', { date: '2026-11-20' });
    assert.match(shares.content[0]!.text, /餐饮: CNY 70\.00 \(100%\)/);
    const accounts = await call(client, 'accounts', {});
    assert.match(accounts.content[0]!.text, /^Net worth CNY /);
    const budget = await call(client, 'budget_status', { month: '2026-11' });
    assert.match(budget.content[0]!.text, /No budget set for 2026-11; spent CNY 70.00/);
  });

  it('shows a read token only the read tools and records nothing with it', async () => {
    const client = await connect(readToken);
    const names = (await client.listTools()).tools.map((x) => x.name);
    assert.ok(names.includes('search_entries'));
    assert.ok(!names.some((n) => n.startsWith('record_')), names.join(','));
    const before = await countTransactions(t.db, me.id);
    const refused = await call(client, 'record_entry', { amount: '9', category_id: food.id }).catch(
      (err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }) as ToolResult,
    );
    assert.equal(refused.isError, true);
    assert.equal(await countTransactions(t.db, me.id), before, 'nothing written');
  });

  it('checks access as the routes do: another person’s group is not found', async () => {
    const stranger = await createUser(t.db);
    const theirs = await createGroup(t.db, stranger.id, { name: '别人的组' });
    const client = await connect(writeToken);
    const res = await call(client, 'group_balances', { group_id: theirs.id });
    assert.equal(res.isError, true);
    assert.equal((res.structuredContent as { code: number }).code, 40302);
  });

  it('takes only personal API tokens', async () => {
    const session = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await t.tokenFor(me)}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(session.status, 403);
    assert.equal(((await session.json()) as { code: number }).code, 40301);
    const anonymous = await fetch(`${base}/api/mcp`, { method: 'POST', body: '{}' });
    assert.equal(anonymous.status, 401);
    const get = await fetch(`${base}/api/mcp`, { headers: { authorization: `Bearer ${writeToken}` } });
    assert.equal(get.status, 405);
  });
});
