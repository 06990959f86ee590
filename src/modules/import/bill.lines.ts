import { mappedMeaning, meaningOf, noteOf, pairRefunds, type PurchaseRef, type RefundRef } from './bill.meaning.ts';
import { isTableEnd, readLine, type BillLine, type Layout } from './bill.formats.ts';
import type { Period } from './bill.text.ts';
import type { FileRecord } from './bill.read.ts';
import { BILL_MAX_ROWS, MAX_LISTED_ERRORS, tooManyRows, type BillOutcome, type Detected, type IgnoredLine, type ReadOptions, type RowError, type SeedRow } from './import.rows.ts';
import { checkSignal } from './import.signal.ts';

/*
 * The payment lines of a WeChat Pay, Alipay or mapped bank bill: every line under the header read
 * (bill.formats.ts) and given its meaning (bill.meaning.ts), fees as rows of their own, refunds
 * paired with their purchases.
 */

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
  const errors: RowError[] = [];
  const ignored: IgnoredLine[] = [];
  let errorCount = 0;
  let batch: SeedRow[] = [];
  const purchases: PurchaseRef[] = [];
  const refunds: RefundRef[] = [];
  const fees: SeedRow[] = [];
  let row = 0;
  let pending = firstData;
  for (;;) {
    let cells: string[];
    if (pending) {
      cells = pending.cells;
      pending = null;
    } else {
      const next = await it.next();
      if (next.done) break;
      cells = next.value.cells;
    }
    if (isTableEnd(cells)) break;
    if (cells.every((c) => c.trim() === '')) continue;
    if (++row > BILL_MAX_ROWS) throw tooManyRows();
    if (row % 256 === 0) checkSignal(opts.signal);
    const res = readLine(layout, cells, row, period);
    if (!res.ok) {
      if (res.notTransaction) {
        if (ignored.length < MAX_LISTED_ERRORS) ignored.push({ row, reason: 'not_transaction', text: cells.map((c) => c.trim()).filter((c) => c !== '').join(' ').slice(0, 100) });
        continue;
      }
      if (++errorCount <= MAX_LISTED_ERRORS) errors.push({ row: res.row, message: res.message, code: res.problems[0]!.code, params: res.problems[0]!.params });
      continue;
    }
    const line = res.line;
    const meaning = layout.format === 'mapped' ? mappedMeaning(line) : meaningOf(line, layout.variant);
    const seed: SeedRow = {
      row,
      date: line.date,
      kind: meaning.kind,
      cents: meaning.cents,
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
    if (meaning.feeCents) {
      fees.push({
        ...seed,
        row: 0,
        kind: 'expense',
        cents: meaning.feeCents,
        method: meaning.method,
        toMethod: null,
        decision: 'import',
        reason: null,
        externalId: line.externalId ? `${line.externalId}:fee` : null,
        note: `${noteOf(line) || line.type} 服务费`.trim(),
        type: '服务费',
      });
    }
    if (meaning.refund) refunds.push(refundRef(line, meaning.cents));
    else if (meaning.kind === 'expense') purchases.push(purchaseRef(line, meaning.decision === 'skip'));
    batch.push(seed);
    if (batch.length >= batchSize) {
      await opts.onRows(batch);
      batch = [];
    }
  }
  // a withdrawal's fee: a row of its own after the bill's rows
  for (const fee of fees) {
    if (++row > BILL_MAX_ROWS) throw tooManyRows();
    batch.push({ ...fee, row });
  }
  if (batch.length) await opts.onRows(batch);

  const pairs = pairRefunds(purchases, refunds);
  const refundLinks = new Map<number, number>();
  const refundsOfSkipped: number[] = [];
  for (const [refundRow, p] of pairs) {
    if (p.skipped) refundsOfSkipped.push(refundRow);
    else refundLinks.set(refundRow, p.row);
  }
  return { detected, rows: row, errors, errorCount, refundLinks, refundsOfSkipped, unpairedRefunds: refunds.filter((r) => !pairs.has(r.row)), ignored };
}

function purchaseRef(line: BillLine, skipped: boolean): PurchaseRef {
  return {
    row: line.row,
    date: line.date,
    time: line.time,
    cents: line.cents,
    counterparty: line.counterparty,
    externalId: line.externalId,
    merchantId: line.merchantId,
    skipped,
    refundMarked: line.status.includes('退款'),
  };
}

function refundRef(line: BillLine, cents: number): RefundRef {
  return { row: line.row, date: line.date, time: line.time, cents, counterparty: line.counterparty, externalId: line.externalId, merchantId: line.merchantId };
}
