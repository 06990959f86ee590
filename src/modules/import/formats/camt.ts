import { Errors } from '../../../lib/errors.ts';
import type { Encoding } from '../bill.read.ts';
import type { BillOutcome, ReadOptions } from '../import.rows.ts';
import { readXml } from './safe-xml.ts';
import {
  detectedOf,
  hundredths,
  isoDate,
  problem,
  scanAhead,
  StatementBalances,
  StatementRows,
  type EntryProblem,
  type StatementEntry,
} from './statement.ts';

/*
 * ISO 20022 account statements (camt.053, BkToCstmrStmt/Stmt) and intraday reports (camt.052,
 * BkToCstmrAcctRpt/Rpt), versions .001.02 to .001.08, read as a stream (safe-xml.ts).
 *
 * Each booked entry (Ntry) is a row, dated by its booking date (its value date when there is
 * none); a batch entry with several transaction details (TxDtls) is a row per detail, and what the
 * details leave of the entry's amount (the bank's charges) a row of its own, so that the rows add
 * up to the statement. Pending and information-only entries are not booked. The counterparty is
 * the debtor of money in and the creditor of money out; an entry's id is the bank's reference
 * (AcctSvcrRef), else the payer's EndToEndId.
 *
 * A statement's closing booked balance (Bal of type CLBD) is offered for reconciliation; a report
 * that has none gives its interim booked balance (ITBD, the latest), else its closing available one
 * (CLAV).
 */

/** The first bytes of a camt.052 or camt.053 document. */
export function isCamt(head: string): boolean {
  return /urn:iso:std:iso:20022:tech:xsd:camt\.05[23]\./.test(head) || /<(\w+:)?BkToCstmr(Stmt|AcctRpt)\b/.test(head);
}

type Fields = Map<string, string>;

interface Context {
  kind: 'stmt' | 'ntry' | 'tx' | 'bal';
  /** the path depth at which it opened */
  depth: number;
  fields: Fields;
}

/** the balance types that may close a statement, the better one first: booked, interim booked, available */
const CLOSING_RANK: Record<string, number> = { CLBD: 3, ITBD: 2, CLAV: 1 };

/** Where the reading of a document is, and what it gathered: the statement and entry open, what waits to be added. */
interface Reading {
  /** the accounts of the file */
  ours: Set<string>;
  balances: StatementBalances;
  path: string[];
  stack: Context[];
  stmt: Fields | null;
  /** the balance of the open statement that closes it best so far */
  closing: { rank: number; fields: Fields } | null;
  ntry: Fields | null;
  details: Fields[];
  entryNo: number;
  statements: number;
  ready: StatementEntry[];
  refusals: { at: number; p: EntryProblem }[];
}

/** What the rows of one booked entry share. */
interface Entry {
  n: number;
  date: string;
  account: string;
  currency: string | null;
  /** the bank's reference of the entry */
  ref: string;
  valueDate: string | null;
  note: string;
  /** a batch: several transaction details */
  batch: boolean;
}

const NOT_PROVIDED = /^NOTPROVIDED$/i;

function put(fields: Fields, key: string, value: string): void {
  const was = fields.get(key);
  fields.set(key, was === undefined ? value : `${was} ${value}`);
}

/** The value of the first of several paths that holds one. */
function first(f: Fields, ...keys: string[]): string {
  for (const k of keys) {
    const v = f.get(k)?.trim();
    if (v) return v;
  }
  return '';
}

/** Account keys (IBANs or other ids) of the statements of a file, read ahead to tell transfers between them. */
function statementAccounts(buf: Uint8Array): Set<string> {
  return new Set(
    scanAhead(buf, /<(?:\w+:)?Acct>\s*<(?:\w+:)?Id>\s*<(?:\w+:)?(?:IBAN|Othr>\s*<(?:\w+:)?Id)>\s*([^<\s]+)/g),
  );
}

const accountOf = (s: Fields) => first(s, 'Acct/Id/IBAN', 'Acct/Id/Othr/Id');

/** An amount (of an entry or a detail) signed by its credit or debit mark, in hundredths; null when it is none. */
function amountOf(f: Fields, ind: string): number | null {
  const raw = first(f, 'Amt', 'AmtDtls/TxAmt/Amt', 'AmtDtls/InstdAmt/Amt');
  const v = raw ? hundredths(raw) : null;
  return v === null ? null : (ind.toUpperCase() === 'DBIT' ? -1 : 1) * Math.abs(v);
}

/** The path below the innermost open statement, entry, detail or balance. */
function relative(r: Reading): string {
  const c = r.stack[r.stack.length - 1];
  return c ? r.path.slice(c.depth).join('/') : '';
}

/** A row of an entry: the entry alone, one of its details, or (no detail) what a batch's details leave. */
function rowOf(x: Entry, ours: Set<string>, tx: Fields | null, amount: number, ind: string, k: number): StatementEntry {
  const f = tx ?? new Map<string, string>();
  const incoming = ind.toUpperCase() !== 'DBIT';
  const party = incoming
    ? first(f, 'RltdPties/Dbtr/Nm', 'RltdPties/Dbtr/Pty/Nm', 'RltdPties/UltmtDbtr/Nm')
    : first(f, 'RltdPties/Cdtr/Nm', 'RltdPties/Cdtr/Pty/Nm', 'RltdPties/UltmtCdtr/Nm');
  const iban = incoming
    ? first(f, 'RltdPties/DbtrAcct/Id/IBAN', 'RltdPties/DbtrAcct/Id/Othr/Id')
    : first(f, 'RltdPties/CdtrAcct/Id/IBAN', 'RltdPties/CdtrAcct/Id/Othr/Id');
  const e2e = first(f, 'Refs/EndToEndId');
  const endToEnd = e2e && !NOT_PROVIDED.test(e2e) ? e2e : '';
  // the bank's reference first: unique in the account, where the payer's may repeat
  const ref =
    first(f, 'Refs/AcctSvcrRef') || (x.batch ? endToEnd || (x.ref ? `${x.ref}/${k}` : '') : x.ref || endToEnd);
  const remittance = first(f, 'RmtInf/Ustrd', 'RmtInf/Strd/CdtrRefInf/Ref', 'AddtlTxInf') || x.note;
  const notes = [
    remittance,
    iban && !party ? iban : '',
    x.valueDate && x.valueDate !== x.date ? `valuta ${x.valueDate}` : '',
  ]
    .filter((v) => v !== '')
    .join(' · ');
  return {
    at: x.n,
    date: x.date,
    amount,
    account: x.account,
    currency: x.currency,
    counterparty: party || iban,
    note: notes,
    id: ref || null,
    category: null,
    transferAccount: iban && iban !== x.account && ours.has(iban) ? iban : null,
  };
}

/** A booked entry of statement `s`: its rows ready to be added, or why it cannot be read. */
function entryDone(r: Reading, e: Fields, txs: Fields[], s: Fields, n: number): void {
  const status = first(e, 'Sts', 'Sts/Cd').toUpperCase();
  if (status && status !== 'BOOK') return;
  const refuse = (p: EntryProblem) => {
    r.refusals.push({ at: n, p });
  };
  const account = accountOf(s);
  if (!account) return refuse(problem('missing_account', {}, `entry ${n}: its statement names no account`));
  const rawDate = first(e, 'BookgDt/Dt', 'BookgDt/DtTm', 'ValDt/Dt', 'ValDt/DtTm');
  const date = isoDate(rawDate);
  if (!date)
    return refuse(
      problem('bad_date', { value: rawDate, format: 'YYYY-MM-DD' }, `entry ${n}: no booking or value date`),
    );
  const entryInd = first(e, 'CdtDbtInd');
  const total = amountOf(e, entryInd);
  if (total === null)
    return refuse(problem('bad_amount', { column: 'Amt', value: first(e, 'Amt') }, `entry ${n}: Amt is no amount`));
  const x: Entry = {
    n,
    date,
    account,
    currency: (first(s, 'Acct/Ccy') || first(e, 'Amt@Ccy')).toUpperCase() || null,
    ref: first(e, 'AcctSvcrRef', 'NtryRef'),
    valueDate: isoDate(first(e, 'ValDt/Dt', 'ValDt/DtTm')),
    note: first(e, 'AddtlNtryInf'),
    batch: txs.length > 1,
  };
  if (x.batch) batchDone(r, x, txs, total, entryInd);
  else r.ready.push(rowOf(x, r.ours, txs[0] ?? null, total, entryInd, 0));
}

/** A batch entry: a row per detail, and what the details leave of the booked amount (the bank's charges). */
function batchDone(r: Reading, x: Entry, txs: Fields[], total: number, entryInd: string): void {
  let left = total;
  for (const [k, tx] of txs.entries()) {
    const ind = first(tx, 'CdtDbtInd') || entryInd;
    const amount = amountOf(tx, ind);
    if (amount === null) {
      const value = { column: 'TxDtls/Amt', value: first(tx, 'Amt') };
      r.refusals.push({ at: x.n, p: problem('bad_amount', value, `entry ${x.n}: detail ${k + 1} has no amount`) });
      return;
    }
    left -= amount;
    r.ready.push(rowOf(x, r.ours, tx, amount, ind, k + 1));
  }
  if (left !== 0)
    r.ready.push({
      ...rowOf(x, r.ours, null, left, left < 0 ? 'DBIT' : 'CRDT', 0),
      counterparty: '',
      note: ['charges', x.note].filter(Boolean).join(' · '),
      id: x.ref ? `${x.ref}/charges` : null,
    });
}

/** A balance of the open statement: kept when it closes the statement better than those before it. */
function balanceDone(r: Reading, f: Fields): void {
  const rank = CLOSING_RANK[first(f, 'Tp/CdOrPrtry/Cd').toUpperCase()] ?? 0;
  // of two of a type, the later: an intraday report's latest interim balance
  if (rank > 0 && rank >= (r.closing?.rank ?? 0)) r.closing = { rank, fields: f };
}

/** A statement read to its end: its closing balance offered for its account. */
function statementDone(r: Reading, s: Fields): void {
  const c = r.closing?.fields;
  r.closing = null;
  if (!c) return;
  const debit = first(c, 'CdtDbtInd').toUpperCase() === 'DBIT';
  const date = isoDate(first(c, 'Dt/Dt', 'Dt/DtTm'));
  r.balances.add(accountOf(s), first(c, 'Amt@Ccy') || first(s, 'Acct/Ccy'), first(c, 'Amt'), debit, date);
}

function open(r: Reading, name: string, attributes: Record<string, string>): void {
  r.path.push(name);
  const c = r.stack[r.stack.length - 1];
  if (name === 'Amt' && c && attributes.Ccy) put(c.fields, `${relative(r)}@Ccy`, attributes.Ccy);
  const context = (kind: Context['kind']): Fields => {
    const fields: Fields = new Map();
    r.stack.push({ kind, depth: r.path.length, fields });
    return fields;
  };
  if (name === 'Stmt' || name === 'Rpt' || name === 'Ntfctn') {
    r.stmt = context('stmt');
    r.closing = null;
    r.statements++;
  } else if (name === 'Ntry' && r.stmt) {
    r.ntry = context('ntry');
    r.details = [];
  } else if (name === 'TxDtls' && r.ntry) r.details.push(context('tx'));
  // a statement's own balances, not those an entry may carry
  else if (name === 'Bal' && c?.kind === 'stmt') context('bal');
}

function close(r: Reading): void {
  const top = r.stack[r.stack.length - 1];
  if (top && top.depth === r.path.length) {
    r.stack.pop();
    if (top.kind === 'ntry' && r.stmt) {
      entryDone(r, top.fields, r.details, r.stmt, ++r.entryNo);
      r.ntry = null;
      r.details = [];
    } else if (top.kind === 'bal') balanceDone(r, top.fields);
    else if (top.kind === 'stmt') {
      statementDone(r, top.fields);
      r.stmt = null;
    }
  }
  r.path.pop();
}

/** The rows and refusals gathered since the last time, handed on. */
async function drain(r: Reading, out: StatementRows): Promise<void> {
  const rows = r.ready;
  const bad = r.refusals;
  r.ready = [];
  r.refusals = [];
  for (const x of bad) out.refuse(x.at, x.p);
  for (const x of rows) await out.add(x);
}

export async function readCamt(buf: Uint8Array, encoding: Encoding, opts: ReadOptions): Promise<BillOutcome> {
  const detected = detectedOf('camt', encoding);
  opts.onDetected?.(detected);
  const out = new StatementRows(opts, detected);
  const r: Reading = {
    ours: statementAccounts(buf),
    balances: new StatementBalances(),
    path: [],
    stack: [],
    stmt: null,
    closing: null,
    ntry: null,
    details: [],
    entryNo: 0,
    statements: 0,
    ready: [],
    refusals: [],
  };
  const handlers = {
    open: (name: string, attributes: Record<string, string>) => open(r, name, attributes),
    close: () => close(r),
    text(t: string) {
      const c = r.stack[r.stack.length - 1];
      const v = t.trim();
      // kept under its path below the open context: a statement's fields apart from its balances'
      if (c && v !== '') put(c.fields, relative(r), v);
    },
    drain: () => drain(r, out),
  };
  await readXml(buf, encoding, handlers, opts.signal);
  if (r.statements === 0)
    throw Errors.importRejected([{ row: 0, message: 'the file holds no camt statement or report' }]);
  return { ...(await out.finish()), balances: r.balances.list };
}
