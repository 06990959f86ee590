import type { Executor } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { toMajor } from '../../lib/money.ts';
import { categoryChooser, type CategoryChooser } from './bills.chooser.ts';
import { PREVIEW_ROWS, type BillDeps } from './bills.deps.ts';
import { applyMappings } from './bills.names.ts';
import * as repo from './bills.repo.ts';
import type { PatchBody } from './import.schemas.ts';
import type { StatementBalance } from './import.rows.ts';
import { markProbablyRecorded, PROBABLY_RECORDED } from './import.dedupe.ts';

/*
 * A bill's preview between reading and committing: looked at page by page, edited row by row or in
 * bulk, or thrown away.
 */

export interface PreviewRowOut {
  row: number;
  date: string;
  kind: 'expense' | 'income' | 'transfer';
  amount: number;
  counterparty: string;
  note: string;
  external_id: string | null;
  method: string;
  account_id: number | null;
  to_method: string | null;
  to_account_id: number | null;
  category_id: number | null;
  category_name: string | null;
  tags: string[];
  decision: 'import' | 'duplicate' | 'skip' | 'transfer';
  reason: string | null;
  refund: boolean;
  refund_of_row: number | null;
  refund_of: number | null;
  existing_id: number | null;
}

type RowEdit = NonNullable<PatchBody['rows']>[number];
type BulkEdit = NonNullable<PatchBody['bulk']>;
type StoredRow = Awaited<ReturnType<typeof repo.rowsByNumber>>[number];

export function toRowOut(r: repo.PreviewRow): PreviewRowOut {
  return {
    row: r.row,
    date: r.date,
    kind: r.kind,
    amount: toMajor(r.amountMinor),
    counterparty: r.counterparty,
    note: r.note,
    external_id: r.externalId,
    method: r.method,
    account_id: r.accountId,
    to_method: r.toMethod,
    to_account_id: r.toAccountId,
    category_id: r.categoryId,
    // the file's name while no category stands for it: created on commit
    category_name: r.categoryId === null ? r.categoryName : null,
    tags: r.tags,
    decision: r.decision,
    reason: r.reason,
    refund: r.refund,
    refund_of_row: r.refundOfRow,
    refund_of: r.refundOfId,
    existing_id: r.existingId,
  };
}

export function summaryOut(s: repo.Summary) {
  return {
    total: s.total,
    import: s.import,
    duplicate: s.duplicate,
    skip: s.skip,
    transfer: s.transfer,
    expense: toMajor(s.expense_cents),
    income: toMajor(s.income_cents),
    methods: s.methods,
    categories: s.categories,
    undecided: s.undecided,
  };
}

/** A preview of the user's that is not expired and no longer being read, or 404. */
export async function requireSession({ db, clock }: Pick<BillDeps, 'db' | 'clock'>, userId: number, id: number) {
  const s = await repo.findOwnSession(db, userId, id, clock.now());
  if (!s || s.status === 'reading') throw Errors.notFound('import preview');
  return s;
}

/** A page of a preview's rows with the whole bill's summary. */
export async function previewOut(
  { db }: Pick<BillDeps, 'db'>,
  s: repo.SessionRow,
  page = 1,
  pageSize = PREVIEW_ROWS,
  decision?: string,
) {
  const [{ rows, total }, sum] = await Promise.all([
    repo.listRows(db, s.id, { offset: (page - 1) * pageSize, limit: pageSize, decision }),
    repo.summary(db, s.id),
  ]);
  return {
    id: s.id,
    format: s.format,
    source: s.source,
    container: s.container,
    encoding: s.encoding,
    preset_id: s.presetId,
    file_name: s.fileName,
    status: s.status,
    expires_at: s.expiresAt.toISOString(),
    rows: rows.map(toRowOut),
    total,
    summary: summaryOut(sum),
    ignored:
      s.status === 'ready'
        ? ((s.result?.ignored as { row: number; reason: string; text: string }[] | undefined) ?? [])
        : [],
    date_order: (s.result?.date_order as { order: 'mdy' | 'dmy'; chosen: boolean } | null | undefined) ?? null,
    balances: s.status === 'ready' ? balancesOut(s.result?.balances, sum.methods) : [],
  };
}

/** The balances the file states, each with the account its method's rows go to. */
function balancesOut(stored: unknown, methods: repo.Summary['methods']) {
  const account = new Map(methods.map((m) => [m.method, m.account_id]));
  return ((stored as StatementBalance[] | undefined) ?? []).map((b) => ({
    method: b.account,
    account_id: account.get(b.account) ?? null,
    currency: b.currency,
    amount: b.amount,
    date: b.date,
  }));
}

export async function getPreview(
  deps: BillDeps,
  userId: number,
  id: number,
  q: { page?: number; pageSize?: number; decision?: string },
) {
  const s = await requireSession(deps, userId, id);
  return previewOut(deps, s, q.page ?? 1, q.pageSize ?? 100, q.decision);
}

export async function discardPreview(deps: BillDeps, userId: number, id: number) {
  const s = await requireSession(deps, userId, id);
  await repo.deleteSession(deps.db, s.id);
}

export async function purgeExpiredPreviews({ db, clock }: BillDeps) {
  return repo.purgeExpired(db, clock.now());
}

/** Row-by-row and bulk edits of a preview, in one transaction; answers how many rows changed. */
export async function patchPreview(deps: BillDeps, userId: number, id: number, body: PatchBody) {
  const { db } = deps;
  const s = await requireSession(deps, userId, id);
  if (s.status === 'committed') throw Errors.conflict('this import was already committed');
  const edits = body.rows ?? [];
  const bulk = body.bulk;
  const mappings = body.mappings;
  if (!edits.length && !bulk && !mappings?.categories?.length && !mappings?.accounts?.length)
    throw Errors.validation('send rows, bulk or mappings');
  const catKind = await checkPatchTargets(db, userId, edits, bulk);
  const chooser = await categoryChooser(deps, db, userId);
  let updated = 0;
  await db.transaction(async (tx) => {
    if (edits.length) updated += await applyRowEdits(tx, s.id, edits, catKind, chooser);
    if (bulk) updated += await applyBulkEdit(tx, userId, s.id, bulk, catKind);
    if (mappings) updated += await applyMappings(tx, userId, s, mappings);
    // a refund follows its purchase's category and account
    await repo.followPurchases(tx, s.id);
    // rows given an account may be entries already typed in it
    if (
      bulk?.set.account_id !== undefined ||
      edits.some((e) => e.account_id !== undefined) ||
      mappings?.accounts?.some((a) => a.account_id !== undefined)
    ) {
      const decided = edits.filter((e) => e.decision !== undefined || e.force).map((e) => e.row);
      await markProbablyRecorded(tx, userId, s.id, s.format, decided);
    }
  });
  return { updated, summary: summaryOut(await repo.summary(db, s.id)) };
}

/** The accounts and categories an edit names are the user's; answers the kind of each category. */
async function checkPatchTargets(db: Executor, userId: number, edits: RowEdit[], bulk: BulkEdit | undefined) {
  const [accounts, cats] = await Promise.all([repo.userAccounts(db, userId), repo.userCategories(db, userId)]);
  const liveAccounts = new Set(accounts.filter((a) => !a.archived).map((a) => a.id));
  const catKind = new Map(cats.map((c) => [c.id, c.kind]));
  const checkAccount = (v: number | undefined, field: string) => {
    if (v !== undefined && !liveAccounts.has(v)) throw Errors.field(field, 'must be one of your accounts');
  };
  const checkCategory = (v: number | undefined, field: string) => {
    if (v !== undefined && !catKind.has(v)) throw Errors.field(field, 'must be one of your categories');
  };
  edits.forEach((e, i) => {
    checkAccount(e.account_id, `rows.${i}.account_id`);
    checkAccount(e.to_account_id, `rows.${i}.to_account_id`);
    checkCategory(e.category_id, `rows.${i}.category_id`);
  });
  if (bulk) {
    checkAccount(bulk.set.account_id, 'bulk.set.account_id');
    checkCategory(bulk.set.category_id, 'bulk.set.category_id');
    if (
      bulk.rows === undefined &&
      bulk.method === undefined &&
      bulk.counterparty === undefined &&
      bulk.decision === undefined &&
      bulk.undecided === undefined &&
      bulk.all !== true
    ) {
      throw Errors.field('bulk', 'must select rows: rows, method, counterparty, decision, undecided or all');
    }
  }
  return catKind;
}

async function applyRowEdits(
  tx: Executor,
  sessionId: number,
  edits: RowEdit[],
  catKind: Map<number, string>,
  chooser: CategoryChooser,
): Promise<number> {
  const stored = await repo.rowsByNumber(
    tx,
    sessionId,
    edits.map((e) => e.row),
  );
  const current = new Map(stored.map((r) => [r.row, r]));
  let updated = 0;
  for (const [i, e] of edits.entries()) {
    const r = current.get(e.row);
    if (!r) throw Errors.field(`rows.${i}.row`, 'is not a row of this preview');
    await repo.updateRow(tx, sessionId, e.row, rowEditChange(i, e, r, catKind, chooser));
    updated++;
  }
  return updated;
}

/** What one row edit changes: its kind, decision (with the rules of duplicates and transfers) and category. */
function rowEditChange(i: number, e: RowEdit, r: StoredRow, catKind: Map<number, string>, chooser: CategoryChooser) {
  const kind = e.kind ?? r.kind;
  let decision = e.decision ?? (e.kind ? (e.kind === 'transfer' ? 'transfer' : 'import') : undefined);
  if (decision === 'transfer' && kind !== 'transfer')
    throw Errors.field(`rows.${i}.decision`, 'transfer needs kind transfer');
  if (decision === 'import' && kind === 'transfer')
    throw Errors.field(`rows.${i}.decision`, 'a transfer row is imported with decision transfer');
  const wasDuplicate = r.decision === 'duplicate' && (r.reason === 'duplicate' || r.reason === 'duplicate_in_file');
  if (e.force && decision === undefined) decision = kind === 'transfer' ? 'transfer' : 'import';
  if ((decision === 'import' || decision === 'transfer') && wasDuplicate && r.externalId !== null && !e.force) {
    throw Errors.rule(
      `row ${e.row} looks already in your books (${r.externalId}): send force true to import it anyway`,
    );
  }
  // a row that is probably an entry typed by hand is booked beside it when the person says so, keeping the bill's id
  const forced =
    (decision === 'import' || decision === 'transfer') &&
    ((wasDuplicate && e.force === true) || (r.decision === 'duplicate' && r.reason === PROBABLY_RECORDED));
  const keepsId = r.reason === PROBABLY_RECORDED;
  if (e.category_id !== undefined && catKind.get(e.category_id) !== kind)
    throw Errors.field(`rows.${i}.category_id`, `must be a category of kind ${kind}`);
  let categoryId: number | null | undefined = e.category_id;
  // a row of another kind: the category the chooser finds for it, or none for the person to decide
  if (categoryId === undefined && e.kind && e.kind !== r.kind)
    categoryId = chooser.choose({
      kind,
      counterparty: r.counterparty ?? '',
      note: e.note ?? r.note ?? '',
      method: r.method ?? '',
    });
  if (
    decision === undefined &&
    r.decision === 'skip' &&
    r.reason === 'no_account' &&
    (e.account_id !== undefined || e.to_account_id !== undefined)
  )
    decision = 'transfer';
  return {
    kind,
    decision,
    reason: forced ? 'forced' : decision !== undefined ? (decision === 'skip' ? 'user' : null) : undefined,
    // a forced row carries no id: the one it resembles keeps it, and a later upload of the bill still finds that one
    externalId: forced && !keepsId ? null : undefined,
    existingId: forced ? null : undefined,
    accountId: e.account_id,
    toAccountId: e.to_account_id,
    categoryId: kind === 'transfer' ? null : categoryId,
    tags: e.tags?.map((t) => t.trim()).filter((t) => t !== ''),
    note: e.note?.trim(),
  };
}

async function applyBulkEdit(
  tx: Executor,
  userId: number,
  sessionId: number,
  bulk: BulkEdit,
  catKind: Map<number, string>,
): Promise<number> {
  const updated = await repo.bulkUpdate(tx, sessionId, {
    rows: bulk.rows,
    method: bulk.method,
    counterparty: bulk.counterparty,
    decision: bulk.decision,
    undecided: bulk.undecided,
    set: {
      decision: bulk.set.decision,
      accountId: bulk.set.account_id,
      categoryId: bulk.set.category_id,
      categoryKind: bulk.set.category_id !== undefined ? catKind.get(bulk.set.category_id) : undefined,
      tags: bulk.set.tags?.map((t) => t.trim()).filter((t) => t !== ''),
    },
  });
  // a payment method mapped to an account is remembered for the next bills
  if (bulk.method && bulk.set.account_id !== undefined)
    await repo.saveAccountMaps(tx, userId, [{ method: bulk.method, accountId: bulk.set.account_id }]);
  return updated;
}
