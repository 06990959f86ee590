// Shapes of the bill import, taken from the generated OpenAPI types.
import type { components } from '../../api/schema';

export type Preview = components['schemas']['ImportPreview'];
export type PreviewRow = components['schemas']['ImportPreviewRow'];
export type PreviewSummary = components['schemas']['ImportPreviewSummary'];
export type CommitResult = components['schemas']['ImportCommitResult'];
export type ImportRule = components['schemas']['ImportRule'];
export type Mapping = components['schemas']['ImportColumnMapping'];
export type Preset = components['schemas']['ImportPreset'];
/** the order of day and month a QIF file's dates are read in */
export type DateOrder = 'mdy' | 'dmy';

export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'YYYY.MM.DD',
  'YYYYMMDD',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'MM-DD-YYYY',
  'DD.MM.YYYY',
  'DD-MM-YYYY',
] as const satisfies readonly Mapping['date_format'][];
export const RULE_FIELDS = ['counterparty', 'note', 'method', 'any'] as const satisfies readonly ImportRule['field'][];
export const RULE_MATCHES = ['contains', 'equals', 'starts_with'] as const satisfies readonly ImportRule['match'][];

/** What the server recognised in a file of no known layout (the 42203 answer). */
export interface Recognised {
  container?: string;
  encoding?: string | null;
  header?: string[];
  header_line?: number | null;
  lines_read?: number;
}
