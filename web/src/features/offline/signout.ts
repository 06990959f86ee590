// Signing out: the outbox is sent first; what still waits (offline, or refused) is only thrown
// away after the person agrees. Then the user's whole local store goes, so that the next person
// on this browser finds nothing of theirs.
import { i18n } from '../../i18n';
import { confirmAction } from '../../stores/ui';
import { currentUser, dbFor, dropUserDb } from './db';
import { filesWaiting } from './files';
import { offline } from './store';
import { syncNow } from './sync';

/** False when the person chose to stay signed in. */
export async function beforeSignOut(): Promise<boolean> {
  const user = currentUser();
  if (!user) return true;
  const db = await dbFor(user);
  const waiting = async () => (await db.count('outbox')) + (await filesWaiting(db));
  if ((await waiting()) && navigator.onLine) await syncNow().catch(() => 0);
  const left = await waiting();
  if (left) {
    const t = i18n.global.t;
    if (
      !(await confirmAction(
        t('offline.signOutTitle'),
        t('offline.signOutPending', { n: left }),
        t('offline.signOutAnyway'),
      ))
    )
      return false;
  }
  await dropUserDb(user);
  offline.ops = [];
  offline.pendingRows = new Set();
  offline.refusedRows = new Set();
  offline.dataFrom = null;
  return true;
}
