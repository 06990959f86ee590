// The TOTP second factor through the typed client: its state and set-up on the security page, and
// the code step of a password sign-in (the ticket waits here until a code or recovery code is sent).
import { ref } from 'vue';
import { ApiError, client, ok } from '../../api/client';
import { signIn } from '../../stores/session';
import type { TokenPair } from './api';

export const totpApi = {
  status: () => ok(client.GET('/api/me/totp')),
  setUp: () => ok(client.POST('/api/me/totp/setup')),
  confirm: (code: string) => ok(client.POST('/api/me/totp/confirm', { body: { code } })),
  newRecoveryCodes: (code: string) => ok(client.POST('/api/me/totp/recovery-codes', { body: { code } })),
  /** a confirmed factor needs a code (or a recovery code); a set-up never confirmed needs none */
  disable: (code?: string) => ok(client.POST('/api/me/totp/disable', { body: code ? { code } : {} })),
};

/** The ticket of a password sign-in that waits for its second factor; null when none does. */
export const pendingTicket = ref<string | null>(null);

/** A password sign-in: done at once, or (a person with a second factor) a ticket waiting for a code. */
export async function passwordSignIn(username: string, password: string): Promise<void> {
  pendingTicket.value = null;
  const answer = await ok(client.POST('/api/auth/password-login', { body: { username, password } }));
  if ('ticket' in answer) {
    pendingTicket.value = answer.ticket;
    return;
  }
  await signIn(Promise.resolve(answer as TokenPair));
}

/** Sends the code (or a recovery code) with the waiting ticket; an expired ticket goes back to the password. */
export async function secondFactorSignIn(code: string): Promise<void> {
  const ticket = pendingTicket.value;
  if (!ticket) return;
  try {
    await signIn(ok(client.POST('/api/auth/totp/verify', { body: { ticket, code: code.trim() } })));
    pendingTicket.value = null;
  } catch (err) {
    if (err instanceof ApiError && err.code === 40108) pendingTicket.value = null;
    throw err;
  }
}
