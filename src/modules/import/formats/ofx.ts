import { Errors } from '../../../lib/errors.ts';
import { decodeText, type Encoding } from '../bill.read.ts';
import type { BillOutcome, ReadOptions } from '../import.rows.ts';
import {
  detectedOf,
  hundredths,
  isoDate,
  problem,
  StatementBalances,
  StatementRows,
  type StatementEntry,
} from './statement.ts';

/*
 * OFX and QFX (Quicken's OFX): 1.x is SGML whose value elements have no end tag, 2.x is XML. One
 * tokenizer reads both: an element followed by text is a value, any other opens an aggregate, and
 * an end tag closes the aggregate of its name (a value's end tag in 2.x closes nothing). No
 * document type is read and no entity but the five of XML and character references is expanded,
 * so a file cannot reach outside itself.
 *
 * Bank (STMTRS) and credit-card (CCSTMTRS) statements, several in one file: FITID is the entry's
 * id, CURDEF the statement's currency and CURRENCY/ORIGCURRENCY an entry's own, LEDGERBAL the
 * balance offered for reconciliation, BANKACCTTO/CCACCTTO naming another account of the file a
 * transfer.
 */

/** The first bytes of an OFX or QFX file: its SGML header or its XML processing instruction. */
export function isOfx(head: string): boolean {
  return /^\s*OFXHEADER\s*:/.test(head) || /<\?OFX\b/i.test(head) || /^\s*(<\?xml[^>]*>\s*)?<OFX>/i.test(head);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function unescape(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (all, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });
}

/** what an aggregate's values are kept as while it is open */
type Values = Map<string, string>;

interface Aggregate {
  name: string;
  values: Values;
  /** the line it opens on, named by a refusal */
  line: number;
}

/** elements deeper than this are no statement */
const MAX_DEPTH = 64;
/** a value longer than this is no statement's */
const MAX_VALUE = 32 * 1024;

/** Account ids of the statements of a file (a quick look before the read, to tell transfers between them). */
function statementAccounts(text: string): Set<string> {
  const ids = new Set<string>();
  const re = /<(?:BANKACCTFROM|CCACCTFROM)>[\s\S]{0,400}?<ACCTID>\s*([^<\r\n]+)/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) ids.add(unescape(m[1]!.trim()));
  return ids;
}

/** One STMTTRN of the statement being read (its account and currency), added to the rows or refused. */
async function addEntry(
  out: StatementRows,
  ours: Set<string>,
  { account, curdef }: { account: string | null; curdef: string | null },
  v: Values,
  n: number,
  at: number,
) {
  if (account === null) {
    out.refuse(
      at,
      problem('missing_account', {}, `entry ${n} belongs to no account (no BANKACCTFROM or CCACCTFROM before it)`),
    );
    return;
  }
  const date = isoDate(v.get('DTPOSTED') ?? v.get('DTUSER') ?? '');
  if (!date) {
    out.refuse(
      at,
      problem('bad_date', { value: v.get('DTPOSTED') ?? '', format: 'YYYYMMDD' }, `entry ${n}: no valid DTPOSTED`),
    );
    return;
  }
  const amount = hundredths(v.get('TRNAMT') ?? '');
  if (amount === null) {
    out.refuse(
      at,
      problem('bad_amount', { column: 'TRNAMT', value: v.get('TRNAMT') ?? '' }, `entry ${n}: TRNAMT is no amount`),
    );
    return;
  }
  const to = v.get('ACCTTO')?.trim() ?? null;
  const name = v.get('NAME') ?? v.get('PAYEE') ?? '';
  const memo = v.get('MEMO') ?? '';
  const own = v.get('CURRENCY')?.toUpperCase() || null;
  const orig = v.get('ORIGCURRENCY')?.toUpperCase() || null;
  const e: StatementEntry = {
    at,
    date,
    amount,
    account,
    currency: own ?? curdef,
    counterparty: name,
    note:
      orig && orig !== curdef ? `${memo} (${orig})`.trim() : memo || (v.get('CHECKNUM') ? `#${v.get('CHECKNUM')}` : ''),
    id: v.get('FITID') ?? null,
    category: null,
    transferAccount: to && ours.has(to) ? to : null,
  };
  await out.add(e);
}

export async function readOfx(buf: Uint8Array, encoding: Encoding, opts: ReadOptions): Promise<BillOutcome> {
  const text = decodeText(buf, encoding);
  if (/<!(DOCTYPE|ENTITY)/i.test(text))
    throw Errors.importRejected([{ row: 0, message: 'the file declares a document type: OFX needs none' }]);
  const detected = detectedOf('ofx', encoding);
  opts.onDetected?.(detected);
  const out = new StatementRows(opts, detected);
  const ours = statementAccounts(text);
  const balances = new StatementBalances();
  const stack: Aggregate[] = [];
  /** the statement being read: its account and currency */
  let account: string | null = null;
  let curdef: string | null = null;
  let entryNo = 0;
  let line = 1;
  let lastIndex = 0;
  const lineAt = (i: number) => {
    for (let k = text.indexOf('\n', lastIndex); k !== -1 && k < i; k = text.indexOf('\n', k + 1)) line++;
    lastIndex = i;
    return line;
  };
  const tag = /<(\/?)([A-Za-z][A-Za-z0-9._]*)\s*>([^<]*)/g;
  const start = text.search(/<OFX>/i);
  if (start < 0) throw Errors.importRejected([{ row: 0, message: 'the file has no <OFX> element' }]);
  tag.lastIndex = start;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const name = m[2]!.toUpperCase();
    const value = m[3]!.trim();
    if (m[1]) {
      // an end tag: closes the aggregate of its name (a value's end tag closes nothing)
      let at = stack.length - 1;
      while (at >= 0 && stack[at]!.name !== name) at--;
      if (at < 0) continue;
      while (stack.length > at) {
        const done = stack.pop()!;
        const parent = stack[stack.length - 1];
        if (done.name === 'BANKACCTFROM' || done.name === 'CCACCTFROM') account = done.values.get('ACCTID') ?? null;
        else if (done.name === 'BANKACCTTO' || done.name === 'CCACCTTO')
          parent?.values.set('ACCTTO', done.values.get('ACCTID') ?? '');
        else if (done.name === 'PAYEE') parent?.values.set('PAYEE', done.values.get('NAME') ?? '');
        else if (done.name === 'CURRENCY' || done.name === 'ORIGCURRENCY')
          parent?.values.set(done.name, done.values.get('CURSYM') ?? '');
        else if (done.name === 'LEDGERBAL' && account !== null) {
          const at = isoDate(done.values.get('DTASOF') ?? '');
          balances.add(account, curdef, done.values.get('BALAMT') ?? '', false, at);
        } else if (done.name === 'STMTTRN')
          await addEntry(out, ours, { account, curdef }, done.values, ++entryNo, done.line);
        else if (done.name === 'STMTRS' || done.name === 'CCSTMTRS') {
          account = null;
          curdef = null;
        }
      }
      continue;
    }
    if (value !== '') {
      // a value
      if (value.length > MAX_VALUE)
        throw Errors.importRejected([{ row: lineAt(m.index), message: `the value of <${name}> is too long` }]);
      const v = unescape(value);
      if (name === 'CURDEF') curdef = v.toUpperCase();
      stack[stack.length - 1]?.values.set(name, v);
      continue;
    }
    if (stack.length >= MAX_DEPTH)
      throw Errors.importRejected([{ row: lineAt(m.index), message: 'the file nests its elements too deeply' }]);
    stack.push({ name, values: new Map(), line: name === 'STMTTRN' ? lineAt(m.index) : 0 });
  }

  if (out.count === 0 && entryNo === 0 && balances.list.length === 0)
    throw Errors.importRejected([{ row: 0, message: 'the file has no bank or credit-card statement' }]);
  return { ...(await out.finish()), balances: balances.list };
}
