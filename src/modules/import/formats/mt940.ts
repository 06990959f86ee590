import { Errors } from '../../../lib/errors.ts';
import type { Encoding } from '../bill.read.ts';
import type { BillOutcome, ReadOptions } from '../import.rows.ts';
import { checkSignal } from '../import.signal.ts';
import {
  detectedOf,
  hundredths,
  hundredthsText,
  problem,
  scanAhead,
  StatementBalances,
  StatementRows,
  ymd,
  type StatementEntry,
} from './statement.ts';

/*
 * SWIFT MT940 account statements, several in one file, read line by line as the bytes stream past
 * (a file is never decoded whole). `:61:` is an entry, `:86:` its details, in the structured form
 * of German banks: a transaction code, then subfields `?00` (booking text), `?20`-`?29` and
 * `?60`-`?63` (purpose), `?30`/`?31` (the counterparty's bank and account), `?32`/`?33` (its
 * name). Each statement's opening balance plus its entries must equal its closing balance, else
 * the file is refused naming the statement: a file cut short or an entry misread is not booked.
 * The final closing balance (`:62F:`, not the intermediate `:62M:` of a statement continued on
 * another page) of each account's last statement is offered for reconciliation.
 */

export function isMt940(head: string): boolean {
  return /(^|\n|\{4:\s*)\s*:20:[^\n]*\r?\n(?:[^\n]*\r?\n){0,3}\s*:25:/.test(head);
}

const CHUNK = 64 * 1024;
/** a field longer than this is no statement's */
const MAX_FIELD = 64 * 1024;

const ENTRY =
  /^(\d{2})(\d{2})(\d{2})(\d{2})?(\d{2})?(RC|RD|C|D|EC|ED)([A-Z])?(\d{1,15},\d{0,2})([NSF][A-Z0-9]{3})?([^/\r\n]*)(?:\/\/([^\r\n]*))?/;
const BALANCE = /^([CD])(\d{2})(\d{2})(\d{2})([A-Z]{3})(\d{1,15},\d{0,2})/;

/** A SWIFT amount ("1500,00", or "3000," in a currency without decimals) in hundredths, or null. */
function swiftAmount(raw: string): number | null {
  return hundredths(raw.endsWith(',') ? raw.slice(0, -1) : raw, ',');
}

function fullYear(yy: number): number {
  return yy < 70 ? 2000 + yy : 1900 + yy;
}

/** The subfields of a structured `:86:` (?20 purpose...), or null when it is free text. */
function subfields(text: string): Map<string, string> | null {
  const flat = text.replace(/\r?\n/g, '');
  if (!/^\d{3}\?/.test(flat)) return null;
  const out = new Map<string, string>();
  const re = /\?(\d{2})([^?]*)/g;
  for (let m = re.exec(flat); m; m = re.exec(flat)) {
    const was = out.get(m[1]!);
    out.set(m[1]!, was === undefined ? m[2]! : was + m[2]!);
  }
  return out;
}

interface Statement {
  ref: string;
  account: string;
  currency: string | null;
  opening: number | null;
  sum: number;
  line: number;
}

interface Field {
  tag: string;
  text: string;
  line: number;
}

/** Where the reading of a file is: the statement open, the entry whose `:86:` may follow, the field being read. */
interface Reading {
  out: StatementRows;
  /** the accounts of the file, also by their number alone */
  accounts: Map<string, string>;
  balances: StatementBalances;
  st: Statement | null;
  statements: number;
  pending: { e: StatementEntry; supplementary: string } | null;
  field: Field | null;
  lineNo: number;
}

/** The accounts (`:25:`) of a file, read ahead to tell transfers between them. */
function fileAccounts(buf: Uint8Array): Map<string, string> {
  const keys = new Map<string, string>();
  for (const full of scanAhead(buf, /:25:([^\r\n]+)/g)) {
    keys.set(full, full);
    // a counterparty's ?31 gives the account number alone, without the bank code before the slash
    const tail = full.split('/').pop()!.replace(/^0+/, '');
    if (tail) keys.set(tail, full);
  }
  return keys;
}

function mismatch(s: Statement, closing: number) {
  const [opening, sum, close] = [hundredthsText(s.opening ?? 0), hundredthsText(s.sum), hundredthsText(closing)];
  return problem(
    'balance_mismatch',
    { statement: s.ref, opening, sum, closing: close },
    `statement ${s.ref}: the opening balance ${opening} and its entries (${sum}) do not make the closing balance ${close}: the file may be cut short`,
  );
}

async function flushEntry(r: Reading): Promise<void> {
  if (!r.pending) return;
  const p = r.pending;
  r.pending = null;
  await r.out.add(p.e);
}

/** `:60F:`/`:60M:`: the balance the statement (or its page) opens with. */
function openingBalance(r: Reading, s: Statement, text: string, at: number): void {
  const b = BALANCE.exec(text.trim());
  if (!b) {
    r.out.refuse(at, problem('bad_amount', { column: ':60F:', value: text.trim() }, `line ${at}: no opening balance`));
    return;
  }
  s.opening = (b[1] === 'D' ? -1 : 1) * swiftAmount(b[6]!)!;
  s.currency = b[5]!;
  s.sum = 0;
}

/** `:62F:`/`:62M:`: the opening balance and the entries must make it; a final one is offered for its account. */
function closingBalance(r: Reading, s: Statement, tag: string, text: string, at: number): void {
  const b = BALANCE.exec(text.trim());
  if (!b) {
    r.out.refuse(at, problem('bad_amount', { column: ':62F:', value: text.trim() }, `line ${at}: no closing balance`));
    return;
  }
  const closing = (b[1] === 'D' ? -1 : 1) * swiftAmount(b[6]!)!;
  if (s.opening !== null && s.opening + s.sum !== closing) r.out.refuse(at, mismatch(s, closing));
  s.opening = closing;
  s.sum = 0;
  if (tag === '62F') r.balances.add(s.account, b[5]!, b[6]!, b[1] === 'D', ymd(fullYear(+b[2]!), +b[3]!, +b[4]!));
}

/** The booking date of a `:61:` line: its own (which has no year) or its value date. */
function entryDate(m: RegExpExecArray): string | null {
  const year = fullYear(+m[1]!);
  const valueDate = ymd(year, +m[2]!, +m[3]!);
  if (!(m[4] && m[5])) return valueDate;
  // the booking date has no year: the value date's, or the one next to it across New Year
  const month = +m[4];
  const by = month === 12 && +m[2]! === 1 ? year - 1 : month === 1 && +m[2]! === 12 ? year + 1 : year;
  return ymd(by, month, +m[5]) ?? valueDate;
}

/** `:61:`: an entry, waiting for the `:86:` that may follow with its details. */
function entryLine(r: Reading, s: Statement, text: string, at: number): void {
  const [line, ...rest] = text.split(/\r?\n/);
  const m = ENTRY.exec(line!.trim());
  if (!m) {
    const value = line!.slice(0, 60);
    r.out.refuse(at, problem('bad_entry', { value }, `line ${at}: ":61:${value}" is no entry`));
    return;
  }
  const date = entryDate(m);
  if (!date) {
    r.out.refuse(at, problem('bad_date', { value: m[0].slice(0, 10), format: 'YYMMDD' }, `line ${at}: no valid date`));
    return;
  }
  const size = swiftAmount(m[8]!);
  if (size === null) {
    r.out.refuse(at, problem('bad_amount', { column: ':61:', value: m[8]! }, `line ${at}: "${m[8]}" is no amount`));
    return;
  }
  const mark = m[6]!;
  const amount = mark === 'D' || mark === 'RC' || mark === 'ED' ? -size : size;
  s.sum += amount;
  const given = (x: string | undefined) => (x && !/^NONREF$/i.test(x) ? x : '');
  const ref = given(m[11]?.trim()) || given(m[10]!.trim());
  r.pending = {
    e: {
      at,
      date,
      amount,
      account: s.account,
      currency: s.currency,
      counterparty: '',
      note: '',
      id: ref ? `${date}:${ref}` : null,
      category: null,
      transferAccount: null,
    },
    supplementary: rest.join(' ').trim(),
  };
}

/** `:86:`: the details of the entry before it, structured (German banks) or free text. */
function entryDetails(r: Reading, p: NonNullable<Reading['pending']>, text: string): void {
  const sub = subfields(text);
  const e = p.e;
  if (sub) {
    const purpose = [...sub.entries()]
      .filter(([k]) => (k >= '20' && k <= '29') || (k >= '60' && k <= '63'))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, v]) => v)
      .join('');
    const svwz = /SVWZ\+(.*?)(?=\b[A-Z]{4}\+|$)/.exec(purpose)?.[1]?.trim();
    e.note = [sub.get('00')?.trim(), svwz ?? purpose.trim()].filter(Boolean).join(' · ');
    e.counterparty = `${sub.get('32') ?? ''}${sub.get('33') ?? ''}`.trim();
    const other = sub.get('31')?.trim().replace(/^0+/, '');
    const own = other ? r.accounts.get(other) : undefined;
    if (own && own !== e.account) e.transferAccount = own;
    if (!e.counterparty && other) e.counterparty = other;
  } else e.note = text.replace(/\r?\n/g, ' ').trim();
  if (!e.note) e.note = p.supplementary;
}

async function fieldDone(r: Reading, { tag, text, line: at }: Field): Promise<void> {
  if (tag === '20') {
    await flushEntry(r);
    r.st = { ref: text.trim(), account: '', currency: null, opening: null, sum: 0, line: at };
    r.statements++;
    return;
  }
  const s = r.st;
  if (!s) return;
  if (tag === '25') s.account = text.trim();
  else if (tag === '60F' || tag === '60M') openingBalance(r, s, text, at);
  else if (tag === '61') {
    await flushEntry(r);
    entryLine(r, s, text, at);
  } else if (tag === '86' && r.pending) entryDetails(r, r.pending, text);
  else if (tag === '62F' || tag === '62M') {
    await flushEntry(r);
    closingBalance(r, s, tag, text, at);
  }
}

/** One line of the file: a field begins, goes on, or ends. */
async function takeLine(r: Reading, line: string): Promise<void> {
  r.lineNo++;
  let l = line;
  // the SWIFT envelope: {1:...}{2:...}{4: before the fields, -} after them
  if (l.startsWith('{')) {
    const at = l.lastIndexOf('{4:');
    if (at < 0) return;
    l = l.slice(at + 3);
    if (l.trim() === '') return;
  }
  const tag = /^:(\d{2}[A-Z]?):/.exec(l);
  if (tag) {
    if (r.field) await fieldDone(r, r.field);
    r.field = { tag: tag[1]!, text: l.slice(tag[0].length), line: r.lineNo };
  } else if (/^-\}?\s*$/.test(l) || l.trim() === '') {
    if (r.field) await fieldDone(r, r.field);
    r.field = null;
  } else if (r.field) {
    r.field.text += `\n${l}`;
    if (r.field.text.length > MAX_FIELD)
      throw Errors.importRejected([{ row: r.lineNo, message: 'a field of the file is too long' }]);
  }
}

export async function readMt940(buf: Uint8Array, encoding: Encoding, opts: ReadOptions): Promise<BillOutcome> {
  const detected = detectedOf('mt940', encoding);
  opts.onDetected?.(detected);
  const r: Reading = {
    out: new StatementRows(opts, detected),
    accounts: fileAccounts(buf),
    balances: new StatementBalances(),
    st: null,
    statements: 0,
    pending: null,
    field: null,
    lineNo: 0,
  };
  const decoder = new TextDecoder(encoding === 'utf-8' ? 'utf-8' : 'windows-1252');
  let carry = '';
  for (let i = 0; i < buf.length; i += CHUNK) {
    checkSignal(opts.signal);
    const text = carry + decoder.decode(buf.subarray(i, i + CHUNK), { stream: true });
    const lines = text.split(/\r?\n/);
    carry = lines.pop()!;
    if (carry.length > MAX_FIELD)
      throw Errors.importRejected([{ row: r.lineNo, message: 'a line of the file is too long' }]);
    for (const l of lines) await takeLine(r, l);
  }
  carry += decoder.decode();
  if (carry) await takeLine(r, carry);
  if (r.field) await fieldDone(r, r.field);
  await flushEntry(r);
  if (r.statements === 0)
    throw Errors.importRejected([{ row: 0, message: 'the file holds no MT940 statement (:20:)' }]);
  return { ...(await r.out.finish()), balances: r.balances.list };
}
