import type { UseCaseArgs } from '../service.ts';
import { commitBill } from './bills.commit.ts';
import type { BillDeps } from './bills.deps.ts';
import { previewBill } from './bills.preview.ts';
import { discardPreview, getPreview, patchPreview, purgeExpiredPreviews } from './bills.review.ts';
import {
  createPreset,
  createRule,
  deletePreset,
  deleteRule,
  listPresets,
  listRules,
  orderRules,
  updatePreset,
  updateRule,
} from './bills.settings.ts';

export { PREVIEW_ROWS } from './bills.deps.ts';

/**
 * Importing a bill, one named use case each: read it into a preview (bills.preview.ts), review and
 * edit the preview (bills.review.ts), commit it to the books (bills.commit.ts), and the rules and
 * column mappings kept between bills (bills.settings.ts).
 */
export function createBillImportService(deps: BillDeps) {
  return {
    preview: (...a: UseCaseArgs<typeof previewBill>) => previewBill(deps, ...a),
    get: (...a: UseCaseArgs<typeof getPreview>) => getPreview(deps, ...a),
    patch: (...a: UseCaseArgs<typeof patchPreview>) => patchPreview(deps, ...a),
    commit: (...a: UseCaseArgs<typeof commitBill>) => commitBill(deps, ...a),
    discard: (...a: UseCaseArgs<typeof discardPreview>) => discardPreview(deps, ...a),
    listRules: (...a: UseCaseArgs<typeof listRules>) => listRules(deps, ...a),
    createRule: (...a: UseCaseArgs<typeof createRule>) => createRule(deps, ...a),
    updateRule: (...a: UseCaseArgs<typeof updateRule>) => updateRule(deps, ...a),
    deleteRule: (...a: UseCaseArgs<typeof deleteRule>) => deleteRule(deps, ...a),
    orderRules: (...a: UseCaseArgs<typeof orderRules>) => orderRules(deps, ...a),
    listPresets: (...a: UseCaseArgs<typeof listPresets>) => listPresets(deps, ...a),
    createPreset: (...a: UseCaseArgs<typeof createPreset>) => createPreset(deps, ...a),
    updatePreset: (...a: UseCaseArgs<typeof updatePreset>) => updatePreset(deps, ...a),
    deletePreset: (...a: UseCaseArgs<typeof deletePreset>) => deletePreset(deps, ...a),
    purgeExpired: () => purgeExpiredPreviews(deps),
  };
}

export type BillImportService = ReturnType<typeof createBillImportService>;
