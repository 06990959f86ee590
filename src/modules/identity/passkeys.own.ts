import { Errors } from '../../lib/errors.ts';
import * as authRepo from './auth.repo.ts';
import { toView, type PasskeyServiceDeps, type PasskeyView } from './passkeys.deps.ts';
import * as repo from './passkeys.repo.ts';
import { assertKeepsAMethod } from './sign-in-methods.rules.ts';

/** The person's passkeys. */
export async function listPasskeys({ db }: PasskeyServiceDeps, userId: number): Promise<{ list: PasskeyView[] }> {
  return { list: (await repo.listOwn(db, userId)).map(toView) };
}

/** Renames one of the person's passkeys. */
export async function renamePasskey(
  { db }: PasskeyServiceDeps,
  userId: number,
  id: number,
  name: string,
): Promise<PasskeyView> {
  const label = name.trim();
  if (!label) throw Errors.field('name', 'must not be blank');
  const row = await repo.renameOwn(db, userId, id, label);
  if (!row) throw Errors.notFound('passkey');
  return toView(row);
}

/** Removes one of the person's passkeys, unless it is their last way to sign in. */
export async function removePasskey({ db }: PasskeyServiceDeps, userId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await authRepo.lockUser(tx, userId);
    if (!user || !(await repo.findOwn(tx, userId, id))) throw Errors.notFound('passkey');
    await assertKeepsAMethod(tx, user, (await repo.countOwn(tx, userId)) - 1);
    await repo.deleteOwn(tx, userId, id);
  });
}
