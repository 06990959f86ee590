// A zip of the attachments of a person's entries between two dates, with an index of which entry each belongs to.
import { createReadStream } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import JSZip from 'jszip';
import { currencyInfo, formatMinor } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import type { AttachmentDeps } from './attachments.deps.ts';
import * as repo from './attachments.repo.ts';

/**
 * A zip of the attachments of the person's entries booked in [start, end]: one folder a day, each
 * file named after its entry, and index.csv saying which entry each file belongs to.
 */
export async function exportZip({ db, store }: AttachmentDeps, userId: number, start: string, end: string) {
  if (start > end) throw Errors.field('end_date', 'must not be before start_date');
  const rows = await repo.exportRows(db, userId, start, end);
  const zip = new JSZip();
  const index: string[][] = [['file', 'transaction_id', 'date', 'kind', 'amount', 'currency', 'note']];
  for (const r of rows) {
    const currency = currencyInfo(r.currency) ?? { code: r.currency, digits: 2, name: r.currency };
    const file = `${r.date}/${r.transactionId}-${r.id}-${r.name}`;
    index.push([
      file,
      String(r.transactionId),
      r.date,
      r.kind,
      formatMinor(r.amountMinor, currency),
      r.currency,
      r.note,
    ]);
    zip.file(file, createReadStream(store.pathOf(r.sha256)), { binary: true });
  }
  zip.file('index.csv', '\ufeff' + stringify(index));
  return {
    count: rows.length,
    stream: zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'STORE' }),
  };
}
