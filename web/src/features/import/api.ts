// Importing through the typed client: a bill (upload, its preview page by page, corrections,
// commit or discard), the import rules and saved column mappings, and our own CSV/JSON files
// (export and import).
import { client, ok, upload, idempotencyKey } from '../../api/client';
import type { ImportResult } from '../../api/types';
import type { CommitResult, DateOrder, ImportRule, Mapping, Preset, Preview } from './types';

export type Decision = 'import' | 'skip' | 'transfer';
export interface RowChange {
  row: number;
  decision?: Decision;
  account_id?: number;
  to_account_id?: number;
  category_id?: number;
  force?: boolean;
}
export interface BulkSet {
  decision?: Decision;
  account_id?: number;
  category_id?: number;
}
/** what a name the file gives (a category of a kind, an account) maps to: one of the person's, or one created */
export interface NameMappings {
  categories?: { name: string; kind: 'expense' | 'income'; category_id?: number; create?: true }[];
  accounts?: { method: string; account_id?: number; create?: true }[];
}
export interface RowsPatch {
  rows?: RowChange[];
  /** rows: these rows; all: every row; undecided: the rows still without a category (of the category's kind) */
  bulk?: { rows?: number[]; all?: true; undecided?: 'category'; method?: string; set: BulkSet };
  mappings?: NameMappings;
}
export type RuleInput = Pick<ImportRule, 'field' | 'match' | 'value' | 'category_id'> & { kind: 'expense' | 'income' };
export interface PresetInput {
  name: string;
  header: string[];
  mapping: Mapping;
  account_id: number | null;
}
export interface ExportRequest {
  startDate: string;
  endDate: string;
  type: 'all' | 'expense' | 'income';
  format: 'csv' | 'json';
}

const fileForm = (file: File, extra: Record<string, string> = {}) => {
  const form = new FormData();
  // fields before the file: the server reads the fields that came before the file part with it
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  form.append('file', file);
  return form;
};

export const importApi = {
  uploadBill: (file: File, presetId?: number, dateOrder?: DateOrder) =>
    upload<Preview>(
      '/api/import/bills',
      fileForm(file, {
        ...(presetId ? { preset_id: String(presetId) } : {}),
        ...(dateOrder ? { date_order: dateOrder } : {}),
      }),
    ),
  billPage: (id: number, page: number, pageSize: number): Promise<Preview> =>
    ok(client.GET('/api/import/bills/{id}', { params: { path: { id }, query: { page, pageSize } } })),
  patchRows: (id: number, body: RowsPatch) =>
    ok(client.PATCH('/api/import/bills/{id}/rows', { params: { path: { id } }, body })),
  commitBill: (id: number): Promise<CommitResult> =>
    ok(client.POST('/api/import/bills/{id}/commit', { params: { path: { id } } })),
  /** forgets a preview; a failure changes nothing the person sees */
  discardBill: (id: number) =>
    client.DELETE('/api/import/bills/{id}', { params: { path: { id } } }).then(
      () => undefined,
      () => undefined,
    ),

  presets: (): Promise<Preset[]> => ok(client.GET('/api/import/presets')).then((r) => r.list),
  createPreset: (body: PresetInput): Promise<Preset> => ok(client.POST('/api/import/presets', { body })),
  deletePreset: (id: number) => ok(client.DELETE('/api/import/presets/{id}', { params: { path: { id } } })),

  rules: (): Promise<ImportRule[]> => ok(client.GET('/api/import-rules')).then((r) => r.list),
  createRule: (body: RuleInput) => ok(client.POST('/api/import-rules', { body })),
  updateRule: (id: number, body: RuleInput) =>
    ok(client.PUT('/api/import-rules/{id}', { params: { path: { id } }, body })),
  deleteRule: (id: number) => ok(client.DELETE('/api/import-rules/{id}', { params: { path: { id } } })),
  reorderRules: (ids: number[]): Promise<ImportRule[]> =>
    ok(client.PUT('/api/import-rules/order', { body: { ids } })).then((r) => r.list),

  prepareExport: (body: ExportRequest) => ok(client.POST('/api/export/prepare', { body })),
  /** our own CSV or JSON file; a dry run checks it and writes nothing */
  importLedger: (file: File, dryRun: boolean) =>
    upload<ImportResult>(
      `/api/import${dryRun ? '?dry_run=true' : ''}`,
      fileForm(file),
      dryRun ? {} : { 'Idempotency-Key': idempotencyKey() },
    ),
};
