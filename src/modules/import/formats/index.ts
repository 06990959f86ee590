import type { Encoding } from '../bill.read.ts';
import type { BillOutcome, ReadOptions } from '../import.rows.ts';
import { isCamt, readCamt } from './camt.ts';
import { isMt940, readMt940 } from './mt940.ts';
import { isOfx, readOfx } from './ofx.ts';
import { isQif, readQif } from './qif.ts';

/*
 * The bank standards, told by their first bytes rather than by a table header, each reading the
 * whole file itself. A file that is not valid UTF-8 is in the Western code page these formats are
 * written in (Quicken, European banks), unless an OFX header names the Chinese one.
 */

export interface StatementFormat {
  id: 'ofx' | 'qif' | 'camt' | 'mt940';
  recognise(head: string): boolean;
  read(buf: Uint8Array, encoding: Encoding, opts: ReadOptions): Promise<BillOutcome>;
}

function western(encoding: Encoding, head: string): Encoding {
  if (encoding !== 'gb18030') return encoding;
  return /^\s*CHARSET\s*:\s*936\b/m.test(head) ? 'gb18030' : 'windows-1252';
}

export const STATEMENT_FORMATS: readonly StatementFormat[] = [
  { id: 'qif', recognise: isQif, read: readQif },
  { id: 'ofx', recognise: isOfx, read: readOfx },
  { id: 'camt', recognise: isCamt, read: readCamt },
  { id: 'mt940', recognise: isMt940, read: readMt940 },
];

/** The bank standard a file's first characters announce, with the encoding to read it in; else null. */
export function statementFormat(
  head: string,
  encoding: Encoding,
): { format: StatementFormat; encoding: Encoding } | null {
  const format = STATEMENT_FORMATS.find((f) => f.recognise(head));
  return format ? { format, encoding: western(encoding, head) } : null;
}
