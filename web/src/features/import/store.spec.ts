import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { ApiError } from '../../api/client';
import { deferred } from '../../lib/deferred';
import type { Preview, PreviewRow } from './types';

const api = vi.hoisted(() => ({
  uploadBill: vi.fn(),
  billPage: vi.fn(),
  patchRows: vi.fn(),
  commitBill: vi.fn(),
  discardBill: vi.fn(),
  createRule: vi.fn(),
  importLedger: vi.fn(),
}));
const session = vi.hoisted(() => ({ categories: vi.fn(), invalidateLists: vi.fn() }));
const accounts = vi.hoisted(() => ({ loadAccounts: vi.fn(), invalidateAccounts: vi.fn() }));
vi.mock('./api', () => ({ importApi: api }));
vi.mock('../../stores/session', () => session);
vi.mock('../../stores/accounts', () => accounts);

import { useBillImportStore, useLedgerFilesStore } from './store';

const row = (n: number, over: Partial<PreviewRow> = {}) =>
  ({ row: n, kind: 'expense', counterparty: 'Shop', category_id: 3, decision: 'import', ...over }) as PreviewRow;
const preview = (page: number, ...rows: PreviewRow[]) =>
  ({ id: 9, rows, page, total: rows.length, summary: {} }) as unknown as Preview;
const refused = (body: Record<string, unknown>) => new ApiError(422, { code: 42203, ...body });
const file = (name = 'bill.csv') => ({ name }) as File;

describe('the bill import store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.resetAllMocks();
    accounts.loadAccounts.mockResolvedValue([]);
  });

  it('shows the first rows from the upload answer itself, without asking for them again', async () => {
    api.uploadBill.mockResolvedValueOnce(preview(1, row(1), row(2)));
    const store = useBillImportStore();
    await store.send(file());
    expect(api.billPage).not.toHaveBeenCalled();
    expect(store.step).toBe('preview');
    expect([store.rowAt(0)?.row, store.rowAt(1)?.row, store.rowAt(2)]).toEqual([1, 2, undefined]);
    expect(store.busy).toBe(false);
  });

  it('asks for a column mapping when the layout is unknown, and says why otherwise', async () => {
    const store = useBillImportStore();
    api.uploadBill.mockRejectedValueOnce(
      refused({ recognised: { container: 'csv', header: ['日期', '金额'] }, errors: [] }),
    );
    await store.send(file());
    expect(store.step).toBe('mapping');
    expect(store.header).toEqual(['日期', '金额']);
    expect(store.failure).toMatchObject({ kind: 'unknownFormat' });

    store.restart();
    api.uploadBill.mockRejectedValueOnce(refused({ errors: [{ row: 0, message: 'xls', code: 'save_as_xlsx' }] }));
    await store.send(file('old.xls'));
    expect(store.failure).toEqual({ kind: 'saveAsXlsx' });
    expect(store.step).toBe('file');

    api.uploadBill.mockRejectedValueOnce(refused({ errors: [{ row: 4, message: 'bad', code: 'bad_date' }] }));
    await store.send(file());
    expect(store.failure).toEqual({ kind: 'badRows', rows: [{ row: 4, message: 'bad', code: 'bad_date' }] });

    api.uploadBill.mockRejectedValueOnce(new ApiError(413, { code: 41301 }));
    await store.send(file());
    expect(store.failure).toEqual({ kind: 'tooLarge' });
  });

  it('reads the rows the list comes to, page by page, and after a change the rows in view again', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(i + 1));
    api.uploadBill.mockResolvedValueOnce({ ...preview(1, ...rows), total: 250 });
    const store = useBillImportStore();
    await store.send(file());

    api.billPage.mockResolvedValueOnce({ ...preview(2, row(101), row(102)), total: 250 });
    await store.showRows(95, 110);
    expect(api.billPage).toHaveBeenCalledExactlyOnceWith(9, 2, 100);
    expect(store.rowAt(100)?.row).toBe(101);
    await store.showRows(95, 110);
    expect(api.billPage).toHaveBeenCalledOnce();

    // a read started before a change answers about the rows as they were: dropped
    const slow = deferred<Preview>();
    api.billPage.mockReturnValueOnce(slow.promise);
    const stale = store.showRows(200, 210);
    api.billPage
      .mockResolvedValueOnce({ ...preview(3, row(201, { category_id: 5 })), total: 250 })
      .mockResolvedValueOnce({ ...preview(1, row(1, { category_id: 5 })), total: 250 });
    await store.editRow(store.rowAt(0)!, 'category_id', 5);
    expect(store.corrected.has(1)).toBe(true);
    slow.resolve({ ...preview(3, row(201)), total: 250 });
    await stale;
    expect(store.rowAt(200)?.category_id).toBe(5);

    // a refused change reads the rows in view again too
    api.patchRows.mockRejectedValueOnce(new Error('refused'));
    api.billPage.mockResolvedValueOnce({ ...preview(3, row(201)), total: 250 });
    await expect(store.editRow(store.rowAt(200)!, 'decision', 'skip')).rejects.toThrow('refused');
    expect(api.billPage).toHaveBeenCalledTimes(4);
  });

  it('applies a change to the selected rows or to every row, and decides the rows nobody placed', async () => {
    api.uploadBill.mockResolvedValueOnce({ ...preview(1, row(1), row(2)), total: 5000 });
    api.billPage.mockResolvedValue({ ...preview(1, row(1), row(2)), total: 5000 });
    const store = useBillImportStore();
    await store.send(file());
    expect(await store.applyBulk({ decision: 'skip' })).toBe(0);
    store.toggle(2);
    expect(await store.applyBulk({})).toBe(0);
    expect(await store.applyBulk({ decision: 'skip' })).toBe(1);
    expect(api.patchRows).toHaveBeenLastCalledWith(9, { bulk: { rows: [2], set: { decision: 'skip' } } });
    expect(store.selectedCount).toBe(0);

    store.toggleAll();
    expect([store.allSelected, store.selectedCount, store.isSelected(4321)]).toEqual([true, 5000, true]);
    expect(await store.applyBulk({ account_id: 7 })).toBe(5000);
    expect(api.patchRows).toHaveBeenLastCalledWith(9, { bulk: { all: true, set: { account_id: 7 } } });
    expect(store.allSelected).toBe(false);

    await store.decideOpen({ category_id: 3 });
    expect(api.patchRows).toHaveBeenLastCalledWith(9, { bulk: { undecided: 'category', set: { category_id: 3 } } });
  });

  it('commits, then has the lists and accounts read afresh; refused rows are shown', async () => {
    api.uploadBill.mockResolvedValue(preview(1, row(1)));
    const store = useBillImportStore();
    await store.send(file());
    api.commitBill.mockRejectedValueOnce(refused({ errors: [{ row: 1, message: 'no account' }] }));
    await store.commit();
    expect(store.failure).toEqual({ kind: 'commitRefused', rows: [{ row: 1, message: 'no account' }] });
    expect(store.step).toBe('preview');

    api.commitBill.mockResolvedValueOnce({ imported: 1, skipped: 0, transfers: 0, refunds: 0 });
    await store.commit();
    expect(store.step).toBe('done');
    expect(session.invalidateLists).toHaveBeenCalled();
    expect(accounts.invalidateAccounts).toHaveBeenCalled();
    expect(accounts.loadAccounts).toHaveBeenCalledWith(true);
  });
});

describe('the store of our own files', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.resetAllMocks();
  });

  it('refuses other files before sending them', async () => {
    const store = useLedgerFilesStore();
    await expect(store.importFile(undefined, true)).rejects.toMatchObject({ key: 'errors.chooseFile' });
    await expect(store.importFile(file('bill.xlsx'), true)).rejects.toMatchObject({ key: 'errors.importType' });
    expect(api.importLedger).not.toHaveBeenCalled();
  });

  it('answers invalid rows as rows, and refreshes the lists after a real import', async () => {
    const store = useLedgerFilesStore();
    api.importLedger.mockRejectedValueOnce(refused({ errors: [{ row: 2 }, { row: 7 }] }));
    expect(await store.importFile(file('x.csv'), false)).toEqual({
      dryRun: false,
      imported: 0,
      skipped: 0,
      invalidRows: [2, 7],
    });
    expect(session.invalidateLists).not.toHaveBeenCalled();
    api.importLedger.mockResolvedValueOnce({ imported: 3, skipped: 1, errors: [] });
    expect(await store.importFile(file('x.json'), true)).toMatchObject({ dryRun: true, imported: 3, invalidRows: [] });
    expect(session.invalidateLists).not.toHaveBeenCalled();
    api.importLedger.mockResolvedValueOnce({ imported: 3, skipped: 1, errors: [] });
    await store.importFile(file('x.json'), false);
    expect(session.invalidateLists).toHaveBeenCalledOnce();
  });
});
