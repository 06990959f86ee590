import type { Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { currencyInfo, type CurrencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import * as books from '../books/index.ts';
import { recordEvent } from '../webhooks/index.ts';
import type { BillDeps } from './bills.deps.ts';
import { createChosenAccounts } from './bills.names.ts';
import * as repo from './bills.repo.ts';
import { requireSession } from './bills.review.ts';
import { billCurrency, completeRecordedOrders, mergeProbablyRecorded } from './import.dedupe.ts';
import { lockUserImports } from './import.repo.ts';
import { categoryRefused, MAX_CATEGORIES } from './import.rows.ts';

/** Imports the rows as they stand, all or nothing. */
export async function commitBill(deps: BillDeps, userId: number, id: number) {
  await requireSession(deps, userId, id);
  return deps.db.transaction(async (tx) => {
    const s = await repo.lockOwnSession(tx, userId, id);
    if (!s) throw Errors.notFound('import preview');
    if (s.status === 'committed') throw Errors.conflict('this import was already committed');
    await lockUserImports(tx, userId);
    const source = s.format === 'ledger' ? null : s.source;
    if (source) await repo.markNewDuplicates(tx, userId, s.id, source);
    await repo.markInFileDuplicates(tx, s.id);
    // rows that are entries typed by hand: the entry takes the bill's id, time and counterparty instead
    const merged =
      (await mergeProbablyRecorded(tx, userId, s.id, source)) +
      (source ? await completeRecordedOrders(tx, userId, s.id, source) : 0);
    // the accounts and categories the file names that are to be created: created here, undone with the rest
    const accountsCreated = await createChosenAccounts(tx, userId, s);
    const categoriesCreated = await refuseInvalidRows(tx, userId, s.id);
    const total = await repo.countRows(tx, s.id);
    const written = await writeRows(tx, userId, s.id, s.format, source).catch((err: unknown) => {
      // another import of the same payments got there first
      if (isUniqueViolation(err))
        throw Errors.conflict('some of these payments reached your books meanwhile: open the bill again');
      throw err;
    });
    await repo.rememberMethods(tx, userId, s.id);
    const result = {
      imported: written.imported,
      skipped: total - written.imported,
      transfers: written.transfers,
      refunds: written.refunds,
      merged,
      ...(accountsCreated.length ? { accounts_created: accountsCreated } : {}),
      ...(categoriesCreated.length ? { categories_created: categoriesCreated } : {}),
    };
    await repo.deleteRows(tx, s.id);
    await repo.updateSession(tx, s.id, { status: 'committed', result });
    await recordEvent(tx, userId, 'import.committed', { source: 'bill', import_id: s.id, format: s.format, ...result });
    return result;
  });
}

/**
 * Creates the categories the rows name (answers their names); refuses the commit with every row that cannot be
 * booked.
 */
async function refuseInvalidRows(tx: Executor, userId: number, sessionId: number): Promise<string[]> {
  const cats = await repo.userCategories(tx, userId);
  const { refused, created } = await repo.createNamedCategories(tx, userId, sessionId, MAX_CATEGORIES - cats.length);
  const errors = [
    ...refused.map((r) => categoryRefused(r.row, r.name)),
    ...(await repo.invalidRows(tx, userId, sessionId)),
  ].sort((a, b) => a.row - b.row);
  if (errors.length) throw Errors.importRejected(errors.slice(0, 1000));
  return created;
}

/**
 * Writes the session's rows to import as transactions, in one statement of the books writer
 * (an importSelected change), straight from the session's table: nothing of the bill passes through memory.
 * Each amount is read in its bill's currency and booked in its account's (a 28.00 yuan payment from
 * a yen account is so many whole yen at the yen's rate, and 28.00 yuan in a yuan base), converted
 * once with the integer rules of the books. Refunds of a purchase of the same file point to it. A
 * row that cannot be booked (a rate missing, more decimals than the account's currency has) refuses
 * the commit with its reason (42203), and nothing is written.
 */
async function writeRows(
  tx: Executor,
  userId: number,
  sessionId: number,
  format: string,
  source: string | null,
): Promise<{ imported: number; transfers: number; refunds: number }> {
  const base = await books.baseCurrencyOf(tx, userId);
  const given = billCurrency(format);
  const codes = new Set([
    base.code,
    ...(given ? [given.code] : []),
    ...(await repo.userAccounts(tx, userId)).map((a) => a.currency),
  ]);
  const currencies = [...codes].map((c) => currencyInfo(c)).filter((c): c is CurrencyInfo => c !== undefined);
  // the tags the rows name, created when missing
  await repo.tagsOfRows(tx, userId, sessionId);
  const out = await books.write(tx, userId, {
    type: 'importSelected',
    source: repo.rowsToWriteSql(userId, sessionId, source, given?.code ?? null),
    currencies,
  });
  if (out.errors.length) throw Errors.importRejected(out.errors);
  return { imported: out.written, transfers: out.transfers, refunds: out.refunds };
}
