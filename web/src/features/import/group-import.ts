// A group's history from Splitwise or Spliit: the preview of what the import would do, and the
// import itself (all or nothing). The file is sent as its text.
import { ApiError, client, ok } from '../../api/client';
import type { components } from '../../api/schema';
import { fetchMembers } from '../groups';

export type GroupImportBody = components['schemas']['GroupImportBody'];
export type GroupImportPreview = components['schemas']['GroupImportPreview'];
export type GroupImportResult = components['schemas']['GroupImportResult'];
export type GroupImportProblem = components['schemas']['GroupImportProblem'];

/** the files the group import reads */
export const GROUP_IMPORT_ACCEPT = '.csv,.json,text/csv,application/json';

export function previewGroupImport(body: GroupImportBody): Promise<GroupImportPreview> {
  return ok(client.POST('/api/groups/import/preview', { body }));
}

export function commitGroupImport(body: GroupImportBody): Promise<GroupImportResult> {
  return ok(client.POST('/api/groups/import', { body }));
}

/** The refused rows of a 42203 answer, or null when the error is another one. */
export function refusedRows(err: unknown): GroupImportProblem[] | null {
  if (!(err instanceof ApiError) || err.code !== 42203 || !Array.isArray(err.body.errors)) return null;
  return (err.body.errors as Partial<GroupImportProblem>[]).map((e) => ({
    row: e.row ?? 0,
    code: e.code ?? '',
    params: e.params ?? {},
    message: e.message ?? '',
  }));
}

/** Problems that a choice of currency answers. */
export const CURRENCY_PROBLEMS = new Set(['group_currencies', 'group_no_currency']);

/** the members of a group the file's people may be matched to */
export async function matchableMembers(groupId: number): Promise<{ user_id: number; nickname: string }[]> {
  return (await fetchMembers(groupId)).map((m) => ({ user_id: m.user_id, nickname: m.nickname }));
}
