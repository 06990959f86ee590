import { stringify } from 'csv-stringify/sync';
import { currencyInfo, formatMinor, toMajorUnits } from '../../lib/currency.ts';
import { toMajor } from '../../lib/money.ts';
import type { ExportRow } from './export.repo.ts';

/*
 * How exported rows are written: CSV cells and lines, JSON records. Pure functions of the rows,
 * so the file format can be checked without a database (and against the import's parser).
 */

/** The columns of before accounts come first, so that older readers of the file keep working. */
export const EXPORT_COLUMNS = [
  'date',
  'kind',
  'amount',
  'category',
  'note',
  'tags',
  'group_id',
  'created_at',
  'account',
  'currency',
  'to_account',
  'to_amount',
  'rate',
] as const;

/** Text that starts like a formula, or like an already neutralized one (apostrophes, then = + - @ tab or CR). */
export const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A text cell that a spreadsheet would run as a formula gets a leading apostrophe. Text that
 * already looks neutralized ('=x) gets one too, so that the import, which removes exactly one,
 * gives back the original text.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * Integer minor units of a two-decimal currency (as text or number) to a plain decimal with two places: 1250 ->
 * "12.50", 5 -> "0.05".
 */
export function minorToDecimal(minor: string | number): string {
  const s = String(minor);
  if (s.startsWith('-')) return `-${minorToDecimal(s.slice(1))}`;
  if (s.length > 2) return `${s.slice(0, -2)}.${s.slice(-2)}`;
  return s.length === 2 ? `0.${s}` : `0.0${s}`;
}

/** `YYYY-MM-DD HH:MM:SS[.ffffff]` (UTC) to ISO 8601 with milliseconds. */
export function isoFromUtcText(s: string): string {
  return `${s.slice(0, 10)}T${s.slice(11, 19)}.${s.slice(20, 23).padEnd(3, '0')}Z`;
}

/** Minor units as a decimal with the currency's own decimals; hundredths when the currency is unknown. */
function decimalIn(minor: string | number, currency: string | null | undefined): string {
  const info = currency ? currencyInfo(currency) : undefined;
  return info ? formatMinor(BigInt(minor), info) : minorToDecimal(minor);
}

function majorIn(minor: string | number, currency: string | null | undefined): number {
  const info = currency ? currencyInfo(currency) : undefined;
  return info ? toMajorUnits(minor, info) : toMajor(minor);
}

const categoryName = (categories: Map<number, string>, id: number | null) =>
  id === null ? '' : (categories.get(Number(id)) ?? '');

export interface ExportPage {
  rows: ExportRow[];
  /** tag names by transaction id */
  tags: Map<number, string[]>;
  /** category names by id */
  categories: Map<number, string>;
}

export const NO_TAGS: string[] = [];

// A cell with a quote, comma or line break is quoted by csv-stringify; any other cell is written
// as is, which is exactly what csv-stringify writes for it. Sending only those few cells through
// csv-stringify keeps its escaping rules while a million-row export stays cheap on the CPU.
const NEEDS_QUOTING = /[",\r\n]/;
const QUOTE_ONE = { eof: false } as const;

export function csvCell(value: string): string {
  return NEEDS_QUOTING.test(value) ? stringify([[value]], QUOTE_ONE) : value;
}

/** The CSV lines of one page of rows (no header), in EXPORT_COLUMNS order. */
export function csvLines({ rows, tags, categories }: ExportPage): string {
  let out = '';
  for (const r of rows) {
    out +=
      `${r.date},${r.kind},${decimalIn(r.amount_minor, r.currency)},${csvCell(neutralizeFormula(categoryName(categories, r.category_id)))},${csvCell(neutralizeFormula(r.note))},` +
      `${csvCell(neutralizeFormula((tags.get(Number(r.id)) ?? NO_TAGS).join('|')))},${r.group_id === null ? '' : Number(r.group_id)},${isoFromUtcText(r.created_utc)},` +
      `${csvCell(neutralizeFormula(r.account ?? ''))},${r.currency ?? ''},${csvCell(neutralizeFormula(r.to_account ?? ''))},` +
      `${r.to_amount === null || r.to_amount === undefined ? '' : decimalIn(r.to_amount, r.to_currency)},${r.rate ?? ''}\n`;
  }
  return out;
}

/** One row as its JSON export record. */
export function jsonRecord(r: ExportRow, tags: string[], category: string) {
  return {
    date: r.date,
    kind: r.kind,
    amount: majorIn(r.amount_minor, r.currency),
    category,
    note: r.note,
    tags,
    group_id: r.group_id === null ? null : Number(r.group_id),
    created_at: isoFromUtcText(r.created_utc),
    account: r.account ?? null,
    currency: r.currency ?? null,
    to_account: r.to_account ?? null,
    to_amount: r.to_amount === null || r.to_amount === undefined ? null : majorIn(r.to_amount, r.to_currency),
    rate: r.rate ?? null,
  };
}

/** Our own CSV and JSON file, as the export writes it and the import reads it. */
export const FORMAT_TEXT =
  'CSV: UTF-8 with BOM, header ' +
  '`date,kind,amount,category,note,tags,group_id,created_at,account,currency,to_account,to_amount,rate`; ' +
  'kind expense, income, transfer or adjustment; amount a plain decimal with the decimals of `currency` (`12.50` ' +
  "CNY, `1200` JPY; an adjustment's " +
  'amount is signed), category empty for transfers and adjustments, tags joined by `|`, group_id empty for personal ' +
  'rows, created_at ISO 8601 UTC, ' +
  '`account` the name of the account the money left or arrived in (empty for a group row recorded for another ' +
  'payer), `currency` its ISO 4217 code, ' +
  "`to_account` and `to_amount` (in the receiving account's currency) for transfers only, `rate` the base-currency " +
  'units per unit of `currency` ' +
  "used at booking (empty in the base currency). A transfer's fee is an expense row of its own. A text cell " +
  '(category, note, tags, accounts) ' +
  "starting with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `'` so that spreadsheets do not run it " +
  'as a formula. ' +
  'JSON: one array of objects with the same keys (amount a number, tags an array of names, group_id a number or null).';
