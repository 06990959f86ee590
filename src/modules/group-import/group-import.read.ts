import { createHash } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import { currencyInfo, formatMinor, type CurrencyInfo } from '../../lib/currency.ts';

/*
 * The exports of two apps that share costs in a group, read into one shape: the people of the file
 * and its records, each with who paid and what each person's share is, in minor units.
 *
 * Splitwise (CSV): Date, Description, Category, Cost, Currency, then one column per person holding
 * their net for the row (what they paid less their share), and a last "Total balance" row per
 * currency with each person's net over the whole group. A row tells nets, not payers: one person
 * owed money is the payer (their share is the cost less their net); a row owed to several people
 * becomes one record per creditor (their own share cannot be told apart from what they paid);
 * a row in the category "Payment" is a payment between two people.
 *
 * Spliit (JSON): the group with its participants and expenses (amount in minor units, paidById,
 * paidFor with shares, splitMode, isReimbursement); each share is the amount apportioned by the
 * shares (largest remainder, the leftover units offered in an order seeded by the expense id, as
 * Spliit's balances compute them). Spliit (CSV): Date, Description, Category, Currency, Cost, ...,
 * Is Reimbursement, Split mode, then one column per participant: the payer's share positive, the
 * others' negative; a payer who has no share (a reimbursement) cannot be told from it.
 */

export type GroupFileFormat = 'splitwise' | 'spliit-json' | 'spliit-csv';

/** A record of the file: an expense (or, amount negative in Spliit, an income) or a payment. */
export interface GroupEntry {
  row: number;
  kind: 'expense' | 'income' | 'payment';
  date: string;
  title: string;
  category: string;
  /** minor units, positive */
  amount: number;
  /** index into the file's people: who paid (an income: who received it; a payment: who paid it) */
  payer: number;
  /** each person's share, minor units, adding up to `amount` (a payment: the one person paid) */
  shares: { person: number; amount: number }[];
  /** stable from upload to upload: the app's own id, else a digest of the row */
  externalId: string;
}

export interface GroupFileProblem {
  row: number;
  code: string;
  params: Record<string, string>;
  message: string;
}

export interface GroupFile {
  format: GroupFileFormat;
  /** the group's name as the file gives it ('' when it does not) */
  name: string;
  /** the currency the file states, or null (a Spliit group with a symbol only) */
  currency: string | null;
  people: string[];
  entries: GroupEntry[];
  /** rows that move no balance (a Splitwise expense nobody owes anything of) */
  ignored: number;
  /** Splitwise's own totals per person (minor units), where the file states them */
  stated: number[] | null;
  problems: GroupFileProblem[];
}

const MAX_PROBLEMS = 50;

function problem(row: number, code: string, params: Record<string, string>, message: string): GroupFileProblem {
  return { row, code, params, message };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

const DECIMAL = /^(-)?(\d{1,12})(?:\.(\d+))?$/;

/** A decimal of the file in minor units of `currency`; null when it is not one or has too many decimals. */
export function minorOf(raw: string, currency: CurrencyInfo): number | null {
  const m = DECIMAL.exec(raw.trim().replace(/,/g, ''));
  if (!m) return null;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > currency.digits) return null;
  const v = Number(m[2]) * 10 ** currency.digits + Number(frac.padEnd(currency.digits, '0') || '0');
  return m[1] && v !== 0 ? -v : v;
}

function isoDay(raw: unknown): string | null {
  const m = typeof raw === 'string' ? /^(\d{4})-(\d{2})-(\d{2})/.exec(raw.trim()) : null;
  if (!m) return null;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]! ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

const clip = (s: unknown, n: number) => (typeof s === 'string' ? s.trim().slice(0, n) : '');

/** Which app wrote the file, from its content; null when it is none of them. */
export function groupFileFormat(text: string): GroupFileFormat | null {
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('{'))
    return /"participants"\s*:/.test(head) && /"expenses"\s*:/.test(head) ? 'spliit-json' : null;
  const first = head.split(/\r?\n/, 1)[0] ?? '';
  if (/^"?Date"?,"?Description"?,"?Category"?,"?Cost"?,"?Currency"?,/.test(first)) return 'splitwise';
  if (/^"?Date"?,"?Description"?,"?Category"?,"?Currency"?,"?Cost"?,/.test(first) && /Split mode/.test(first))
    return 'spliit-csv';
  return null;
}

function csvRows(text: string): string[][] {
  return parseCsv(text.replace(/^\uFEFF/, ''), {
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
  }) as string[][];
}

/** Spliit's CSV writes a leading apostrophe before text a spreadsheet would run as a formula. */
const unquoteFormula = (s: string) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);

class Collector {
  readonly entries: GroupEntry[] = [];
  readonly problems: GroupFileProblem[] = [];
  ignored = 0;
  private readonly seen = new Map<string, number>();

  refuse(p: GroupFileProblem): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(p);
  }

  /** An id for a row without one, the same for the same row in the next upload of the file. */
  idOf(cells: string[]): string {
    const sig = cells.join('\u0000');
    const n = (this.seen.get(sig) ?? 0) + 1;
    this.seen.set(sig, n);
    return `r:${digest(`${sig}\u0000${n}`)}`;
  }
}

/** The people's columns of a line (from `at` on) in minor units; null (refused) when one is not a number. */
function personAmounts(
  c: Collector,
  row: number,
  cells: string[],
  at: number,
  people: string[],
  currency: CurrencyInfo,
): number[] | null {
  const nets: number[] = [];
  for (let i = 0; i < people.length; i++) {
    const raw = (cells[at + i] ?? '').trim();
    const v = raw === '' ? 0 : minorOf(raw, currency);
    if (v === null) {
      c.refuse(
        problem(
          row,
          'group_amount',
          { value: raw, person: people[i]! },
          `the amount "${raw}" of ${people[i]} is not a number in ${currency.code}`,
        ),
      );
      return null;
    }
    nets.push(v);
  }
  return nets;
}

const badDate = (row: number, raw: string) =>
  problem(row, 'group_date', { value: raw }, `"${raw}" is not a date (YYYY-MM-DD)`);
const badCost = (row: number, raw: string, currency: CurrencyInfo) =>
  problem(row, 'group_cost', { value: raw }, `the cost "${raw}" is not an amount in ${currency.code}`);

function fileOf(
  format: GroupFileFormat,
  c: Collector,
  v: { name?: string; currency: string | null; people: string[]; stated?: number[] | null },
): GroupFile {
  return {
    format,
    name: v.name ?? '',
    currency: v.currency,
    people: v.people,
    entries: c.entries,
    ignored: c.ignored,
    stated: v.stated ?? null,
    problems: c.problems,
  };
}

/** The currency to read a Splitwise file in: `want`, else the one its rows are in; a problem when it has several. */
function splitwiseCurrency(rows: string[][], want: string | null): CurrencyInfo | GroupFileProblem {
  const currencies = new Set<string>();
  for (const cells of rows.slice(1)) {
    const code = (cells[4] ?? '').trim().toUpperCase();
    if (code && (cells[0] ?? '').trim()) currencies.add(code);
  }
  const code = want ?? (currencies.size === 1 ? [...currencies][0]! : null);
  const currency = code ? currencyInfo(code) : undefined;
  if (currency) return currency;
  const list = [...currencies].join(', ');
  return code
    ? problem(1, 'group_currency', { currency: code }, `${code} is not a currency one can keep books in`)
    : problem(
        1,
        'group_currencies',
        { currencies: list },
        `the file has rows in several currencies (${list}): choose the group's currency`,
      );
}

/** One line of a Splitwise file: its entries collected; the nets of a Total balance line answered. */
function splitwiseLine(
  c: Collector,
  row: number,
  cells: string[],
  people: string[],
  currency: CurrencyInfo,
): number[] | undefined {
  const [dateRaw = '', desc = '', cat = '', costRaw = '', cur = ''] = cells.map((s) => s.trim());
  if (cur.toUpperCase() !== currency.code) {
    if (desc !== 'Total balance')
      c.refuse(
        problem(
          row,
          'group_row_currency',
          { currency: cur, group: currency.code },
          `the row is in ${cur || 'no currency'}, the group keeps ${currency.code}`,
        ),
      );
    return;
  }
  const nets = personAmounts(c, row, cells, 5, people, currency);
  if (!nets) return;
  if (desc === 'Total balance') return nets;
  const date = isoDay(dateRaw);
  const cost = minorOf(costRaw, currency);
  if (!date) return void c.refuse(badDate(row, dateRaw));
  if (cost === null || cost < 0) return void c.refuse(badCost(row, costRaw, currency));
  const sum = nets.reduce((s, n) => s + n, 0);
  if (sum !== 0)
    return void c.refuse(
      problem(
        row,
        'group_unbalanced',
        { sum: formatMinor(sum, currency) },
        `the people's amounts add up to ${formatMinor(sum, currency)}, not to zero`,
      ),
    );
  const id = c.idOf(cells.slice(0, 5 + people.length));
  splitwiseEntries(c, { row, date, title: desc, category: cat, cost, nets, id }, currency);
}

/** Splitwise's CSV export, in the currency `want` (the group's) when the file has several. */
export function readSplitwise(text: string, want: string | null): GroupFile {
  const rows = csvRows(text);
  const people = (rows[0] ?? []).slice(5).map((s) => s.trim());
  while (people.length && people[people.length - 1] === '') people.pop();
  const c = new Collector();
  const currency = splitwiseCurrency(rows, want);
  if (!('digits' in currency)) {
    c.refuse(currency);
    return fileOf('splitwise', c, { currency: want, people });
  }
  let stated: number[] | null = null;
  rows.forEach((cells, i) => {
    if (i === 0 || cells.every((s) => s.trim() === '')) return;
    stated = splitwiseLine(c, i + 1, cells, people, currency) ?? stated;
  });
  return fileOf('splitwise', c, { currency: currency.code, people, stated });
}

function splitwiseEntries(
  c: Collector,
  r: { row: number; date: string; title: string; category: string; cost: number; nets: number[]; id: string },
  currency: CurrencyInfo,
): void {
  const creditors = r.nets.flatMap((n, i) => (n > 0 ? [i] : []));
  const debtors = r.nets.flatMap((n, i) => (n < 0 ? [i] : []));
  const base = { row: r.row, date: r.date, title: r.title, category: r.category };
  if (!creditors.length) {
    c.ignored++;
    return;
  }
  if (r.category.toLowerCase() === 'payment') {
    if (creditors.length !== 1 || debtors.length !== 1)
      return c.refuse(problem(r.row, 'group_payment', {}, 'a payment must be from one person to one other person'));
    const amount = r.nets[creditors[0]!]!;
    c.entries.push({
      ...base,
      kind: 'payment',
      amount,
      payer: creditors[0]!,
      shares: [{ person: debtors[0]!, amount }],
      externalId: r.id,
    });
    return;
  }
  if (creditors.length === 1) {
    const payer = creditors[0]!;
    const own = r.cost - r.nets[payer]!;
    if (own < 0)
      return c.refuse(
        problem(
          r.row,
          'group_cost_short',
          { cost: formatMinor(r.cost, currency), owed: formatMinor(r.nets[payer]!, currency) },
          `the cost ${formatMinor(r.cost, currency)} is less than the ${formatMinor(r.nets[payer]!, currency)} owed to the payer`,
        ),
      );
    const shares = r.nets.flatMap((n, person) =>
      person === payer ? (own > 0 ? [{ person, amount: own }] : []) : n < 0 ? [{ person, amount: -n }] : [],
    );
    c.entries.push({ ...base, kind: 'expense', amount: r.cost, payer, shares, externalId: r.id });
    return;
  }
  // owed to several people: each creditor paid what they are owed, shared by the debtors in turn
  const left = debtors.map((d) => ({ person: d, owes: -r.nets[d]! }));
  creditors.forEach((payer, k) => {
    let due = r.nets[payer]!;
    const shares: { person: number; amount: number }[] = [];
    for (const d of left) {
      if (due === 0) break;
      const take = Math.min(due, d.owes);
      if (take === 0) continue;
      shares.push({ person: d.person, amount: take });
      d.owes -= take;
      due -= take;
    }
    c.entries.push({
      ...base,
      kind: 'expense',
      amount: r.nets[payer]!,
      payer,
      shares,
      externalId: `${r.id}:${k + 1}`,
    });
  });
}

function fnv1a(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * `amount` apportioned by `weights` by largest remainder; ties (an even split) are broken starting
 * at `offset`, so the leftover unit moves from one expense to the next as it does in Spliit.
 */
export function apportion(amount: number, weights: number[], offset: number): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (!weights.length || total === 0) return weights.map(() => 0);
  const out = weights.map((w) => Math.floor((amount * w) / total));
  const rest = weights.map((w, i) => ({ i, r: amount * w - out[i]! * total }));
  let remaining = amount - out.reduce((s, v) => s + v, 0);
  const n = weights.length;
  rest.sort((a, b) => b.r - a.r || ((a.i - offset + n) % n) - ((b.i - offset + n) % n));
  for (const { i } of rest) {
    if (remaining-- <= 0) break;
    out[i]! += 1;
  }
  return out;
}

interface SpliitExpense {
  id?: unknown;
  expenseDate?: unknown;
  title?: unknown;
  category?: { name?: unknown } | null;
  amount?: unknown;
  paidById?: unknown;
  paidFor?: unknown;
  isReimbursement?: unknown;
  splitMode?: unknown;
  notes?: unknown;
}

function spliitShares(
  e: SpliitExpense,
  amount: number,
  index: Map<string, number>,
): { person: number; amount: number }[] | null {
  if (!Array.isArray(e.paidFor) || !e.paidFor.length) return null;
  const paidFor: { id: string; shares: number }[] = [];
  for (const p of e.paidFor as { participantId?: unknown; shares?: unknown }[]) {
    if (typeof p?.participantId !== 'string' || !index.has(p.participantId)) return null;
    const w = e.splitMode === 'EVENLY' ? 1 : p.shares;
    if (typeof w !== 'number' || !Number.isSafeInteger(w) || w < 0) return null;
    paidFor.push({ id: p.participantId, shares: w });
  }
  paidFor.sort((a, b) => (a.id < b.id ? -1 : 1));
  const offset = typeof e.id === 'string' && e.id ? fnv1a(e.id) % paidFor.length : 0;
  const amounts = apportion(
    amount,
    paidFor.map((p) => p.shares),
    offset,
  );
  return paidFor.map((p, i) => ({ person: index.get(p.id)!, amount: amounts[i]! }));
}

/** Spliit's JSON export; `fallback`: the currency to read it in when the group names none. */
export function readSpliitJson(text: string, fallback: string | null): GroupFile {
  const c = new Collector();
  let doc: { name?: unknown; currencyCode?: unknown; participants?: unknown; expenses?: unknown };
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, '')) as typeof doc;
  } catch {
    doc = {};
  }
  const parts = Array.isArray(doc.participants) ? (doc.participants as { id?: unknown; name?: unknown }[]) : null;
  const expenses = Array.isArray(doc.expenses) ? (doc.expenses as SpliitExpense[]) : null;
  const empty = (p: GroupFileProblem, currency: string | null): GroupFile => {
    c.refuse(p);
    return fileOf('spliit-json', c, { name: clip(doc.name, 30), currency, people: [] });
  };
  if (!parts || !expenses || parts.some((p) => typeof p?.id !== 'string' || typeof p.name !== 'string'))
    return empty(problem(1, 'group_shape', {}, 'the file is not a Spliit export (participants and expenses)'), null);
  const code = typeof doc.currencyCode === 'string' && doc.currencyCode ? doc.currencyCode : fallback;
  const currency = code ? currencyInfo(code) : undefined;
  if (!currency)
    return empty(
      code
        ? problem(1, 'group_currency', { currency: code }, `${code} is not a currency one can keep books in`)
        : problem(1, 'group_no_currency', {}, "the file names no currency code: choose the group's currency"),
      code,
    );
  const index = new Map(parts.map((p, i) => [p.id as string, i]));
  expenses.forEach((e, i) => {
    const row = i + 1;
    const date = isoDay(e.expenseDate);
    const amount = e.amount;
    const payer = typeof e.paidById === 'string' ? index.get(e.paidById) : undefined;
    if (!date) return c.refuse(problem(row, 'group_date', { value: String(e.expenseDate) }, 'the expense has no date'));
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount === 0)
      return c.refuse(
        problem(row, 'group_cost', { value: String(amount) }, 'the amount is not a whole number of minor units'),
      );
    if (payer === undefined)
      return c.refuse(problem(row, 'group_payer', {}, 'the payer is not a participant of the group'));
    const shares = spliitShares(e, Math.abs(amount), index);
    if (!shares)
      return c.refuse(
        problem(row, 'group_shares', {}, 'the shares do not name participants of the group with whole weights'),
      );
    const title = clip(e.title, 200);
    const notes = clip(e.notes, 200);
    const base = {
      row,
      date,
      title: notes ? `${title} · ${notes}`.slice(0, 200) : title,
      category: clip(e.category?.name, 50),
      amount: Math.abs(amount),
      payer,
      externalId: typeof e.id === 'string' && e.id ? e.id.slice(0, 120) : c.idOf([JSON.stringify(e)]),
    };
    const others = shares.filter((s) => s.amount !== 0);
    if (e.isReimbursement === true && amount > 0 && others.length === 1 && others[0]!.person !== payer) {
      c.entries.push({ ...base, kind: 'payment', shares: others });
      return;
    }
    c.entries.push({ ...base, kind: amount > 0 ? 'expense' : 'income', shares: others });
  });
  const people = parts.map((p) => (p.name as string).trim());
  return fileOf('spliit-json', c, { name: clip(doc.name, 30), currency: currency.code, people });
}

function spliitCsvLine(
  c: Collector,
  row: number,
  cells: string[],
  head: { modeAt: number; people: string[] },
  currency: CurrencyInfo,
): void {
  const [dateRaw = '', desc = '', cat = '', , costRaw = ''] = cells.map((s) => s.trim());
  const date = isoDay(dateRaw);
  const cost = minorOf(costRaw, currency);
  if (!date) return c.refuse(badDate(row, dateRaw));
  if (cost === null || cost === 0) return c.refuse(badCost(row, costRaw, currency));
  const values = personAmounts(c, row, cells, head.modeAt + 1, head.people, currency);
  if (!values) return;
  const payers = values.flatMap((v, k) => (Math.sign(v) === Math.sign(cost) ? [k] : []));
  if (payers.length !== 1)
    return c.refuse(
      problem(
        row,
        'group_payer_unknown',
        {},
        'the CSV does not tell who paid (the payer has no share): import the JSON export',
      ),
    );
  const shares = values.flatMap((v, person) => (v !== 0 ? [{ person, amount: Math.abs(v) }] : []));
  const sum = shares.reduce((s, x) => s + x.amount, 0);
  if (sum !== Math.abs(cost)) {
    const [got, want] = [formatMinor(sum, currency), formatMinor(Math.abs(cost), currency)];
    return c.refuse(
      problem(
        row,
        'group_shares_sum',
        { sum: got, cost: want },
        `the shares add up to ${got}, not to the cost ${want}`,
      ),
    );
  }
  c.entries.push({
    row,
    date,
    kind: cost > 0 ? 'expense' : 'income',
    title: unquoteFormula(desc).slice(0, 200),
    category: unquoteFormula(cat).slice(0, 50),
    amount: Math.abs(cost),
    payer: payers[0]!,
    shares,
    externalId: c.idOf(cells),
  });
}

/** Spliit's CSV export (the payer is the one column of the cost's sign); `fallback` as for the JSON. */
export function readSpliitCsv(text: string, fallback: string | null): GroupFile {
  const rows = csvRows(text);
  const header = rows[0] ?? [];
  const modeAt = header.findIndex((h) => h.trim() === 'Split mode');
  const people = header.slice(modeAt + 1).map((s) => unquoteFormula(s.trim()));
  const c = new Collector();
  const codes = new Set(
    rows
      .slice(1)
      .map((r) => (r[3] ?? '').trim())
      .filter((code) => /^[A-Z]{3}$/.test(code)),
  );
  const code = codes.size === 1 ? [...codes][0]! : fallback;
  const currency = code ? currencyInfo(code) : undefined;
  if (!currency) {
    c.refuse(problem(1, 'group_no_currency', {}, "the file names no currency code: choose the group's currency"));
    return fileOf('spliit-csv', c, { currency: code, people });
  }
  rows.forEach((cells, i) => {
    if (i > 0 && cells.some((s) => s.trim() !== '')) spliitCsvLine(c, i + 1, cells, { modeAt, people }, currency);
  });
  return fileOf('spliit-csv', c, { currency: currency.code, people });
}

/** Reads a group export of any of the three kinds; null when the text is none of them. */
export function readGroupFile(text: string, currency: string | null): GroupFile | null {
  switch (groupFileFormat(text)) {
    case 'splitwise':
      return readSplitwise(text, currency);
    case 'spliit-json':
      return readSpliitJson(text, currency);
    case 'spliit-csv':
      return readSpliitCsv(text, currency);
    default:
      return null;
  }
}
