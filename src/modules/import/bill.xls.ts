import * as XLSX from '@e965/xlsx';
import * as cptable from '@e965/xlsx/dist/cpexcel.full.mjs';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../../config.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import { checkSignal } from './import.signal.ts';
import { hostileFile, serialDateText, type SheetRow } from './bill.xlsx.ts';
import { suiWebTable } from './formats/sui-web.ts';

/*
 * The old binary Excel workbook (.xls, BIFF in a compound file), which many Chinese banks still
 * export (CCB, CITIC, SPDB). Read with SheetJS (the maintained @e965/xlsx build) whole in memory,
 * so under a smaller size limit than other files, with at most the row limit parsed, and the
 * first sheet's dimensions checked before its cells are converted.
 */

// BIFF5 files name their code page (936: GBK) rather than carry Unicode
XLSX.set_cptable(cptable);

/** A compound file (CFB), the container of .xls: D0 CF 11 E0 A1 B1 1A E1. */
export function isCompoundFile(buf: Uint8Array): boolean {
  return (
    buf.length >= 8 &&
    buf[0] === 0xd0 &&
    buf[1] === 0xcf &&
    buf[2] === 0x11 &&
    buf[3] === 0xe0 &&
    buf[4] === 0xa1 &&
    buf[5] === 0xb1 &&
    buf[6] === 0x1a &&
    buf[7] === 0xe1
  );
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return '';
    const iso = v.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
  return '';
}

function openWorkbook(buf: Uint8Array, limits: UploadLimits): XLSX.WorkBook {
  try {
    // one row past the limit is parsed, so that a longer sheet is told apart from one at the limit
    return XLSX.read(buf, {
      type: 'buffer',
      dense: true,
      sheetRows: limits.maxRows + 1,
      cellDates: false,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw hostileFile(`not a readable .xls workbook (${(err as Error).message})`);
  }
}

/** A sheet's rows as cell texts (dates as `YYYY-MM-DD HH:MM:SS`), its dimensions checked first. */
function sheetTexts(ws: XLSX.WorkSheet, date1904: boolean, limits: UploadLimits, signal?: AbortSignal): string[][] {
  const ref = ws['!fullref'] ?? ws['!ref'];
  if (ref) {
    const range = XLSX.utils.decode_range(ref);
    if (range.e.r - range.s.r + 1 > limits.maxRows)
      throw Errors.tooLarge(`the worksheet has more than ${limits.maxRows} rows (empty rows count)`);
    if (range.e.c + 1 > limits.maxColumns)
      throw Errors.tooLarge(`the worksheet has more than ${limits.maxColumns} columns`);
  }
  const data = (ws as XLSX.DenseWorkSheet)['!data'] ?? [];
  const out: string[][] = [];
  for (let r = 0; r < data.length; r++) {
    if (r % 1000 === 0) checkSignal(signal);
    const row = data[r];
    if (!row) continue;
    const cells: string[] = [];
    for (let c = 0; c < row.length; c++) {
      const cell = row[c];
      let text = '';
      if (cell && cell.t !== 'z' && cell.t !== 'e') {
        // a number shown with a date format is a date
        if (cell.t === 'n' && typeof cell.v === 'number' && typeof cell.z === 'string' && XLSX.SSF.is_date(cell.z))
          text = serialDateText(cell.v, date1904);
        else text = cellText(cell.v);
      }
      if (text.length > limits.maxCellChars)
        throw Errors.tooLarge(`a cell of the worksheet is longer than ${limits.maxCellChars} characters`);
      cells.push(text);
    }
    if (cells.some((c) => c.trim() !== '')) out.push(cells);
  }
  return out;
}

/**
 * The rows of an .xls workbook's first sheet, as cell texts (dates as `YYYY-MM-DD HH:MM:SS`), empty
 * rows left out; of a 随手记 web export, its sheets as one table.
 */
export function* xlsRows(
  buf: Uint8Array,
  opts: { limits?: UploadLimits; signal?: AbortSignal } = {},
): Generator<SheetRow> {
  const limits = opts.limits ?? DEFAULT_UPLOAD_LIMITS;
  checkSignal(opts.signal);
  if (buf.length > limits.xlsMaxBytes)
    throw Errors.tooLarge(
      `an .xls workbook is read whole: at most ${limits.xlsMaxBytes / 1048576} MiB (save it as XLSX or CSV)`,
    );
  const wb = openWorkbook(buf, limits);
  const sheets = wb.SheetNames.map((n) => wb.Sheets[n]).filter((ws): ws is XLSX.WorkSheet => ws !== undefined);
  if (!sheets.length) throw hostileFile('the .xls workbook has no sheet');
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  const first = sheetTexts(sheets[0]!, date1904, limits, opts.signal);
  const all = [first, ...sheets.slice(1).map((ws) => sheetTexts(ws, date1904, limits, opts.signal))];
  const rows = suiWebTable(all) ?? first;
  if (rows.length > limits.maxRows) throw Errors.tooLarge(`the workbook has more than ${limits.maxRows} rows`);
  let line = 0;
  for (const cells of rows) yield { line: ++line, cells };
}
