import { AppError, Errors } from '../../lib/errors.ts';
import type { UploadLimits } from '../../config.ts';
import type { BillFormat, PresetRef } from './bill.formats.ts';
import type { Decision, Reason, RowKind, RefundRef } from './bill.meaning.ts';
import type { Container, Encoding } from './bill.read.ts';

/*
 * What every import format hands over: proposed rows (seed rows) in batches, and the outcome of a
 * whole file. The formats (import.formats.ts) produce them; the preview store keeps them.
 */

/** bytes an uploaded file may have, in every format */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** rows a file may hold, in every format */
export const IMPORT_MAX_ROWS = 100_000;
export const BILL_MAX_ROWS = IMPORT_MAX_ROWS;
/** bad rows listed in a refusal; the count says how many there were */
export const MAX_LISTED_ERRORS = 1000;
/** categories a user may have: an import that would create more refuses the rows that name them */
export const MAX_CATEGORIES = 200;
/** rows an import writes through the books writer in one statement (memory does not grow with the file) */
export const WRITE_PAGE = 5000;

/** A row naming a category that the category limit leaves no room for. */
export function categoryRefused(row: number, name: string): { row: number; message: string } {
  return { row, message: `category "${name}" cannot be created: at most ${MAX_CATEGORIES} categories per user` };
}

/** A proposed row, before the database has had its say (accounts, categories, duplicates). */
export interface SeedRow {
  row: number;
  date: string;
  kind: RowKind;
  amountMinor: number;
  counterparty: string;
  note: string;
  externalId: string | null;
  /** account key the money leaves (expense, transfer) or enters (income) */
  method: string;
  toMethod: string | null;
  decision: Decision;
  reason: Reason | null;
  refund: boolean;
  /** the file row of the purchase a refund reduces, once paired */
  refundOfRow: number | null;
  /** the category named by the file (our own export), created on commit when missing */
  categoryName: string | null;
  tags: string[];
  groupId: number | null;
  createdAt: string | null;
  /** 交易类型 / 交易分类: what the rules may match besides counterparty and note */
  type: string;
  /** HH:MM:SS when the bill gives a time, else empty */
  time: string;
  /** the row's own currency (a mapped currency column), else null */
  currency: string | null;
}

/** A line that cannot be read: the row, a code with its parameters (worded by the client), and the same in English. */
export interface RowError {
  row: number;
  message: string;
  code?: string;
  params?: Record<string, string>;
}

/** A line under the header that is no payment (a total, a note, a disclaimer): left out, with what it said. */
export interface IgnoredLine {
  row: number;
  reason: 'not_transaction';
  text: string;
}

export interface Detected {
  format: BillFormat;
  /** the `source` of imported rows: wechat, alipay, ledger or bank:<hash of the header> */
  source: string;
  container: Container;
  encoding: Encoding | null;
  header: string[];
  presetId: number | null;
}

export interface BillOutcome {
  detected: Detected;
  rows: number;
  errors: RowError[];
  errorCount: number;
  /** refund row -> purchase row, within the file */
  refundLinks: Map<number, number>;
  /** refund rows whose purchase is itself skipped as closed: nothing moved */
  refundsOfSkipped: number[];
  /** refunds without their purchase in the file: the caller looks in the books */
  unpairedRefunds: RefundRef[];
  /** lines under the header that are no payments */
  ignored: IgnoredLine[];
  /** the order of day and month the dates were read in (QIF), and whether the person chose it */
  dateOrder?: { order: 'mdy' | 'dmy'; chosen: boolean } | null;
  /** the balance a bank statement states for each of its accounts (OFX, camt, MT940), offered for reconciliation */
  balances?: StatementBalance[];
}

/** The closing balance a bank file states for one of its accounts (the last statement of the account). */
export interface StatementBalance {
  /** the account's key in the file: the rows' payment method */
  account: string;
  currency: string;
  /** signed, with exactly the currency's minor digits ("-104.99", "1200" in yen) */
  amount: string;
  date: string;
}

/** What a file that is none of the formats looked like, for the 42203 answer. */
export interface Recognised {
  container: Container;
  encoding: Encoding | null;
  /** the line that looks most like a table header */
  header: string[];
  header_line: number | null;
  lines_read: number;
  /** what the person can do: map_columns, or save_as_xlsx for a legacy binary workbook (.xls) */
  suggestion?: 'map_columns' | 'save_as_xlsx';
}

export function unrecognised(r: Recognised): AppError {
  if (r.suggestion === 'save_as_xlsx') {
    return new AppError(
      422,
      42203,
      'the file is a legacy Excel workbook (.xls): open it and save it as .xlsx (or CSV), then send it again',
      undefined,
      {
        errors: [{ row: 0, message: 'legacy .xls workbook', code: 'save_as_xlsx', params: {} }],
        recognised: r,
      },
    );
  }
  return new AppError(
    422,
    42203,
    'the file is not a WeChat Pay, Alipay or own-export bill and matches no saved column mapping: map its columns ' +
      '(header below) and send it again with preset_id',
    undefined,
    { errors: [], recognised: { ...r, suggestion: r.suggestion ?? 'map_columns' } },
  );
}

export function tooManyRows(): AppError {
  return Errors.tooLarge(`too many rows: a bill holds at most ${BILL_MAX_ROWS}`);
}

export interface ReadOptions {
  presets: PresetRef[];
  /** only this preset is tried for a mapped file (the caller chose it) */
  presetId?: number | null;
  batchSize?: number;
  /** called once the format is known, before the first rows */
  onDetected?: (detected: Detected) => void;
  onRows: (rows: SeedRow[]) => Promise<void>;
  /** limits of the file's container (zip, sheet, cells); unset: the defaults */
  limits?: UploadLimits;
  /** aborted when the client goes away: reading stops */
  signal?: AbortSignal;
  /** the order of day and month the person chose for a file whose dates read both ways (QIF) */
  dateOrder?: 'MDY' | 'DMY' | null;
}
