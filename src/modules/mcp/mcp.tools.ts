/**
 * The assistant tools. Each one is a named use case that calls the service's own HTTP operations
 * in the caller's name (`ToolContext.call`): access, scopes, validation, idempotency, rate limits
 * and the request log are exactly those of the routes, never a second copy of their rules.
 */
import { z } from 'zod';
import { type Lang, money, say } from './mcp.text.ts';

export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface ToolContext {
  lang: Lang;
  /** the person's own API operation, with their token */
  call<T = unknown>(
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<CallResult<T>>;
}

export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** needs a token with the write scope; read tokens do not see it */
  write: boolean;
  input: z.ZodRawShape;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolAnswer>;
}

/** an operation refused by the service: its contract code and message, shown to the assistant */
export class ToolRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

async function ok<T>(result: Promise<CallResult<T>>): Promise<CallResult<T>> {
  const res = await result;
  if (res.status >= 400) {
    const body = res.body as { code?: number; message?: string } | undefined;
    throw new ToolRefusal(body?.code ?? res.status * 100 + 1, body?.message ?? `HTTP ${res.status}`);
  }
  return res;
}

const query = (args: Record<string, unknown>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

const id = z.number().int().min(1).max(2147483647);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const amount = z
  .union([z.number().positive(), z.string().regex(/^\d{1,12}(\.\d{1,3})?$/)])
  .describe('in major units, at most the currency’s own decimals (0 for JPY, 2 for CNY, 3 for KWD)');
const idempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,64}$/)
  .optional()
  .describe('1 to 64 visible characters; the same key with the same arguments records once');
const period = z.enum(['week', 'month', 'year', 'custom']).optional().describe('default month');

interface Transaction {
  id: number;
  kind: string;
  amount: number;
  currency: string;
  date: string;
  note: string;
  category: { name: string } | null;
}
const entryLine = (lang: Lang, t: Transaction) => say.entry(lang, { ...t, category: t.category?.name ?? '' });

interface Parsed {
  kind: string | null;
  amount: number | null;
  currency: string | null;
  date: string;
  category_id: number | null;
  account_id: number | null;
  to_account_id: number | null;
  note: string;
  suggestions: { category_id: number }[];
}

/** one line read by the quick-entry parser into the fields of a new entry */
async function fieldsFromLine(ctx: ToolContext, text: string): Promise<Record<string, unknown>> {
  const { body: p } = await ok(ctx.call<Parsed>('POST', '/api/quick-entry/parse', { text }));
  if (p.amount === null) throw new ToolRefusal(40001, say.needAmount(ctx.lang));
  const kind = p.kind ?? 'expense';
  const fields: Record<string, unknown> = { kind, date: p.date, note: p.note };
  if (p.currency) {
    fields.original_amount = String(p.amount);
    fields.original_currency = p.currency;
  } else fields.amount = String(p.amount);
  if (p.account_id) fields.account_id = p.account_id;
  if (kind === 'transfer') fields.to_account_id = p.to_account_id;
  else fields.category_id = p.category_id ?? p.suggestions[0]?.category_id;
  if (kind !== 'transfer' && !fields.category_id) throw new ToolRefusal(40001, say.needCategory(ctx.lang));
  return fields;
}

async function record(ctx: ToolContext, fields: Record<string, unknown>, key: unknown): Promise<ToolAnswer> {
  const headers: Record<string, string> = typeof key === 'string' ? { 'idempotency-key': key } : {};
  const res = await ok(ctx.call<Transaction>('POST', '/api/transactions', fields, headers));
  const replayed = res.headers['idempotent-replayed'] === 'true';
  return {
    text: say.recorded(ctx.lang, entryLine(ctx.lang, res.body), replayed),
    data: { transaction: res.body, replayed },
  };
}

interface Group {
  id: number;
  name: string;
  currency: string;
}
interface Member {
  user_id: number;
  nickname: string;
}

/** the group a line names, or the only group there is */
async function groupOf(ctx: ToolContext, given: unknown, text: string): Promise<Group> {
  const { body } = await ok(ctx.call<Group[] | { list: Group[] }>('GET', '/api/groups'));
  const groups = Array.isArray(body) ? body : body.list;
  if (typeof given === 'number') {
    const g = groups.find((x) => x.id === given);
    if (g) return g;
    throw new ToolRefusal(40401, 'group not found');
  }
  const named = groups.filter((g) => text && text.includes(g.name));
  if (named.length === 1) return named[0]!;
  if (!named.length && groups.length === 1) return groups[0]!;
  throw new ToolRefusal(40001, say.needGroup(ctx.lang));
}

const recordEntry: ToolDef = {
  name: 'record_entry',
  title: 'Record an entry',
  description:
    'Record an expense, income or transfer of your own books, from one line as you would type it ' +
    '("午饭 35 微信", "dinner 45 eur amex yesterday") or from fields. A line is read by the same parser as ' +
    'the app’s quick entry; fields given beside it win.',
  write: true,
  input: {
    text: z.string().min(1).max(200).optional().describe('one line: amount, words for the category, account, date'),
    kind: z.enum(['expense', 'income', 'transfer']).optional(),
    amount: amount.optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .describe('when paid in another currency than the account’s'),
    category_id: id.optional(),
    account_id: id.optional(),
    to_account_id: id.optional(),
    date: day.optional(),
    note: z.string().max(200).optional(),
    idempotency_key: idempotencyKey,
  },
  async run(ctx, a) {
    const fields = typeof a.text === 'string' ? await fieldsFromLine(ctx, a.text) : { kind: 'expense' };
    for (const k of ['kind', 'category_id', 'account_id', 'to_account_id', 'date', 'note'] as const)
      if (a[k] !== undefined) fields[k] = a[k];
    if (a.amount !== undefined) {
      delete fields.original_amount;
      delete fields.original_currency;
      if (a.currency) {
        fields.original_amount = String(a.amount);
        fields.original_currency = a.currency;
        delete fields.amount;
      } else fields.amount = String(a.amount);
    }
    if (fields.amount === undefined && fields.original_amount === undefined)
      throw new ToolRefusal(40001, say.needAmount(ctx.lang));
    return record(ctx, fields, a.idempotency_key);
  },
};

const recordGroupExpense: ToolDef = {
  name: 'record_group_expense',
  title: 'Record a shared expense in a group',
  description:
    'Record an expense of a shared group ("午饭 35 和室友AA"): who paid (default you) and how it is split ' +
    '(default equally among every member). The group is group_id, or the one the line names, or your only group.',
  write: true,
  input: {
    text: z.string().min(1).max(200).optional(),
    group_id: id.optional(),
    amount: amount.optional(),
    category_id: id.optional(),
    paid_by: id.optional().describe('user id of the member who paid; default you'),
    split: z.enum(['equal', 'shares', 'exact', 'percent']).optional().describe('default equal among every member'),
    members: z
      .array(z.object({ user_id: id, value: z.union([z.number(), z.string()]).optional() }))
      .max(50)
      .optional()
      .describe('who shares it, with a weight, an exact amount or a percent as split says; default every member'),
    date: day.optional(),
    note: z.string().max(200).optional(),
    idempotency_key: idempotencyKey,
  },
  async run(ctx, a) {
    const text = typeof a.text === 'string' ? a.text : '';
    const group = await groupOf(ctx, a.group_id, text);
    const fields: Record<string, unknown> = text ? await fieldsFromLine(ctx, text) : { kind: 'expense' };
    // a group expense is counted in the group's currency, from the payer's books
    delete fields.account_id;
    if (fields.original_amount !== undefined) {
      fields.amount = fields.original_amount;
      delete fields.original_amount;
      delete fields.original_currency;
    }
    if (fields.note && typeof fields.note === 'string') fields.note = fields.note.replace(group.name, '').trim();
    for (const k of ['category_id', 'paid_by', 'date', 'note'] as const) if (a[k] !== undefined) fields[k] = a[k];
    if (a.amount !== undefined) fields.amount = String(a.amount);
    if (fields.amount === undefined) throw new ToolRefusal(40001, say.needAmount(ctx.lang));
    if (!fields.category_id) throw new ToolRefusal(40001, say.needCategory(ctx.lang));
    fields.kind = 'expense';
    fields.group_id = group.id;
    fields.split = { mode: a.split ?? 'equal', ...(a.members ? { members: a.members } : {}) };
    return record(ctx, fields, a.idempotency_key);
  },
};

const searchEntries: ToolDef = {
  name: 'search_entries',
  title: 'Search entries',
  description:
    'List entries with the bill filters: dates, kind, categories, tags, amounts, a keyword, a group; ' +
    'newest first, with the totals of everything that matches.',
  write: false,
  input: {
    start_date: day.optional(),
    end_date: day.optional(),
    kind: z.enum(['expense', 'income', 'transfer']).optional(),
    category_ids: z.array(id).max(50).optional(),
    tag_ids: z.array(id).max(50).optional(),
    min_amount: amount.optional(),
    max_amount: amount.optional(),
    keyword: z.string().max(200).optional(),
    group_id: id.optional(),
    page: z.number().int().min(1).max(1000).optional(),
    page_size: z.number().int().min(1).max(100).optional(),
  },
  async run(ctx, a) {
    const url =
      '/api/transactions' +
      query({
        startDate: a.start_date,
        endDate: a.end_date,
        kind: a.kind,
        category_ids: (a.category_ids as number[] | undefined)?.join(','),
        tag_ids: (a.tag_ids as number[] | undefined)?.join(','),
        min_amount: a.min_amount,
        max_amount: a.max_amount,
        keyword: a.keyword,
        group_id: a.group_id,
        page: a.page,
        pageSize: a.page_size,
      });
    const { body } = await ok(ctx.call<{ list: Transaction[]; total: number; sums: unknown }>('GET', url));
    const lines = body.list.map((t) => `- #${t.id} ${entryLine(ctx.lang, t)}`);
    return { text: [say.entries(ctx.lang, body.total, body.list.length), ...lines].join('\n'), data: body };
  },
};

const statsArgs = {
  period,
  date: day.optional().describe('a day inside the period; default today'),
  start: day.optional().describe('with period custom'),
  end: day.optional().describe('with period custom'),
  group_id: id.optional(),
};
const statsQuery = (a: Record<string, unknown>, type?: unknown) =>
  query({ period: a.period ?? 'month', date: a.date, start: a.start, end: a.end, group_id: a.group_id, type });

async function baseCurrency(ctx: ToolContext): Promise<string> {
  const { body } = await ok(ctx.call<{ base_currency: string }>('GET', '/api/accounts'));
  return body.base_currency;
}

const periodSummary: ToolDef = {
  name: 'period_summary',
  title: 'Period summary',
  description: 'Income, expense, balance, count and daily average of a week, month, year or custom period.',
  write: false,
  input: statsArgs,
  async run(ctx, a) {
    const { body } = await ok(
      ctx.call<{ start: string; end: string; income: number; expense: number; balance: number }>(
        'GET',
        `/api/stats/overview${statsQuery(a)}`,
      ),
    );
    return { text: say.summary(ctx.lang, body, await baseCurrency(ctx)), data: body };
  },
};

const categoryShares: ToolDef = {
  name: 'category_shares',
  title: 'Category shares',
  description: 'How a period’s expense (or income) divides among the categories, largest first.',
  write: false,
  input: { ...statsArgs, type: z.enum(['expense', 'income']).optional().describe('default expense') },
  async run(ctx, a) {
    const { body } = await ok(
      ctx.call<{ total: number; list: { name: string; amount: number; percent: number }[] }>(
        'GET',
        `/api/stats/category-share${statsQuery(a, a.type ?? 'expense')}`,
      ),
    );
    const c = await baseCurrency(ctx);
    const lines = body.list.map((r) => `- ${r.name}: ${money(r.amount, c)} (${r.percent}%)`);
    return { text: [say.shares(ctx.lang, body.total, c), ...lines].join('\n'), data: body };
  },
};

const budgetStatus: ToolDef = {
  name: 'budget_status',
  title: 'Budget status',
  description: 'A month’s budget, what was spent and what is left; your own, or a group’s.',
  write: false,
  input: {
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
      .optional(),
    group_id: id.optional(),
  },
  async run(ctx, a) {
    const { body } = await ok(
      ctx.call<{ month: string; amount: number | null; spent: number; remaining: number | null; currency?: string }>(
        'GET',
        `/api/budget${query({ month: a.month, group_id: a.group_id })}`,
      ),
    );
    const c = body.currency ?? (await baseCurrency(ctx));
    return { text: say.budget(ctx.lang, body, c), data: body };
  },
};

const accounts: ToolDef = {
  name: 'accounts',
  title: 'Accounts and net worth',
  description: 'Your accounts with their balances, and your net worth in your base currency.',
  write: false,
  input: {},
  async run(ctx) {
    const { body } = await ok(
      ctx.call<{
        list: { id: number; name: string; balance: number; currency: string }[];
        net_worth: number;
        base_currency: string;
      }>('GET', '/api/accounts'),
    );
    const lines = body.list.map((x) => `- #${x.id} ${x.name}: ${money(x.balance, x.currency)}`);
    return { text: [say.netWorth(ctx.lang, body.net_worth, body.base_currency), ...lines].join('\n'), data: body };
  },
};

const listGroups: ToolDef = {
  name: 'list_groups',
  title: 'Groups and members',
  description: 'Your shared groups with their members (ids to use in the group tools).',
  write: false,
  input: {},
  async run(ctx) {
    const { body } = await ok(ctx.call<Group[] | { list: Group[] }>('GET', '/api/groups'));
    const groups = Array.isArray(body) ? body : body.list;
    const out = [];
    for (const g of groups) {
      const { body: m } = await ok(ctx.call<Member[] | { list: Member[] }>('GET', `/api/groups/${g.id}/members`));
      out.push({ ...g, members: Array.isArray(m) ? m : m.list });
    }
    const lines = out.map(
      (g) => `- #${g.id} ${g.name} (${g.currency}): ${g.members.map((m) => `${m.nickname} #${m.user_id}`).join(', ')}`,
    );
    return { text: [say.groups(ctx.lang), ...lines].join('\n'), data: { groups: out } };
  },
};

const listCategories: ToolDef = {
  name: 'list_categories',
  title: 'Categories',
  description: 'Your expense and income categories (ids to use when recording).',
  write: false,
  input: { kind: z.enum(['expense', 'income']).optional() },
  async run(ctx, a) {
    const { body } = await ok(
      ctx.call<{ id: number; name: string; kind: string }[] | { list: { id: number; name: string; kind: string }[] }>(
        'GET',
        `/api/categories${query({ kind: a.kind })}`,
      ),
    );
    const list = Array.isArray(body) ? body : body.list;
    const lines = list.map((c) => `- #${c.id} ${c.name} (${say.kind(ctx.lang, c.kind)})`);
    return { text: [say.categories(ctx.lang), ...lines].join('\n'), data: { list } };
  },
};

const groupBalances: ToolDef = {
  name: 'group_balances',
  title: 'Group balances and settlements',
  description: 'Who owes whom in a group, and the fewest payments that settle everything.',
  write: false,
  input: { group_id: id },
  async run(ctx, a) {
    const { body: b } = await ok(
      ctx.call<{ currency: string; list: { user_id: number; nickname: string; net: number }[] }>(
        'GET',
        `/api/groups/${a.group_id}/balances`,
      ),
    );
    const { body: s } = await ok(
      ctx.call<{ currency: string; list: { from: number; to: number; amount: number }[] }>(
        'GET',
        `/api/groups/${a.group_id}/settlements/suggested`,
      ),
    );
    const name = (uid: number) => b.list.find((x) => x.user_id === uid)?.nickname ?? `#${uid}`;
    const lines = [
      say.balances(ctx.lang),
      ...b.list.map((x) => `- ${x.nickname} #${x.user_id}: ${money(x.net, b.currency)}`),
      s.list.length ? say.settleUp(ctx.lang) : say.settled(ctx.lang),
      ...s.list.map((p) => `- ${say.pays(ctx.lang, name(p.from), name(p.to), money(p.amount, s.currency))}`),
    ];
    return { text: lines.join('\n'), data: { balances: b, suggested: s } };
  },
};

const recordSettlement: ToolDef = {
  name: 'record_settlement',
  title: 'Record a settlement',
  description:
    'Record a payment between two people of a group (you are one of them), in the group’s currency; ' +
    'it may not exceed what is outstanding between them.',
  write: true,
  input: {
    group_id: id,
    from: id.describe('user id of who paid'),
    to: id.describe('user id of who was paid'),
    amount,
    date: day.optional(),
    note: z.string().max(200).optional(),
    idempotency_key: idempotencyKey,
  },
  async run(ctx, a) {
    const headers: Record<string, string> =
      typeof a.idempotency_key === 'string' ? { 'idempotency-key': a.idempotency_key } : {};
    const res = await ok(
      ctx.call<{ id: number; from: number; to: number; amount: number; currency: string; date: string }>(
        'POST',
        `/api/groups/${a.group_id}/settlements`,
        { from: a.from, to: a.to, amount: String(a.amount), date: a.date, note: a.note },
        headers,
      ),
    );
    const s = res.body;
    const replayed = res.headers['idempotent-replayed'] === 'true';
    const what = `${s.date} #${s.from} → #${s.to} ${money(s.amount, s.currency)}`;
    return { text: say.recorded(ctx.lang, what, replayed), data: { settlement: s, replayed } };
  },
};

/** every tool, in the order an assistant is shown them */
export const TOOLS: readonly ToolDef[] = [
  recordEntry,
  recordGroupExpense,
  recordSettlement,
  searchEntries,
  periodSummary,
  categoryShares,
  budgetStatus,
  accounts,
  listCategories,
  listGroups,
  groupBalances,
];
