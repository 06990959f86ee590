// Runs an action from a button: errors become a toast from the catalogue.
import { describeError } from '../i18n';
import { toast } from '../stores/ui';
import { ApiError } from '../api/client';

export async function run<T>(fn: () => Promise<T>, done?: string): Promise<T | undefined> {
  try {
    const out = await fn();
    if (done) toast(done);
    return out;
  } catch (err) {
    // an ended session is handled by the shell (back to sign-in)
    if (!(err instanceof ApiError && err.status === 401)) toast(describeError(err), 'error');
    return undefined;
  }
}
