import { requireLiveGroupOwner } from '../books/index.ts';
import { parseMinor, requireCurrency } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';
import type { GroupSettingsBody } from './splits.schemas.ts';
import type { SplitsDeps } from './splits.shares.ts';

/** Owner settings: name, currency (only before anything is recorded), splitting costs, notification threshold. */
export async function updateGroupSettings(
  { db, repo }: SplitsDeps,
  userId: number,
  groupId: number,
  body: GroupSettingsBody,
): Promise<void> {
  await requireLiveGroupOwner(db, groupId, userId);
  const patch: { name?: string; currency?: string; notifyThreshold?: number | null; splitCosts?: boolean } = {};
  if (body.name !== undefined) patch.name = cleanText(body.name, 'name', 1, 30);
  // applies to records from now on: older records keep the shares they have, or have none
  if (body.split_costs !== undefined) patch.splitCosts = body.split_costs;
  await db.transaction(async (tx) => {
    const group = await repo.lockGroup(tx, groupId);
    if (!group) throw Errors.groupForbidden();
    if (body.currency !== undefined) {
      const next = requireCurrency(body.currency).code;
      if (next !== group.currency && (await repo.hasRecords(tx, groupId)))
        throw Errors.rule('the currency of a group cannot change once it has records or settlements');
      patch.currency = next;
    }
    if (body.notify_threshold !== undefined) {
      patch.notifyThreshold =
        body.notify_threshold === null
          ? null
          : parseMinor(body.notify_threshold, requireCurrency(patch.currency ?? group.currency), 'notify_threshold', {
              allowZero: true,
            });
    }
    if (Object.keys(patch).length) await repo.updateGroupSettings(tx, groupId, patch);
  });
}
