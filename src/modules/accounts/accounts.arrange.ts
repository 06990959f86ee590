// Arranging the accounts: deleting an unused one, merging one into another, and their order.
import { notYours } from '../../lib/access.ts';
import { Errors } from '../../lib/errors.ts';
import { write } from '../books/index.ts';
import { countRulesOfAccount, moveRulesToAccount } from '../recurring/index.ts';
import { viewOf, type AccountDeps } from './accounts.deps.ts';

/** Deletes an account with no rows and no recurring rules that is not the default (42201 otherwise). */
export async function removeAccount({ db, repo }: AccountDeps, userId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await repo.lockOwner(tx, userId);
    const cur = await repo.lockAccount(tx, userId, id);
    if (!cur) throw Errors.notFound('account');
    if (cur.isDefault)
      throw Errors.rule('the default account cannot be deleted: make another account the default first');
    if ((await repo.countRows(tx, id)) > 0)
      throw Errors.rule(
        'the account has transactions: archive it, or merge it into another account of the same currency',
      );
    if ((await countRulesOfAccount(tx, userId, id)) > 0)
      throw Errors.rule(
        'recurring rules book into or out of this account: move them to another account or delete them first',
      );
    await repo.deleteAccount(tx, userId, id);
  });
}

/** Puts the accounts in the order given; the list must name each of the owner's accounts once. */
export async function sortAccounts({ db, repo }: AccountDeps, userId: number, ids: number[]): Promise<void> {
  if (new Set(ids).size !== ids.length) throw Errors.field('ids', 'must not repeat an id');
  await db.transaction(async (tx) => {
    await repo.lockOwner(tx, userId);
    const all = await repo.idsOf(tx, userId);
    const owned = new Set(all);
    if (!ids.every((i) => owned.has(i))) throw notYours.account('ids');
    if (ids.length !== all.length) throw Errors.field('ids', `must list all ${all.length} of your accounts`);
    await repo.applySort(tx, userId, ids);
  });
}

/**
 * Moves every row of account `id` into `targetId` (same currency, else 42201) and deletes `id`, in
 * one transaction: balances add up (opening balances too, opened at the earlier date); transfers
 * between the two are removed; a merged default account hands the default to the target.
 */
export async function mergeAccounts(deps: AccountDeps, userId: number, id: number, targetId: number) {
  const { db, repo, clock } = deps;
  const out = await db.transaction(async (tx) => {
    await repo.lockOwner(tx, userId);
    const source = await repo.lockAccount(tx, userId, id);
    if (!source) throw Errors.notFound('account');
    if (targetId === id) throw Errors.field('target_id', 'must be another account');
    const target = await repo.lockAccount(tx, userId, targetId);
    if (!target) throw notYours.account('target_id');
    if (target.currency !== source.currency) throw Errors.rule('accounts of different currencies cannot be merged');
    const counts = await write(tx, userId, { type: 'mergeAccounts', fromId: id, toId: targetId });
    await moveRulesToAccount(tx, userId, id, targetId);
    await repo.deleteAccount(tx, userId, id);
    await repo.updateAccount(tx, userId, targetId, {
      openingBalance: target.openingBalance + source.openingBalance,
      openingDate: source.openingDate < target.openingDate ? source.openingDate : target.openingDate,
      ...(source.isDefault ? { isDefault: true, archived: false } : {}),
      updatedAt: clock.now(),
    });
    return counts;
  });
  return { moved: out.moved, removed_transfers: out.removedTransfers, account: await viewOf(deps, userId, targetId) };
}
