import type { Executor } from '../../db/client.ts';
import type { CurrencyInfo } from '../../lib/currency.ts';
import { fitHundredths, write, type BookedRow } from '../books/index.ts';
import { checkSignal } from './import.signal.ts';

/*
 * How every import commits (POST /api/import and a preview's commit): amounts fitted with the
 * books' money rules, rows written a page at a time through the books writer.
 */

/**
 * An amount of a file that names no currency, read in hundredths, in the minor units of its
 * account's currency; or why it cannot be (more decimals than that currency has).
 */
export function fitToAccount(hundredths: number, currency: CurrencyInfo): number | string {
  return (
    fitHundredths(hundredths, currency) ?? `amount must have at most ${currency.digits} decimals in ${currency.code}`
  );
}

/**
 * One page of an import's rows through the books writer: the rows in one statement, then their
 * tags. When the client has gone away the error ends the caller's transaction before the page.
 */
export async function writePage(
  tx: Executor,
  userId: number,
  rows: readonly BookedRow[],
  links: readonly { transactionId: number; tagId: number }[],
  signal?: AbortSignal,
): Promise<void> {
  checkSignal(signal);
  await write(tx, userId, { type: 'import', rows, links });
}
