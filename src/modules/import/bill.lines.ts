import { mappedMeaning, meaningOf, noteOf, pairRefunds, type PurchaseRef, type RefundRef } from './bill.meaning.ts';
import { isTableEnd, readLine, type BillLine, type Layout, type LineResult } from './bill.formats.ts';
import type { Period } from './bill.text.ts';
import type { FileRecord } from './bill.read.ts';
import {
  BILL_MAX_ROWS,
  MAX_LISTED_ERRORS,
  tooManyRows,
  type BillOutcome,
  type Detected,
  type IgnoredLine,
  type ReadOptions,
  type RowError,
  type SeedRow,
} from './import.rows.ts';
import { checkSignal } from './import.signal.ts';

/*
 * The payment lines of a WeChat Pay, Alipay or mapped bank bill: every line under the header read
 * (bill.formats.ts) and given its meaning (bill.meaning.ts), fees as rows of their own, refunds
 * paired with their purchases.
 */

/** What the lines read so far left besides their rows: errors, ignored lines, fees, purchases and refunds. */
interface Tally {
  errors: RowError[];
  ignored: IgnoredLine[];
  errorCount: number;
  purchases: PurchaseRef[];
  refunds: RefundRef[];
  fees: SeedRow[];
}

/** Reads the lines under a bill's header, handing its rows to `opts.onRows` in batches. */
export async function readLines(
  it: AsyncGenerator<FileRecord>,
  layout: Layout,
  detected: Detected,
  opts: ReadOptions,
  period: Period | null,
  firstData: FileRecord | null,
): Promise<BillOutcome> {
  const batchSize = opts.batchSize ?? 2000;
  const tally: Tally = { errors: [], ignored: [], errorCount: 0, purchases: [], refunds: [], fees: [] };
  let batch: SeedRow[] = [];
  let row = 0;
  for await (const cells of tableCells(it, firstData)) {
    if (cells.every((c) => c.trim() === '')) continue;
    if (++row > BILL_MAX_ROWS) throw tooManyRows();
    if (row % 256 === 0) checkSignal(opts.signal);
    const res = readLine(layout, cells, row, period);
    if (!res.ok) {
      noteUnread(tally, res, cells, row);
      continue;
    }
    batch.push(seedOf(tally, layout, res.line, row));
    if (batch.length >= batchSize) {
      await opts.onRows(batch);
      batch = [];
    }
  }
  // a withdrawal's fee: a row of its own after the bill's rows
  for (const fee of tally.fees) {
    if (++row > BILL_MAX_ROWS) throw tooManyRows();
    batch.push({ ...fee, row });
  }
  if (batch.length) await opts.onRows(batch);
  const { errors, errorCount, ignored } = tally;
  return { detected, rows: row, errors, errorCount, ...pairedRefunds(tally), ignored };
}

/**
 * The records of the table, the first data record (already read) first, up to the table's end or
 * the file's. The underlying records are read one by one and never closed here.
 */
async function* tableCells(it: AsyncGenerator<FileRecord>, firstData: FileRecord | null): AsyncGenerator<string[]> {
  let pending = firstData;
  for (;;) {
    let cells: string[];
    if (pending) {
      cells = pending.cells;
      pending = null;
    } else {
      const next = await it.next();
      if (next.done) return;
      cells = next.value.cells;
    }
    if (isTableEnd(cells)) return;
    yield cells;
  }
}

/** A line that is not a payment is listed as ignored; one that cannot be read, as an error (the first few). */
function noteUnread(tally: Tally, res: Extract<LineResult, { ok: false }>, cells: string[], row: number): void {
  if (res.notTransaction) {
    if (tally.ignored.length < MAX_LISTED_ERRORS)
      tally.ignored.push({
        row,
        reason: 'not_transaction',
        text: cells
          .map((c) => c.trim())
          .filter((c) => c !== '')
          .join(' ')
          .slice(0, 100),
      });
    return;
  }
  if (++tally.errorCount <= MAX_LISTED_ERRORS)
    tally.errors.push({
      row: res.row,
      message: res.message,
      code: res.problems[0]!.code,
      params: res.problems[0]!.params,
    });
}

/** The seed row of a payment line, given its meaning; its fee, purchase or refund is kept in the tally. */
function seedOf(tally: Tally, layout: Layout, line: BillLine, row: number): SeedRow {
  const meaning = layout.format === 'mapped' ? mappedMeaning(line) : meaningOf(line, layout.variant);
  const seed: SeedRow = {
    row,
    date: line.date,
    kind: meaning.kind,
    amountMinor: meaning.amountMinor,
    counterparty: line.counterparty,
    note: noteOf(line),
    externalId: line.externalId,
    method: meaning.method,
    toMethod: meaning.toMethod,
    decision: meaning.decision,
    reason: meaning.reason,
    refund: meaning.refund,
    refundOfRow: null,
    categoryName: null,
    tags: [],
    groupId: null,
    createdAt: null,
    type: line.type,
    time: line.time,
    currency: line.currency,
  };
  if (meaning.feeMinor) {
    tally.fees.push({
      ...seed,
      row: 0,
      kind: 'expense',
      amountMinor: meaning.feeMinor,
      method: meaning.method,
      toMethod: null,
      decision: 'import',
      reason: null,
      externalId: line.externalId ? `${line.externalId}:fee` : null,
      note: `${noteOf(line) || line.type} 服务费`.trim(),
      type: '服务费',
    });
  }
  if (meaning.refund) tally.refunds.push(refundRef(line, meaning.amountMinor));
  else if (meaning.kind === 'expense') tally.purchases.push(purchaseRef(line, meaning.decision === 'skip'));
  return seed;
}

/** The refunds paired with their purchases: linked, of a skipped purchase, or unpaired. */
function pairedRefunds({ purchases, refunds }: Tally) {
  const pairs = pairRefunds(purchases, refunds);
  const refundLinks = new Map<number, number>();
  const refundsOfSkipped: number[] = [];
  for (const [refundRow, p] of pairs) {
    if (p.skipped) refundsOfSkipped.push(refundRow);
    else refundLinks.set(refundRow, p.row);
  }
  return { refundLinks, refundsOfSkipped, unpairedRefunds: refunds.filter((r) => !pairs.has(r.row)) };
}

function purchaseRef(line: BillLine, skipped: boolean): PurchaseRef {
  return {
    row: line.row,
    date: line.date,
    time: line.time,
    amountMinor: line.amountMinor,
    counterparty: line.counterparty,
    externalId: line.externalId,
    merchantId: line.merchantId,
    skipped,
    refundMarked: line.status.includes('退款'),
  };
}

function refundRef(line: BillLine, amountMinor: number): RefundRef {
  return {
    row: line.row,
    date: line.date,
    time: line.time,
    amountMinor,
    counterparty: line.counterparty,
    externalId: line.externalId,
    merchantId: line.merchantId,
  };
}
