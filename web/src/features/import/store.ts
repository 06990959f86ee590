// The bill import session: the file, what the service made of it (a preview, a layout it does not
// know, or refused rows), the corrections, the commit and its result. The steps' components read
// and change it here; none calls the API. The preview's rows are read page by page where the list
// is looked at; an answer about rows that changed since it was asked for is dropped.
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, triggerRef } from 'vue';
import { ApiError, ClientError } from '../../api/client';
import type { Category } from '../../api/types';
import { categories as loadCategories, invalidateLists } from '../../stores/session';
import { invalidateAccounts, loadAccounts } from '../../stores/accounts';
import { createLoader } from '../../lib/loader';
import { forgetLoader } from '../../lib/pager';
import { onSessionEnd } from '../../lib/session-end';
import { safeLink } from '../../lib/links';
import {
  importApi,
  type BulkSet,
  type Decision,
  type ExportRequest,
  type PresetInput,
  type RowsPatch,
  type RuleInput,
} from './api';
import type { CommitResult, DateOrder, ImportRule, Preset, Preview, PreviewRow, Recognised } from './types';

/** rows read at once as the list scrolls (the most the service answers per page) */
export const PREVIEW_PAGE_SIZE = 100;
/** refused rows shown at the most */
const SHOWN_PROBLEMS = 100;

export type Step = 'file' | 'mapping' | 'preview' | 'done';
export interface RowProblem {
  row: number;
  message: string;
  code?: string;
  params?: Record<string, string>;
}
/** Why a file or a commit was refused, for the screen to put in words. */
export type Failure =
  | { kind: 'saveAsXlsx' | 'tooLarge' }
  | { kind: 'unknownFormat'; recognised: Recognised }
  | { kind: 'badRows' | 'commitRefused'; rows: RowProblem[] }
  | { kind: 'error'; error: unknown };

function problems(err: ApiError): RowProblem[] {
  return ((err.body.errors as RowProblem[] | undefined) ?? []).slice(0, SHOWN_PROBLEMS);
}

export const useBillImportStore = defineStore('bill-import', () => {
  const step = ref<Step>('file');
  const busy = ref(false);
  const chosen = ref<File | null>(null);
  const failure = ref<Failure | null>(null);
  /** the columns of a file of no known layout, to be mapped */
  const header = ref<string[]>([]);
  const preview = ref<Preview | null>(null);
  /**
   * The rows read so far, by page of PREVIEW_PAGE_SIZE (0-based): a bill of thousands of rows is read
   * only where the list is looked at. Cleared when rows change, then the pages in view are read again.
   */
  const pages = shallowRef(new Map<number, PreviewRow[]>());
  /** the pages being read, and the generation of the rows they belong to (a read of older rows is dropped) */
  const reading = new Set<number>();
  let generation = 0;
  /** the rows last asked for by the list: [first, end) */
  let inView: [number, number] = [0, PREVIEW_PAGE_SIZE];
  /** the failure of the last read of preview rows (the rows shown stay) */
  const pageError = ref<unknown>(null);
  const result = ref<CommitResult | null>(null);
  const cats = ref<Category[]>([]);
  const selected = ref<Set<number>>(new Set());
  /** rows whose category the person corrected: offered as a rule */
  const corrected = ref<Set<number>>(new Set());
  /** rows whose correction became a rule */
  const ruled = ref<Set<number>>(new Set());
  onSessionEnd(() => {
    restart();
    header.value = [];
    cats.value = [];
  });

  /** every row of the bill selected at once, without reading them all */
  const everySelected = ref(false);
  const total = computed(() => preview.value?.total ?? 0);
  /** the rows read so far, in order (the list shows them by index through rowAt) */
  const rows = computed<PreviewRow[]>(() =>
    [...pages.value.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, list]) => list),
  );
  const summary = computed(() => preview.value?.summary ?? null);
  const selectedCount = computed(() => (everySelected.value ? total.value : selected.value.size));
  const allSelected = computed(() => total.value > 0 && selectedCount.value === total.value);
  /** the categories that fit every kind among the selected rows */
  const bulkCats = computed(() => {
    if (everySelected.value) return cats.value;
    const kinds = new Set(rows.value.filter((r) => selected.value.has(r.row)).map((r) => r.kind));
    return cats.value.filter((c) => kinds.has(c.kind));
  });

  /** The row at this index of the bill (0-based), or undefined while its page is being read. */
  const rowAt = (i: number): PreviewRow | undefined =>
    pages.value.get(Math.floor(i / PREVIEW_PAGE_SIZE))?.[i % PREVIEW_PAGE_SIZE];

  /** What the pickers offer: the categories and the accounts. */
  async function prepare(): Promise<void> {
    cats.value = await loadCategories();
    await loadAccounts();
  }

  function restart(): void {
    step.value = 'file';
    preview.value = null;
    clearRows();
    result.value = null;
    failure.value = null;
    chosen.value = null;
    pageError.value = null;
  }

  function clearRows(): void {
    generation++;
    reading.clear();
    pages.value = new Map();
  }

  /** Keeps the rows of an answer (the upload's first rows, or a page) under their pages. */
  function keepRows(offset: number, list: PreviewRow[]): void {
    const map = pages.value;
    for (let i = 0; i < list.length; i += PREVIEW_PAGE_SIZE)
      map.set(Math.floor((offset + i) / PREVIEW_PAGE_SIZE), list.slice(i, i + PREVIEW_PAGE_SIZE));
    triggerRef(pages);
  }

  /** Reads one page (0-based) of the rows; an answer about rows changed since is dropped. Rejects when it fails. */
  async function readPage(n: number): Promise<void> {
    const p = preview.value;
    if (!p || reading.has(n)) return;
    const mine = generation;
    reading.add(n);
    try {
      const res = await importApi.billPage(p.id, n + 1, PREVIEW_PAGE_SIZE);
      if (mine !== generation) return;
      preview.value = { ...res, rows: [] };
      keepRows(n * PREVIEW_PAGE_SIZE, res.rows);
      pageError.value = null;
    } finally {
      if (mine === generation) reading.delete(n);
    }
  }

  /** The list shows rows [first, end): the pages they are on are read when not read yet. */
  async function showRows(first: number, end: number): Promise<void> {
    inView = [first, end];
    const last = Math.min(end, total.value) - 1;
    const wanted: Promise<void>[] = [];
    for (let n = Math.floor(Math.max(first, 0) / PREVIEW_PAGE_SIZE); n * PREVIEW_PAGE_SIZE <= last; n++)
      if (!pages.value.has(n)) wanted.push(readPage(n));
    await Promise.all(wanted).catch((err: unknown) => {
      pageError.value = err;
    });
  }

  /** After a change: the rows read before are dropped and those in view read again. */
  async function reloadRows(): Promise<void> {
    const p = preview.value;
    if (!p) return;
    const mine = ++generation;
    reading.clear();
    const [first, end] = inView;
    const wanted: number[] = [];
    for (let n = Math.floor(first / PREVIEW_PAGE_SIZE); n * PREVIEW_PAGE_SIZE < Math.max(end, 1); n++) wanted.push(n);
    // the old rows stay on screen until the new ones are in
    const answers = await Promise.all(wanted.map((n) => importApi.billPage(p.id, n + 1, PREVIEW_PAGE_SIZE)));
    if (mine !== generation) return;
    if (answers[0]) preview.value = { ...answers[0], rows: [] };
    pages.value = new Map(answers.map((res, i) => [wanted[i]!, res.rows]));
    pageError.value = null;
  }

  /** Sends the file (with a saved column mapping, when one was just made) and shows the preview or why not. */
  async function send(file: File, presetId?: number, dateOrder?: DateOrder): Promise<void> {
    chosen.value = file;
    failure.value = null;
    busy.value = true;
    try {
      const answer = await importApi.uploadBill(file, presetId, dateOrder);
      clearRows();
      // the upload's answer brings the first rows: the list shows them without asking again
      preview.value = { ...answer, rows: [] };
      keepRows(0, answer.rows);
      selected.value = new Set();
      everySelected.value = false;
      corrected.value = new Set();
      ruled.value = new Set();
      inView = [0, PREVIEW_PAGE_SIZE];
      step.value = 'preview';
    } catch (err) {
      failure.value = refusal(err);
    } finally {
      busy.value = false;
    }
  }

  function refusal(err: unknown): Failure {
    if (err instanceof ApiError && err.code === 41301) return { kind: 'tooLarge' };
    if (!(err instanceof ApiError && err.code === 42203)) return { kind: 'error', error: err };
    const recognised = (err.body.recognised as Recognised | undefined) ?? null;
    const bad = problems(err);
    if (bad[0]?.code === 'save_as_xlsx') return { kind: 'saveAsXlsx' };
    if (recognised && (recognised.header?.length ?? 0) > 0 && !bad.length) {
      header.value = recognised.header ?? [];
      step.value = 'mapping';
    }
    if (recognised) return { kind: 'unknownFormat', recognised };
    return { kind: 'badRows', rows: bad };
  }

  /** Saves a column mapping for the chosen file's layout. */
  const savePreset = (input: PresetInput): Promise<Preset> => importApi.createPreset(input);

  /** Sends a change of rows, then reads the rows in view again, whether the change was taken or refused. */
  async function patch(body: RowsPatch): Promise<void> {
    const p = preview.value;
    if (!p) return;
    try {
      await importApi.patchRows(p.id, body);
    } finally {
      await reloadRows().catch((err: unknown) => {
        pageError.value = err;
      });
    }
  }

  /** Imports a row that looked like a duplicate, because the person says it is not one. */
  const forceRow = (r: PreviewRow) =>
    patch({ rows: [{ row: r.row, decision: r.kind === 'transfer' ? 'transfer' : 'import', force: true }] });

  async function editRow(
    r: PreviewRow,
    field: 'decision' | 'account_id' | 'to_account_id' | 'category_id',
    value: Decision | number,
  ): Promise<void> {
    await patch({ rows: [{ row: r.row, [field]: value }] });
    if (field === 'category_id' && r.counterparty) corrected.value = new Set(corrected.value).add(r.row);
  }

  /** Applies the choices to the selected rows; the number of rows changed (0: nothing to do). */
  async function applyBulk(set: BulkSet): Promise<number> {
    const n = selectedCount.value;
    if (!n || !Object.keys(set).length) return 0;
    await patch({ bulk: everySelected.value ? { all: true, set } : { rows: [...selected.value], set } });
    selected.value = new Set();
    everySelected.value = false;
    return n;
  }

  /** Gives every row still to decide (no category) of the category's kind this category, or skips them all. */
  const decideOpen = (set: { category_id: number } | { decision: 'skip' }) =>
    patch({ bulk: { undecided: 'category', set } });

  /**
   * Books every row of a payment method (an account the file names) in this account (remembered for the next
   * bills), or in one created on commit (`create`).
   */
  const mapMethod = (method: string, accountId: number | 'create') =>
    patch({
      mappings: { accounts: [accountId === 'create' ? { method, create: true } : { method, account_id: accountId }] },
    });

  /** Gives every row of a category the file names this category of the person's, or one created on commit. */
  const mapCategory = (name: string, kind: 'expense' | 'income', categoryId: number | 'create') =>
    patch({
      mappings: {
        categories: [categoryId === 'create' ? { name, kind, create: true } : { name, kind, category_id: categoryId }],
      },
    });

  function toggle(row: number): void {
    if (everySelected.value) {
      // from "every row" to every row but this one: the rows read so far are the ones a person can see
      everySelected.value = false;
      selected.value = new Set(rows.value.map((r) => r.row).filter((n) => n !== row));
      return;
    }
    const s = new Set(selected.value);
    if (s.has(row)) s.delete(row);
    else s.add(row);
    selected.value = s;
  }
  const isSelected = (row: number) => everySelected.value || selected.value.has(row);
  function toggleAll(): void {
    const on = !allSelected.value;
    everySelected.value = on;
    selected.value = new Set();
  }

  /** Makes a row's corrected category a rule for its counterparty. False when the row cannot have one. */
  async function makeRule(r: PreviewRow): Promise<boolean> {
    if (!r.category_id || r.kind === 'transfer') return false;
    await importApi.createRule({
      field: 'counterparty',
      match: 'contains',
      value: r.counterparty.slice(0, 100),
      kind: r.kind as 'expense' | 'income',
      category_id: r.category_id,
    });
    ruled.value = new Set(ruled.value).add(r.row);
    return true;
  }

  async function commit(): Promise<void> {
    const p = preview.value;
    if (!p) return;
    busy.value = true;
    failure.value = null;
    try {
      result.value = await importApi.commitBill(p.id);
      invalidateLists();
      invalidateAccounts();
      step.value = 'done';
      // balances changed: the pickers of the next bill read the accounts afresh
      await loadAccounts(true).catch(() => undefined);
    } catch (err) {
      failure.value =
        err instanceof ApiError && err.code === 42203
          ? { kind: 'commitRefused', rows: problems(err) }
          : { kind: 'error', error: err };
    } finally {
      busy.value = false;
    }
  }

  async function discard(): Promise<void> {
    const p = preview.value;
    if (p) await importApi.discardBill(p.id);
    restart();
  }

  return {
    step,
    busy,
    chosen,
    failure,
    header,
    preview,
    pageError,
    result,
    cats,
    selected,
    corrected,
    ruled,
    rows,
    total,
    summary,
    selectedCount,
    allSelected,
    bulkCats,
    rowAt,
    isSelected,
    prepare,
    restart,
    send,
    savePreset,
    showRows,
    patch,
    decideOpen,
    forceRow,
    editRow,
    applyBulk,
    mapMethod,
    mapCategory,
    toggle,
    toggleAll,
    makeRule,
    commit,
    discard,
  };
});

/** The import rules in the order they are tried (the first match wins), and the saved column mappings. */
export const useImportRulesStore = defineStore('import-rules', () => {
  const rules = createLoader<ImportRule[]>(() => importApi.rules(), []);
  const presets = createLoader<Preset[]>(() => importApi.presets(), []);
  const cats = ref<Category[]>([]);
  onSessionEnd(() => {
    forgetLoader(rules, []);
    forgetLoader(presets, []);
    cats.value = [];
  });

  async function load(): Promise<void> {
    cats.value = await loadCategories();
    await Promise.all([rules.load(), presets.load()]);
  }

  /** Adds a rule, or changes the one with this id, then reads the rules again. */
  async function save(input: RuleInput, id?: number): Promise<void> {
    if (id) await importApi.updateRule(id, input);
    else await importApi.createRule(input);
    await rules.load();
  }

  async function remove(id: number): Promise<void> {
    await importApi.deleteRule(id);
    await rules.load();
  }

  /** Moves the rule at index by one place up (-1) or down (1); the answer is the new order. */
  async function move(index: number, by: -1 | 1): Promise<void> {
    const ids = rules.data.value.map((r) => r.id);
    const to = index + by;
    if (to < 0 || to >= ids.length) return;
    [ids[index], ids[to]] = [ids[to]!, ids[index]!];
    rules.data.value = await importApi.reorderRules(ids);
  }

  async function removePreset(id: number): Promise<void> {
    await importApi.deletePreset(id);
    await presets.load();
  }

  return {
    rules: rules.data,
    presets: presets.data,
    cats,
    loaded: rules.loaded,
    error: rules.error,
    presetsError: presets.error,
    load,
    save,
    remove,
    move,
    removePreset,
  };
});

/** What an import of our own file gave: rows checked or written, and the invalid ones. */
export interface LedgerImport {
  dryRun: boolean;
  imported: number;
  skipped: number;
  invalidRows: number[];
}

/** Our own files: preparing an export, and importing (or checking) a CSV or JSON file written by it. */
export const useLedgerFilesStore = defineStore('ledger-files', () => {
  const last = ref<LedgerImport | null>(null);
  onSessionEnd(() => {
    last.value = null;
  });

  /** the address the export can be downloaded from, for this caller only */
  async function exportUrl(request: ExportRequest): Promise<string> {
    const res = await importApi.prepareExport(request);
    const url = safeLink(res.downloadUrl);
    if (!url) throw new ClientError('errors.unknown', { status: 0 });
    return url;
  }

  /** Imports (or with dryRun only checks) a file; invalid rows are an answer, not a failure. */
  async function importFile(file: File | null | undefined, dryRun: boolean): Promise<LedgerImport> {
    last.value = null;
    if (!file) throw new ClientError('errors.chooseFile');
    // only the two formats the export writes; anything else is refused here, before any upload
    if (!/\.(csv|json)$/i.test(file.name)) throw new ClientError('errors.importType');
    let answer: LedgerImport;
    try {
      const res = await importApi.importLedger(file, dryRun);
      answer = { dryRun, imported: res.imported, skipped: res.skipped, invalidRows: res.errors.map((e) => e.row) };
      // new categories may have come with the rows
      if (!dryRun) invalidateLists();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 42203)) throw err;
      answer = {
        dryRun,
        imported: 0,
        skipped: 0,
        invalidRows: ((err.body.errors as { row: number }[] | undefined) ?? []).map((e) => e.row),
      };
    }
    last.value = answer;
    return answer;
  }

  return { last, exportUrl, importFile };
});
