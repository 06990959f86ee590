import { Errors } from '../../../lib/errors.ts';
import { decodeText, type Encoding } from '../bill.read.ts';
import type { BillOutcome, ReadOptions, RowError } from '../import.rows.ts';
import {
  detectedOf,
  hundredths,
  hundredthsText,
  problem,
  StatementRows,
  ymd,
  type StatementEntry,
} from './statement.ts';

/*
 * QIF, the Quicken Interchange Format: sections headed `!Type:Bank`, `Cash`, `CCard`, `Oth A`,
 * `Oth L` whose records end with `^`; `!Account` blocks naming the account of the sections after
 * them; `L` a category, or `[Name]` another account (a transfer); splits as `S` (category), `E`
 * (memo) and `$` (amount) lines. Lists (categories, classes, memorised payments) and investment
 * sections hold no payments of an account and are passed over.
 *
 * Dates are written M/D/YY, M/D'YY (the apostrophe for years from 2000), DD/MM/YYYY or
 * YYYY-MM-DD, the order of day and month told by the file: a first number above 12 is a day, a
 * second one above 12 a day too. A file whose every date reads both ways is not guessed: the
 * person chooses the order (`dateOrder`).
 */

export type DateOrder = 'MDY' | 'DMY';

export function isQif(head: string): boolean {
  return /^\s*!(Type|Account|Option|Clear)\b/i.test(head);
}

const ACCOUNT_SECTIONS = new Set(['bank', 'cash', 'ccard', 'oth a', 'oth l']);

interface Split {
  category: string;
  memo: string;
  amount: string;
}

interface QifRecord {
  line: number;
  account: string;
  fields: Map<string, string>;
  splits: Split[];
}

interface DateParts {
  a: number;
  b: number;
  year: number;
  /** the year came first (YYYY-MM-DD): no doubt about the order */
  iso: boolean;
}

function dateParts(raw: string): DateParts | null {
  const s = raw.replace(/\s+/g, '');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) return { a: +m[2]!, b: +m[3]!, year: +m[1]!, iso: true };
  m = /^(\d{1,2})[-/.](\d{1,2})(['/.-])(\d{2}|\d{4})$/.exec(s);
  if (!m) return null;
  let year = +m[4]!;
  if (m[4]!.length === 2) year += m[3] === "'" ? 2000 : year < 70 ? 2000 : 1900;
  return { a: +m[1]!, b: +m[2]!, year, iso: false };
}

function dateOf(p: DateParts, order: DateOrder): string | null {
  if (p.iso || order === 'MDY') return ymd(p.year, p.a, p.b);
  return ymd(p.year, p.b, p.a);
}

/** The amount of a QIF field: 1,234.56 as Quicken writes it, or 1.234,56 from a European export. */
function qifAmount(raw: string): number | null {
  const s = raw.trim();
  return hundredths(s, /,\d{1,2}$/.test(s) && !/\.\d*$/.test(s) ? ',' : '.');
}

/** A category field: `Food:Groceries/Class` -> the category, or `[Savings]` -> the account. */
function target(raw: string): { category: string | null; account: string | null } {
  const s = raw.trim();
  const t = /^\[([^\]]+)\]/.exec(s);
  if (t) return { category: null, account: t[1]!.trim() };
  const c = s.split('/')[0]!.trim();
  return { category: c === '' ? null : c, account: null };
}

function readRecords(text: string): { records: QifRecord[]; accounts: Set<string> } {
  const records: QifRecord[] = [];
  const accounts = new Set<string>();
  let section: string | null = null;
  let account = '';
  let inAccountBlock = false;
  let autoSwitch = false;
  let fields = new Map<string, string>();
  let splits: Split[] = [];
  let start = 0;
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/^\ufeff/, '');
    if (line.trim() === '') continue;
    const head = line[0]!;
    if (head === '!') {
      const h = line.slice(1).trim().toLowerCase();
      if (h === 'option:autoswitch') autoSwitch = true;
      else if (h === 'clear:autoswitch') autoSwitch = false;
      else if (h === 'account') inAccountBlock = true;
      else if (h.startsWith('type:')) {
        section = h.slice(5).trim();
        inAccountBlock = false;
        // a section without an account block before it: its type names the account
        if (account === '') account = line.slice(6).trim();
      }
      fields = new Map();
      splits = [];
      continue;
    }
    if (start === 0) start = i + 1;
    if (head === '^') {
      if (inAccountBlock) {
        const name = fields.get('N')?.trim();
        if (name) {
          account = name;
          accounts.add(name);
        }
        // in an account list (AutoSwitch) each block only names an account
        if (!autoSwitch) inAccountBlock = false;
      } else if (section !== null && ACCOUNT_SECTIONS.has(section) && fields.size > 0)
        records.push({ line: start, account, fields, splits });
      fields = new Map();
      splits = [];
      start = 0;
      continue;
    }
    const value = line.slice(1);
    if (!inAccountBlock && head === 'S') splits.push({ category: value, memo: '', amount: '' });
    else if (!inAccountBlock && head === 'E' && splits.length) splits[splits.length - 1]!.memo = value;
    else if (!inAccountBlock && head === '$' && splits.length) splits[splits.length - 1]!.amount = value;
    else if (!fields.has(head)) fields.set(head, value);
  }
  return { records, accounts };
}

/** The order of day and month the dates of a file allow: one, or null when every date reads both ways. */
function fileOrder(records: QifRecord[]): { order: DateOrder | null; conflict: number | null } {
  let mdy = false;
  let dmy = false;
  for (const r of records) {
    const p = dateParts(r.fields.get('D') ?? '');
    if (!p || p.iso) continue;
    if (p.a > 12 && p.b <= 12) dmy = true;
    if (p.b > 12 && p.a <= 12) mdy = true;
    if (mdy && dmy) return { order: null, conflict: r.line };
  }
  return { order: mdy ? 'MDY' : dmy ? 'DMY' : null, conflict: null };
}

const refused = (e: RowError) => Errors.importRejected([e]);

/** The order the file's dates are read in: the person's, else the file's; refuses a file that leaves it open. */
function chooseOrder(records: QifRecord[], dated: (DateParts | null)[], chosen: DateOrder | null | undefined) {
  const found = fileOrder(records);
  if (found.conflict !== null && !chosen)
    throw refused({
      row: found.conflict,
      message:
        'the dates of this file are written both month first and day first: choose the date order and send it again',
      code: 'date_order_conflict',
      params: {},
    });
  const order = chosen ?? found.order;
  const undecided = records.filter((_, i) => dated[i] && !dated[i].iso);
  if (!order && undecided.length) {
    const lines = undecided.slice(0, 5).map((r) => r.line);
    throw refused({
      row: records[0]!.line,
      message: `every date of this file (such as "${records[0]!.fields.get('D')}", lines ${lines.join(', ')}${undecided.length > 5 ? '…' : ''}) reads both as month/day and as day/month: choose the date order (date_order=mdy or dmy) and send it again`,
      code: 'ambiguous_date_order',
      params: {
        value: records[0]!.fields.get('D') ?? '',
        rows: lines.join(', '),
        count: String(undecided.length),
        choices: 'mdy,dmy',
      },
    });
  }
  return { order, undecided: undecided.length };
}

type EntryBase = Pick<StatementEntry, 'at' | 'date' | 'account' | 'currency' | 'counterparty' | 'id'>;

/** A record split over categories: an entry a split, refused when a split is no amount or they do not add up. */
async function addSplits(out: StatementRows, r: QifRecord, base: EntryBase, total: number, memo: string) {
  const parts = r.splits.map((s) => ({ ...s, value: qifAmount(s.amount) }));
  const bad = parts.find((s) => s.value === null);
  if (bad) {
    const message = `line ${r.line}: split "${bad.amount}" is no amount`;
    out.refuse(r.line, problem('bad_amount', { column: '$', value: bad.amount }, message));
    return;
  }
  const sum = parts.reduce((a, s) => a + s.value!, 0);
  if (sum !== total) {
    const [t, s] = [hundredthsText(total), hundredthsText(sum)];
    const message = `line ${r.line}: the splits add up to ${s}, not the total ${t}`;
    out.refuse(r.line, problem('split_sum', { total: t, sum: s }, message));
    return;
  }
  for (const s of parts) {
    const t = target(s.category);
    await out.add({
      ...base,
      amount: s.value!,
      note: s.memo.trim() || memo,
      category: t.category,
      transferAccount: t.account,
    });
  }
}

/** One record of an account's section as its entry (or its splits), or its refusal. */
async function addRecord(
  out: StatementRows,
  r: QifRecord,
  date: string | null,
  order: DateOrder | null,
  accounts: Set<string>,
) {
  const raw = r.fields.get('D') ?? '';
  if (!date) {
    const format = order === 'DMY' ? 'DD/MM/YYYY' : 'MM/DD/YY';
    out.refuse(r.line, problem('bad_date', { value: raw, format }, `line ${r.line}: "${raw}" is no date`));
    return;
  }
  const v = r.fields.get('T') ?? r.fields.get('U') ?? '';
  const total = qifAmount(v);
  if (total === null) {
    out.refuse(r.line, problem('bad_amount', { column: 'T', value: v }, `line ${r.line}: "${v}" is no amount`));
    return;
  }
  const memo = r.fields.get('M')?.trim() ?? '';
  const num = r.fields.get('N')?.trim() ?? '';
  const base: EntryBase = {
    at: r.line,
    date,
    account: r.account || 'QIF',
    currency: null,
    counterparty: r.fields.get('P')?.trim() ?? '',
    id: null,
  };
  if (r.splits.length) return addSplits(out, r, base, total, memo);
  const t = target(r.fields.get('L') ?? '');
  await out.add({
    ...base,
    amount: total,
    note: memo || (num && !/^\D/.test(num) ? `#${num}` : ''),
    category: t.category,
    transferAccount: t.account !== null && (accounts.has(t.account) || t.account !== base.account) ? t.account : null,
  });
}

export async function readQif(
  buf: Uint8Array,
  encoding: Encoding,
  opts: ReadOptions & { dateOrder?: DateOrder | null },
): Promise<BillOutcome> {
  const { records, accounts } = readRecords(decodeText(buf, encoding));
  const detected = detectedOf('qif', encoding);
  opts.onDetected?.(detected);
  if (!records.length)
    throw Errors.importRejected([
      { row: 0, message: 'the file has no payments in a Bank, Cash, CCard, Oth A or Oth L section' },
    ]);
  const dated = records.map((r) => dateParts(r.fields.get('D') ?? ''));
  const { order, undecided } = chooseOrder(records, dated, opts.dateOrder);
  const out = new StatementRows(opts, detected);
  for (const [i, r] of records.entries()) {
    const p = dated[i];
    await addRecord(out, r, p ? dateOf(p, order ?? 'MDY') : null, order, accounts);
  }
  const outcome = await out.finish();
  if (order && undecided)
    outcome.dateOrder = { order: order === 'MDY' ? 'mdy' : 'dmy', chosen: opts.dateOrder != null };
  return outcome;
}
