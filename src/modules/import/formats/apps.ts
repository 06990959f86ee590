import type { FileRecord } from '../bill.read.ts';
import { headerKey } from '../bill.text.ts';
import type { HeaderCandidate, Layout } from '../bill.formats.ts';
import type { BillOutcome, Detected, ReadOptions } from '../import.rows.ts';
import {
  hundredths,
  isoDate,
  problem,
  StatementRows,
  ymd,
  type EntryProblem,
  type StatementEntry,
} from './statement.ts';

/*
 * The exports of the bookkeeping apps people leave, each told by its table header: ezBookkeeping
 * (CSV or TSV), Firefly III, Actual, YNAB's register, 钱迹 and 随手记 (the app's CSV, whose transfers are
 * two lines joined by 关联Id; the cloud's XLSX and the web's one-sheet XLS; the web's XLS of a sheet a
 * kind, read as one table by sui-web.ts). Each line says what the app booked: an expense or income of
 * one of its accounts, in one of its categories, or a transfer between two of its accounts (one row
 * here, whichever way the app writes it). Accounts and categories keep the app's names: the preview
 * maps them to the person's own or creates them on commit.
 */

export type AppId = 'ezbookkeeping' | 'firefly' | 'actual' | 'ynab' | 'qianji' | 'sui_app' | 'sui_cloud' | 'sui_web';

type Cell = (name: string) => string;

/** one side of a transfer that the app writes as two lines sharing an id (随手记's 转出 and 转入) */
interface TransferHalf {
  pair: string;
  side: 'out' | 'in';
}

/** what a line is: an entry, a refusal, or nothing to book (an opening balance, a heading) */
type LineMeaning = (Omit<StatementEntry, 'at'> & { half?: TransferHalf }) | EntryProblem | null;

interface AppFormat {
  id: AppId;
  /** the header names (spaces removed) that tell the app's export */
  required: string[];
  line(cell: Cell): LineMeaning;
}

const isProblem = (m: LineMeaning): m is EntryProblem => m !== null && 'code' in m;

function badDate(value: string, format: string): EntryProblem {
  return problem('bad_date', { value, format }, `"${value}" is no date in the form ${format}`);
}

function badAmount(column: string, value: string): EntryProblem {
  return problem('bad_amount', { column, value }, `"${value}" in ${column} is no amount`);
}

/** A date written MM/DD/YYYY (as the American apps write it) or YYYY-MM-DD. */
function usDate(raw: string): string | null {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(raw);
  return m ? ymd(+m[3]!, +m[1]!, +m[2]!) : isoDate(raw);
}

/** A date of 钱迹: 2024-03-01 12:00:00, or 2024/3/1 12:00. */
function slashDate(raw: string): string | null {
  const m = /^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(raw);
  return m ? ymd(+m[1]!, +m[2]!, +m[3]!) : null;
}

/** An amount with its currency sign, as YNAB writes it: $1,234.56 or 1.234,56€. */
function signedMoney(raw: string): number | null {
  const s = raw.replace(/[^\d.,-]/g, '');
  if (s === '' || s === '-') return 0;
  return hundredths(s, /,\d{1,2}$/.test(s) && !/\.\d*$/.test(s) ? ',' : '.');
}

const entry = (e: Partial<Omit<StatementEntry, 'at'>> & Pick<StatementEntry, 'date' | 'amount' | 'account'>) => ({
  currency: null,
  counterparty: '',
  note: '',
  id: null,
  category: null,
  transferAccount: null,
  ...e,
});

const APPS: AppFormat[] = [
  {
    id: 'ezbookkeeping',
    required: ['Time', 'Type', 'Category', 'SubCategory', 'Account', 'AccountCurrency', 'Amount', 'Account2'],
    line(cell) {
      const type = cell('Type');
      // the balance an account was opened with is no payment
      if (!['Income', 'Expense', 'Transfer'].includes(type)) return null;
      const date = isoDate(cell('Time'));
      if (!date) return badDate(cell('Time'), 'YYYY-MM-DD HH:MM:SS');
      const size = hundredths(cell('Amount'));
      if (size === null) return badAmount('Amount', cell('Amount'));
      const amount = type === 'Income' ? Math.abs(size) : -Math.abs(size);
      return entry({
        date,
        amount,
        account: cell('Account'),
        currency: cell('AccountCurrency') || null,
        note: cell('Description') || cell('Comment'),
        category: type === 'Transfer' ? null : cell('SubCategory') || cell('Category') || null,
        transferAccount: type === 'Transfer' ? cell('Account2') : null,
      });
    },
  },
  {
    id: 'firefly',
    required: [
      'journal_id',
      'type',
      'amount',
      'currency_code',
      'description',
      'date',
      'source_name',
      'destination_name',
    ],
    line(cell) {
      const type = cell('type');
      if (!['Withdrawal', 'Deposit', 'Transfer'].includes(type)) return null;
      const date = isoDate(cell('date'));
      if (!date) return badDate(cell('date'), 'YYYY-MM-DDTHH:MM:SS+HH:MM');
      const size = hundredths(cell('amount'));
      if (size === null) return badAmount('amount', cell('amount'));
      const out = type !== 'Deposit';
      return entry({
        date,
        amount: out ? -Math.abs(size) : Math.abs(size),
        account: out ? cell('source_name') : cell('destination_name'),
        currency: cell('currency_code') || null,
        counterparty: type === 'Transfer' ? '' : out ? cell('destination_name') : cell('source_name'),
        note: [cell('description'), cell('notes')].filter(Boolean).join(' · '),
        id: cell('journal_id') || null,
        category: type === 'Transfer' ? null : cell('category') || null,
        transferAccount: type === 'Transfer' ? cell('destination_name') : null,
      });
    },
  },
  {
    id: 'actual',
    required: ['Account', 'Date', 'Payee', 'Notes', 'Category', 'Amount'],
    line(cell) {
      const date = isoDate(cell('Date'));
      if (!date) return badDate(cell('Date'), 'YYYY-MM-DD');
      // a split transaction: each of its lines has its own amount
      const raw = cell('Split_Amount') || cell('Amount');
      const amount = hundredths(raw);
      if (amount === null) return badAmount('Amount', raw);
      const payee = cell('Payee');
      const to = /^Transfer\s*:\s*(.+)$/i.exec(payee)?.[1]?.trim() ?? null;
      return entry({
        date,
        amount,
        account: cell('Account'),
        counterparty: to ? '' : payee,
        note: cell('Notes'),
        category: to ? null : cell('Category') || null,
        transferAccount: to,
      });
    },
  },
  {
    id: 'ynab',
    required: ['Account', 'Flag', 'Date', 'Payee', 'Memo', 'Outflow', 'Inflow'],
    line(cell) {
      const date = usDate(cell('Date'));
      if (!date) return badDate(cell('Date'), 'MM/DD/YYYY');
      const outflow = signedMoney(cell('Outflow'));
      const inflow = signedMoney(cell('Inflow'));
      if (outflow === null) return badAmount('Outflow', cell('Outflow'));
      if (inflow === null) return badAmount('Inflow', cell('Inflow'));
      const payee = cell('Payee');
      const to = /^Transfer\s*:\s*(.+)$/i.exec(payee)?.[1]?.trim() ?? null;
      // YNAB's "Inflow: Ready to Assign" is income with no category of its own
      const category = cell('Category') || cell('CategoryGroup/Category') || null;
      return entry({
        date,
        amount: inflow - outflow,
        account: cell('Account'),
        counterparty: to ? '' : payee,
        note: cell('Memo'),
        category: to || category === 'Ready to Assign' ? null : category,
        transferAccount: to,
      });
    },
  },
  {
    id: 'qianji',
    required: ['时间', '分类', '类型', '金额', '账户1', '账户2', '备注'],
    line(cell) {
      const type = cell('类型');
      const kinds: Record<string, 1 | -1 | 0> = {
        支出: -1,
        收入: 1,
        退款: 1,
        报销: 1,
        转账: 0,
        还款: 0,
        信用卡还款: 0,
      };
      if (!(type in kinds)) return null;
      const date = slashDate(cell('时间'));
      if (!date) return badDate(cell('时间'), 'YYYY-MM-DD HH:MM');
      const size = hundredths(cell('金额'));
      if (size === null) return badAmount('金额', cell('金额'));
      const transfer = kinds[type] === 0;
      const sub = cell('二级分类');
      return entry({
        date,
        amount: kinds[type] === 1 ? Math.abs(size) : -Math.abs(size),
        account: cell('账户1') || '钱迹',
        currency: cell('币种') || null,
        note: cell('备注'),
        id: cell('ID') || null,
        category: transfer ? null : sub || cell('分类') || null,
        transferAccount: transfer ? cell('账户2') || null : null,
      });
    },
  },
];

/** 随手记's kinds of line: what is income, what an expense, what moves money between two accounts */
const SUI_KINDS: Record<string, 1 | -1 | 0> = {
  收入: 1,
  支出: -1,
  退款: 1,
  转账: 0,
  借入: 0,
  借出: 0,
  收债: 0,
  还债: 0,
  代付: 0,
  报销: 0,
};

/** A line of 随手记 (the app's CSV, the cloud's XLSX, the web's single-sheet XLS). */
function suiLine(cell: Cell, columns: { category: string; sub: string; account: string }): LineMeaning {
  const type = cell('交易类型');
  const half = type === '转出' ? 'out' : type === '转入' ? 'in' : null;
  // 余额变更 and 负债变更 set a balance: no payment
  if (!half && !(type in SUI_KINDS)) return null;
  const date = slashDate(cell('日期'));
  if (!date) return badDate(cell('日期'), 'YYYY-MM-DD HH:MM:SS');
  const size = hundredths(cell('金额').replace(/,/g, ''));
  if (size === null) return badAmount('金额', cell('金额'));
  const kind = half ? 0 : SUI_KINDS[type]!;
  const account = cell(columns.account);
  const base = entry({
    date,
    amount: kind === 1 || half === 'in' ? Math.abs(size) : -Math.abs(size),
    account,
    currency: cell('账户币种') || null,
    counterparty: cell('商家'),
    note: cell('备注'),
    category: kind === 0 ? null : cell(columns.sub) || cell(columns.category) || null,
    transferAccount: kind === 0 && !half ? cell('账户2') || null : null,
  });
  return half ? { ...base, half: { pair: cell('关联Id') || `${date}|${Math.abs(size)}`, side: half } } : base;
}

APPS.push(
  {
    id: 'sui_app',
    required: ['交易类型', '日期', '类别', '子类别', '账户', '金额'],
    line: (cell) => suiLine(cell, { category: '类别', sub: '子类别', account: '账户' }),
  },
  {
    id: 'sui_cloud',
    required: ['交易类型', '日期', '分类', '子分类', '账户1', '金额', '账户2'],
    line: (cell) => suiLine(cell, { category: '分类', sub: '子分类', account: '账户1' }),
  },
  {
    // the web's 导出 Excel: its sheets read as one table under one header (sui-web.ts)
    id: 'sui_web',
    required: ['交易类型', '日期', '一级分类', '二级分类', '账户', '账户2', '金额'],
    line: (cell) => suiLine(cell, { category: '一级分类', sub: '二级分类', account: '账户' }),
  },
);

/** Whether a format is an app's export. */
export const isAppFormat = (format: string) => APPS.some((a) => a.id === format);

/** The app whose export header this is, as a layout. */
export function appLayout({ columns, header }: HeaderCandidate): Layout | null {
  const app = APPS.find((a) => a.required.every((n) => columns.has(n)));
  return app ? { format: app.id, variant: 'app', columns, header, preset: null } : null;
}

/** Reads the lines of an app's export under its header. */
export async function readAppRows(
  records: AsyncGenerator<FileRecord>,
  layout: Layout,
  detected: Detected,
  opts: ReadOptions,
): Promise<BillOutcome> {
  const app = APPS.find((a) => a.id === layout.format)!;
  const out = new StatementRows(opts, detected);
  const index = new Map<string, number>();
  for (const [name, i] of layout.columns) index.set(headerKey(name), i);
  let cells: string[] = [];
  const cell: Cell = (name) => (cells[index.get(name) ?? -1] ?? '').trim();
  /** the first line of each two-line transfer, until its other line comes */
  const halves = new Map<string, Omit<StatementEntry, 'at'> & { half?: TransferHalf; at: number }>();
  let row = 0;
  for await (const rec of records) {
    cells = rec.cells;
    if (cells.every((c) => c.trim() === '')) continue;
    row++;
    const m = app.line(cell);
    if (m === null) continue;
    if (isProblem(m)) out.refuse(row, { ...m, message: `row ${row}: ${m.message}` });
    else if (!m.account) out.refuse(row, problem('missing_account', {}, `row ${row}: names no account`));
    else if (m.half) {
      const other = halves.get(m.half.pair);
      if (!other || other.half!.side === m.half.side) {
        halves.set(m.half.pair, { ...m, at: row });
        continue;
      }
      halves.delete(m.half.pair);
      const [from, to] = m.half.side === 'out' ? [m, other] : [other, m];
      const { half: _, ...fields } = from;
      await out.add({ ...fields, at: row, id: m.half.pair, transferAccount: to.account });
    } else await out.add({ ...m, at: row });
  }
  for (const h of halves.values())
    out.refuse(
      h.at,
      problem(
        'transfer_half',
        { account: h.account },
        `row ${h.at}: one side of a transfer of ${h.account} whose other side is not in the file`,
      ),
    );
  return out.finish();
}
