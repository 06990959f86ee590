import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { countOwn as countPasskeys } from './passkeys.repo.ts';
import { countOwn as countOidc } from './oidc.repo.ts';
import { oidcOffered } from './oidc.config.ts';
import type { UserRow } from './auth.repo.ts';

export type SignInMethod = 'password' | 'passkey' | 'wechat' | 'oidc';

/** The ways a user can sign in again: a password (with a username), passkeys, WeChat, a linked OpenID Provider. */
export function signInMethods(
  user: Pick<UserRow, 'username' | 'passwordHash' | 'provider'>,
  passkeyCount: number,
  oidcCount = 0,
): SignInMethod[] {
  const out: SignInMethod[] = [];
  if (user.username && user.passwordHash) out.push('password');
  if (passkeyCount > 0) out.push('passkey');
  if (user.provider === 'wechat') out.push('wechat');
  if (oidcCount > 0) out.push('oidc');
  return out;
}

/**
 * Refuses (42201) to take away a sign-in method when nothing else would be left: an account
 * must keep a way in. `after` is the user as the change would leave it.
 */
export async function assertKeepsAMethod(
  tx: Executor,
  after: Pick<UserRow, 'id' | 'username' | 'passwordHash' | 'provider'>,
  passkeysAfter?: number,
): Promise<void> {
  const count = passkeysAfter ?? (await countPasskeys(tx, after.id));
  if (!signInMethods(after, count, await countOidc(tx, after.id)).length)
    throw Errors.rule('the last remaining sign-in method cannot be removed');
}

export type OfferedMethod = SignInMethod | 'demo';

/** The sign-in methods this server offers, for clients to show only those. */
export function offeredAuthMethods(
  config: Pick<Config, 'publicUrl' | 'wechat' | 'demoLogin' | 'passwordSignIn' | 'oidc'>,
): OfferedMethod[] {
  const out: OfferedMethod[] = config.passwordSignIn === false ? [] : ['password'];
  if (config.publicUrl) out.push('passkey');
  if (config.wechat.appId && config.wechat.secret) out.push('wechat');
  if (oidcOffered(config)) out.push('oidc');
  if (config.demoLogin) out.push('demo');
  return out;
}
