import { createHash } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { instantIn } from '../../lib/dates.ts';
import { baseCurrencyOf, userTimezone } from '../books/index.ts';
import { cardTail, purchaseFor, refundOriginIds, type PurchaseRef } from './bill.meaning.ts';
import { readBill } from './bill.parse.ts';
import { categoryChooser, type CategoryChooser } from './bills.chooser.ts';
import { SESSION_TTL_MS, type BillDeps } from './bills.deps.ts';
import { looseName, namesAccounts, proposeAccounts } from './bills.names.ts';
import * as repo from './bills.repo.ts';
import { previewOut, requireSession } from './bills.review.ts';
import { presetRefs } from './bills.settings.ts';
import { duplicateCounter } from './import.duplicates.ts';
import type { DupKey } from './import.repo.ts';
import type { BillOutcome, SeedRow } from './import.rows.ts';
import { markProbablyRecorded } from './import.dedupe.ts';

/*
 * Reading a bill into a preview: its rows are decided (account, category, duplicate, transfer) and
 * stored batch by batch as the file streams past, then the whole bill is settled against the books.
 */

const BATCH = 2000;
/** a bill of this many rows refreshes the statistics of the session rows */
const ANALYZE_ROWS = 2000;

/**
 * A payment seen under an external id: the digest of its signature, the id it was stored under, whether it was skipped.
 */
interface SeenPayment {
  sig: number;
  id: string;
  skipped: boolean;
}

/** The id each row of a batch is stored under, and whether it is the same payment again. */
interface BatchIds {
  storedIds: (string | null)[];
  inFileDup: boolean[];
}

/** What deciding a row needs: the user's accounts and categories, and the session it goes to. */
interface RowContext {
  sessionId: number;
  resolve: (method: string | null) => number | null;
  chooser: CategoryChooser;
  defaultAccount: number | null;
  /** the account of the column mapping the bill was read with, known once the bill is detected */
  presetAccount: () => number | null;
  liveAccounts: repo.AccountRef[];
  currencyOf: Map<number, string>;
  /** the owner's time zone, in which a bill's times of day are read */
  timezone: string;
  /** the bill names accounts (an app's export, QIF): one none of the person's stands for is created on commit */
  namesAccounts: () => boolean;
  baseCurrency: string;
}

/** Reads a bill into a preview session; rows are stored as the file streams past. */
export async function previewBill(
  deps: BillDeps,
  userId: number,
  bytes: Uint8Array,
  fileName: string,
  presetId: number | null,
  signal?: AbortSignal,
  dateOrder: 'mdy' | 'dmy' | null = null,
) {
  const { db, clock, config } = deps;
  const presets = await presetRefs(db, userId);
  if (presetId !== null && !presets.some((p) => p.id === presetId))
    throw Errors.field('preset_id', 'must be one of your column mappings');
  const [accounts, maps, chooser] = await Promise.all([
    repo.userAccounts(db, userId),
    repo.accountMaps(db, userId),
    categoryChooser(deps, db, userId),
  ]);
  const session = await repo.insertSession(db, {
    userId,
    format: 'wechat',
    source: '',
    container: 'csv',
    fileName: fileName.slice(0, 200),
    status: 'reading',
    expiresAt: new Date(clock.now().getTime() + SESSION_TTL_MS),
  });
  let presetAccount: number | null = null;
  let format = '';
  const liveAccounts = accounts.filter((a) => !a.archived);
  const ctx: RowContext = {
    sessionId: session.id,
    resolve: accountResolver(maps, accounts),
    chooser,
    defaultAccount:
      accounts.find((a) => a.isDefault && !a.archived)?.id ?? accounts.find((a) => !a.archived)?.id ?? null,
    presetAccount: () => presetAccount,
    liveAccounts,
    currencyOf: new Map(liveAccounts.map((a) => [a.id, a.currency])),
    timezone: await userTimezone(db, userId, config.appTimezone),
    namesAccounts: () => namesAccounts(format),
    baseCurrency: (await baseCurrencyOf(db, userId)).code,
  };
  const idsOf = paymentIds();
  /** rows without an id: as many as the books already hold are duplicates */
  const duplicates = duplicateCounter(db, userId);
  const pipeline = batchPipeline(repo.rowSink(db, session.id), (seeds, ids) =>
    decideBatch(ctx, duplicates, seeds, ids),
  );
  try {
    const outcome = await readBill(bytes, {
      presets,
      presetId,
      dateOrder: dateOrder === null ? null : dateOrder === 'mdy' ? 'MDY' : 'DMY',
      batchSize: BATCH,
      limits: config.uploadLimits,
      signal,
      onDetected: (d) => {
        presetAccount = presets.find((p) => p.id === d.presetId)?.accountId ?? null;
        format = d.format;
      },
      onRows: (seeds: SeedRow[]) => pipeline.push(seeds, idsOf(seeds)),
    });
    await pipeline.drain();
    if (outcome.errorCount > 0) throw Errors.importRejected(outcome.errors);
    await pipeline.end();
    await settlePreview(db, userId, session.id, outcome);
    await proposeAccounts(db, session.id, outcome.detected.format);
  } catch (err) {
    await pipeline.abort();
    await repo.deleteSession(db, session.id);
    throw err;
  }
  return previewOut(deps, await requireSession(deps, userId, session.id));
}

/**
 * A batch's rows decided, then stored (one batch stored while the next is decided). Rows whose
 * id the books already hold are marked by one statement once the whole bill is stored, not
 * looked up batch by batch: a batch's rows go to the database as soon as they are read, and
 * are garbage before the next batch (a bill's rows held across a query each are what made a
 * large bill's preview grow the heap by hundreds of megabytes).
 */
function batchPipeline(
  sink: repo.RowSink,
  decide: (seeds: SeedRow[], ids: BatchIds) => Promise<repo.PreviewRowInsert[]>,
) {
  let working: Promise<void> = Promise.resolve();
  let storing: Promise<void> = Promise.resolve();
  const finish = async (seeds: SeedRow[], ids: BatchIds) => {
    const rows = await decide(seeds, ids);
    // a batch is stored while the next one is read (the database works on its own core): one in flight at most
    await storing;
    storing = sink.write(rows);
    storing.catch(() => {});
  };
  return {
    async push(seeds: SeedRow[], ids: BatchIds) {
      await working;
      working = finish(seeds, ids);
      working.catch(() => {});
    },
    async drain() {
      await working;
      await storing;
    },
    end: () => sink.end(),
    async abort() {
      await working.catch(() => {});
      await storing.catch(() => {});
      await sink.abort();
    },
  };
}

/** One batch's rows decided; those without an id that the books already hold are duplicates. */
async function decideBatch(
  ctx: RowContext,
  duplicates: (keys: readonly (DupKey | null)[]) => Promise<boolean[]>,
  seeds: SeedRow[],
  { storedIds, inFileDup }: BatchIds,
): Promise<repo.PreviewRowInsert[]> {
  const rows: repo.PreviewRowInsert[] = [];
  const counted: { key: DupKey; idx: number }[] = [];
  for (const [i, s] of seeds.entries()) {
    const row = decideRow(ctx, s, storedIds[i]!, inFileDup[i]!);
    const { accountId, categoryId } = row;
    if (s.externalId === null && row.decision === 'import' && categoryId != null && accountId != null) {
      counted.push({
        key: { accountId, date: s.date, kind: s.kind, amountMinor: s.amountMinor, categoryId, note: s.note },
        idx: rows.length,
      });
    }
    rows.push(row);
  }
  const duplicate = await duplicates(counted.map((c) => c.key));
  counted.forEach(({ idx }, i) => {
    if (duplicate[i]) {
      rows[idx]!.decision = 'duplicate';
      rows[idx]!.reason = 'duplicate';
    }
  });
  return rows;
}

/** A row's account, category and decision. */
function decideRow(ctx: RowContext, s: SeedRow, externalId: string | null, inFileDup: boolean): repo.PreviewRowInsert {
  let decision = s.decision;
  let reason: string | null = s.reason;
  let accountId: number | null;
  let toAccountId: number | null = null;
  let categoryId: number | null = null;
  if (s.kind === 'transfer') {
    accountId = ctx.resolve(s.method);
    toAccountId = ctx.resolve(s.toMethod);
    // an account the file names and none of the person's stands for is created on commit
    const missing = (accountId === null || toAccountId === null) && !ctx.namesAccounts();
    if (decision === 'transfer' && (missing || (accountId !== null && accountId === toAccountId))) {
      decision = 'skip';
      reason = 'no_account';
    }
  } else {
    // a payment method no account stands for yet waits for the person to choose one; a bank statement
    // (no method) is the account of its column mapping, else the default one
    accountId = s.method ? ctx.resolve(s.method) : (ctx.presetAccount() ?? ctx.defaultAccount);
    categoryId = s.categoryName !== null ? ctx.chooser.byName(s.kind, s.categoryName) : ctx.chooser.choose(s);
    // a row in a currency of its own is booked in an account of that currency, or waits for one (an account
    // created on commit is in the base currency)
    const created = accountId === null && !!s.method && ctx.namesAccounts() && s.currency === ctx.baseCurrency;
    if (s.currency && !created && (accountId === null || ctx.currencyOf.get(accountId) !== s.currency)) {
      const other = ctx.liveAccounts.find((a) => a.currency === s.currency);
      if (other) accountId = other.id;
      else if (decision !== 'skip') {
        decision = 'skip';
        reason = 'currency';
      }
    }
  }
  if (externalId !== null && decision !== 'skip' && inFileDup) {
    decision = 'duplicate';
    reason = 'duplicate_in_file';
  }
  return {
    sessionId: ctx.sessionId,
    row: s.row,
    date: s.date,
    kind: s.kind,
    amountMinor: s.amountMinor,
    counterparty: s.counterparty,
    note: s.currency && reason === 'currency' ? `${s.note} (${s.currency})`.trim() : s.note,
    externalId,
    method: s.method,
    toMethod: s.toMethod,
    accountId,
    toAccountId,
    categoryId,
    // the file's name is kept beside the category it maps to: the review lists the names with their mapping
    categoryName: s.categoryName,
    tags: s.tags,
    groupId: s.groupId,
    // the time of the payment, when the bill says it: the entry written keeps it
    originalCreatedAt: s.createdAt ? new Date(s.createdAt) : s.time ? instantIn(ctx.timezone, s.date, s.time) : null,
    decision,
    reason,
    refund: s.refund,
    existingId: null,
    type: s.type,
  };
}

/**
 * The id each row is stored under across a bill: several payments under one id (anonymised
 * exports, a payment and its fee) get ids of their own, and the same payment again is a duplicate.
 */
function paymentIds(): (seeds: SeedRow[]) => BatchIds {
  /**
   * the payments seen under each id: signature (time, amount, counterparty) -> the id it was stored under, and whether
   * it was skipped
   */
  const seen = new Map<string, SeenPayment | SeenPayment[]>();
  return (seeds) => {
    const storedIds: (string | null)[] = [];
    const inFileDup: boolean[] = [];
    for (const s of seeds) {
      const [id, dup] = s.externalId === null ? [null, false] : paymentId(seen, s, s.externalId);
      storedIds.push(id);
      inFileDup.push(dup);
    }
    return { storedIds, inFileDup };
  };
}

function paymentId(seen: Map<string, SeenPayment | SeenPayment[]>, s: SeedRow, externalId: string): [string, boolean] {
  const signature = `${s.date} ${s.time}\u0000${s.kind}\u0000${s.amountMinor}\u0000${s.counterparty}\u0000${s.note}`;
  // the payments under one id, kept small: one entry (the usual case) or a list, signatures as digests
  const sig = digest(signature);
  const held = seen.get(externalId);
  const skipped = s.decision === 'skip';
  if (held === undefined) {
    // the usual case, an id not seen before: stored as it is, as a copy of its own (a slice of the line it was read
    // from would keep the whole line alive)
    const copy = Buffer.from(externalId).toString();
    seen.set(copy, { sig, id: copy, skipped });
    return [copy, false];
  }
  const under = Array.isArray(held) ? held : [held];
  const same = under.find((e) => e.sig === sig);
  if (same && !same.skipped && !skipped) return [same.id, true];
  const taken = new Set(under.map((v) => v.id));
  let id = ownId(externalId, signature);
  for (let n = 2; taken.has(id); n++) id = ownId(externalId, `${signature}\u0000${n}`);
  if (same) {
    if (same.skipped) {
      same.id = id;
      same.skipped = skipped;
    }
  } else seen.set(externalId, [...under, { sig, id, skipped }]);
  return [id, false];
}

/**
 * A 53-bit digest of a payment's signature (cyrb53), to tell payments under one id apart: a number per
 * id seen instead of a string, and no cryptographic hash per row.
 */
function digest(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Several payments under one id (anonymised exports, a payment and its fee): the later ones get an id of their own,
 * stable across uploads.
 */
function ownId(id: string, signature: string): string {
  return `${id.slice(0, 100)}~${createHash('sha256').update(signature).digest('hex').slice(0, 12)}`;
}

/** Finds the account a payment method names: remembered mapping, an account of that name, then the same card tail. */
function accountResolver(maps: Map<string, number>, accounts: repo.AccountRef[]) {
  const live = accounts.filter((a) => !a.archived);
  const liveIds = new Set(live.map((a) => a.id));
  const exact = new Map(live.map((a) => [a.name, a.id]));
  const byName = new Map<string, number>();
  for (const a of live) if (!byName.has(looseName(a.name))) byName.set(looseName(a.name), a.id);
  const byTail = new Map<string, number>();
  for (const [method, id] of maps) {
    const t = cardTail(method);
    if (t && liveIds.has(id) && !byTail.has(t)) byTail.set(t, id);
  }
  for (const a of live) {
    const t = cardTail(a.name.normalize('NFKC'));
    if (t && !byTail.has(t)) byTail.set(t, a.id);
  }
  return (method: string | null): number | null => {
    if (!method) return null;
    const m = maps.get(method);
    if (m !== undefined && liveIds.has(m)) return m;
    // the account of the method's name, exactly, else but for case and spaces
    const n = exact.get(method) ?? byName.get(looseName(method));
    if (n !== undefined) return n;
    const t = cardTail(method);
    return t ? (byTail.get(t) ?? null) : null;
  };
}

/**
 * The whole bill against the books, once it is stored: payments they already hold are duplicates,
 * refunds find their purchase (in the file or in the books), and the session is ready.
 */
async function settlePreview(db: Executor, userId: number, sessionId: number, outcome: BillOutcome) {
  const source = outcome.detected.source;
  // the statistics first: the statements below are planned from them, and a table last analyzed empty (after the
  // rows of earlier bills were committed and vacuumed) would be planned as if it held no rows
  if (outcome.rows >= ANALYZE_ROWS) await repo.analyzeRows(db);
  // the payments the books already hold under the same source and id: duplicates (before the refunds, which leave
  // them be)
  await repo.markNewDuplicates(db, userId, sessionId, source);
  // refunds: with their purchase in the file, or in the books
  await repo.linkRefunds(db, sessionId, [...outcome.refundLinks]);
  await repo.skipRows(db, sessionId, outcome.refundsOfSkipped, 'refund_of_skipped');
  // the others: with a purchase in the books, by the same rule as in the file
  const left = new Map<number, number>();
  const unpaired: number[] = [];
  for (const r of outcome.unpairedRefunds) {
    const booked = await repo.bookedPurchases(db, userId, source, sessionId, {
      ids: refundOriginIds(r.externalId),
      counterparty: r.counterparty,
      date: r.date,
    });
    for (const b of booked) if (!left.has(b.id)) left.set(b.id, b.leftMinor);
    const candidates: PurchaseRef[] = booked.map((b) => ({
      row: b.id,
      date: b.date,
      amountMinor: b.leftMinor,
      counterparty: b.counterparty,
      externalId: b.externalId,
      merchantId: null,
      skipped: false,
      refundMarked: false,
    }));
    const p = purchaseFor(r, candidates, (c) => left.get(c.row) ?? 0);
    const o = p && booked.find((b) => b.id === p.row);
    if (o) {
      left.set(o.id, (left.get(o.id) ?? 0) - r.amountMinor);
      await repo.linkRefundToExisting(db, sessionId, r.row, o);
    } else unpaired.push(r.row);
  }
  // neither in the file nor in the books: money back all the same, booked as an income that says so
  await repo.explainRows(db, sessionId, unpaired, 'refund_unpaired');
  // entries typed by hand that rows of the bill probably are: shown as such, not booked a second time
  await markProbablyRecorded(db, userId, sessionId, outcome.detected.format);
  await repo.updateSession(db, sessionId, {
    format: outcome.detected.format,
    source,
    container: outcome.detected.container,
    encoding: outcome.detected.encoding,
    presetId: outcome.detected.presetId,
    rowCount: outcome.rows,
    status: 'ready',
    result: { ignored: outcome.ignored, date_order: outcome.dateOrder ?? null, balances: outcome.balances ?? [] },
  });
}
