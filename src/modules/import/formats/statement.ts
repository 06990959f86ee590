import { createHash } from 'node:crypto';
import { currencyInfo, formatMinor, type CurrencyInfo } from '../../../lib/currency.ts';
import { parseBillAmount } from '../bill.text.ts';
import {
  BILL_MAX_ROWS,
  MAX_LISTED_ERRORS,
  tooManyRows,
  type BillOutcome,
  type Detected,
  type ReadOptions,
  type RowError,
  type SeedRow,
  type StatementBalance,
} from '../import.rows.ts';
import { checkSignal } from '../import.signal.ts';

/*
 * What the bank standards (OFX, QIF, CAMT, MT940) share once a file is read: entries of an account
 * as the statement states them, turned into the pipeline's proposed rows. A transfer between two
 * accounts of the same file is one row (its mirror in the other account's statement is left out),
 * an entry without a bank id gets one from what it says, stable from upload to upload.
 */

/** One entry of an account's statement, as the file states it. */
export interface StatementEntry {
  /** where the entry is in the file (its line, or its position among the entries), for messages */
  at: number;
  date: string;
  /** signed hundredths: negative leaves the account */
  amount: number;
  /** the account's key in the file (its number or name): the rows' payment method */
  account: string;
  currency: string | null;
  counterparty: string;
  note: string;
  /** the bank's id of the entry (FITID, AcctSvcrRef...), unique within the account */
  id: string | null;
  /** the category the file names (QIF) */
  category: string | null;
  /** another account of the same file the money went to or came from */
  transferAccount: string | null;
}

/** Why an entry cannot be read: a code the client words, its parameters, and the same in English. */
export interface EntryProblem {
  code: string;
  params: Record<string, string>;
  message: string;
}

export function problem(code: string, params: Record<string, string>, message: string): EntryProblem {
  return { code, params, message };
}

/** A decimal amount of a bank file in signed hundredths, or null (more than two decimals, not a number). */
export function hundredths(raw: string, decimal: '.' | ',' = '.'): number | null {
  const s = raw.trim();
  if (s === '') return null;
  return parseBillAmount(s, decimal);
}

/** Hundredths as the exact decimal a refusal names ("-12.30"), by the one minor-unit formatter. */
export function hundredthsText(n: number): string {
  return formatMinor(n, { code: '', digits: 2, name: 'hundredths' });
}

/** A calendar date from its parts, or null when there is no such day. */
export function ymd(y: number, m: number, d: number): string | null {
  if (!(y >= 1900 && y <= 2200 && m >= 1 && m <= 12 && d >= 1)) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The date of YYYYMMDD... (OFX) or YYYY-MM-DD... (ISO 20022), or null. */
export function isoDate(raw: string): string | null {
  const m = /^\s*(\d{4})-?(\d{2})-?(\d{2})/.exec(raw);
  return m ? ymd(+m[1]!, +m[2]!, +m[3]!) : null;
}

/**
 * The first group of each match of `re` (global) in a file's bytes, read a megabyte at a time as
 * Latin-1 (the accounts of a file, looked up before it is read, without decoding it whole).
 */
export function scanAhead(buf: Uint8Array, re: RegExp): string[] {
  const found: string[] = [];
  const step = 1024 * 1024;
  for (let i = 0; i < buf.length; i += step) {
    const text = Buffer.from(buf.buffer, buf.byteOffset + i, Math.min(step + 512, buf.length - i)).toString('latin1');
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) found.push(m[1]!.trim());
  }
  return found;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * Collects a file's entries into proposed rows, handed to `opts.onRows` in batches; and its
 * refusals, each naming its place in the file.
 */
export class StatementRows {
  private batch: SeedRow[] = [];
  private rows = 0;
  private readonly errors: RowError[] = [];
  private errorCount = 0;
  /** transfers written, waiting for their mirror in the other account's statement */
  private readonly mirrors = new Map<string, number>();
  /** entries without a bank id: how often each signature came, so that two equal payments keep two ids */
  private readonly signatures = new Map<string, number>();
  private readonly batchSize: number;

  constructor(
    private readonly opts: ReadOptions,
    private readonly detected: Detected,
  ) {
    this.batchSize = opts.batchSize ?? 2000;
  }

  get count(): number {
    return this.rows;
  }

  refuse(at: number, p: EntryProblem): void {
    if (++this.errorCount <= MAX_LISTED_ERRORS)
      this.errors.push({ row: at, message: p.message, code: p.code, params: p.params });
  }

  async add(e: StatementEntry): Promise<void> {
    const size = Math.abs(e.amount);
    let id = e.id === null || e.id === '' ? null : `${e.account}:${e.id}`.slice(0, 200);
    if (id === null) {
      const sig = `${e.account}\u0000${e.date}\u0000${e.amount}\u0000${e.counterparty}\u0000${e.note}\u0000${e.category ?? ''}`;
      const n = (this.signatures.get(sig) ?? 0) + 1;
      this.signatures.set(sig, n);
      id = `h:${shortHash(`${sig}\u0000${n}`)}`;
    }
    let kind: SeedRow['kind'] = e.amount < 0 ? 'expense' : 'income';
    let method = e.account;
    let toMethod: string | null = null;
    if (e.transferAccount !== null && e.transferAccount !== e.account && size > 0) {
      const [from, to] = e.amount < 0 ? [e.account, e.transferAccount] : [e.transferAccount, e.account];
      const key = `${e.date}\u0000${size}\u0000${from}\u0000${to}`;
      const waiting = this.mirrors.get(key) ?? 0;
      if (waiting > 0) {
        // the other side of a transfer already proposed
        if (waiting === 1) this.mirrors.delete(key);
        else this.mirrors.set(key, waiting - 1);
        return;
      }
      this.mirrors.set(key, waiting + 1);
      kind = 'transfer';
      method = from;
      toMethod = to;
      id = `t:${shortHash(`${key}\u0000${id}`)}`;
    }
    if (++this.rows > BILL_MAX_ROWS) throw tooManyRows();
    if (this.rows % 256 === 0) checkSignal(this.opts.signal);
    this.batch.push({
      row: this.rows,
      date: e.date,
      kind,
      amountMinor: size,
      counterparty: e.counterparty.slice(0, 200),
      note: e.note.slice(0, 500),
      externalId: id,
      method,
      toMethod,
      decision: size === 0 ? 'skip' : kind === 'transfer' ? 'transfer' : 'import',
      reason: size === 0 ? 'zero' : null,
      refund: false,
      refundOfRow: null,
      categoryName: kind === 'transfer' ? null : (e.category?.slice(0, 50) ?? null),
      tags: [],
      groupId: null,
      createdAt: null,
      type: '',
      time: '',
      currency: e.currency,
    });
    if (this.batch.length >= this.batchSize) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.batch.length) return;
    const rows = this.batch;
    this.batch = [];
    await this.opts.onRows(rows);
  }

  async finish(): Promise<BillOutcome> {
    await this.flush();
    return {
      detected: this.detected,
      rows: this.rows,
      errors: this.errors,
      errorCount: this.errorCount,
      refundLinks: new Map(),
      refundsOfSkipped: [],
      unpairedRefunds: [],
      ignored: [],
    };
  }
}

/**
 * The balances a file states, the last one of each account kept: a later statement of an account
 * supersedes an earlier one. A balance in a currency we do not book, with more decimals than its
 * currency has, or without a date is not offered: reconciling to it could only be refused.
 */
export class StatementBalances {
  private readonly byAccount = new Map<string, StatementBalance>();

  /** `raw` is the decimal as the file writes it (point or comma); `debit`: the file marks it as owed */
  add(account: string, currency: string | null, raw: string, debit: boolean, date: string | null): void {
    const info = currency ? currencyInfo(currency.trim().toUpperCase()) : undefined;
    const amount = info ? minorText(raw, debit, info) : null;
    if (!account || !info || amount === null || !date) return;
    this.byAccount.delete(account);
    this.byAccount.set(account, { account, currency: info.code, amount, date });
  }

  get list(): StatementBalance[] {
    return [...this.byAccount.values()];
  }
}

/** A file's decimal as a signed amount with exactly the currency's minor digits, or null. */
function minorText(raw: string, debit: boolean, info: CurrencyInfo): string | null {
  const m = /^([+-])?(\d{1,15})(?:[.,](\d*))?$/.exec(raw.trim());
  if (!m) return null;
  // "1200.00" yen is 1200: only digits that say something count against the currency's
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > info.digits) return null;
  const minor = BigInt(m[2]! + frac.padEnd(info.digits, '0'));
  return formatMinor((m[1] === '-') !== debit ? -minor : minor, info);
}

/** The outcome's detected format of a bank file. */
export function detectedOf(format: Detected['format'], encoding: Detected['encoding']): Detected {
  return {
    format,
    source: format,
    container: format === 'camt' ? 'xml' : 'text',
    encoding,
    header: [],
    presetId: null,
  };
}
