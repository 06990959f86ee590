import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import { acceptUsername } from '../../lib/usernames.ts';
import * as repo from './auth.repo.ts';
import type { SignInGuard } from './lockout.ts';
import { assertKeepsAMethod } from './sign-in-methods.rules.ts';
import { acceptPassword, normalizePassword, type PasswordHasher } from './passwords.ts';
import type { IdentityProvider } from './wechat.ts';

export interface SignInMethodsDeps {
  db: Db;
  hasher: PasswordHasher;
  guard: SignInGuard;
  provider: IdentityProvider;
  /** after sessions end or sign-in methods change */
  onUserChanged: (userId: number) => void;
  clock: Clock;
}

/** The sign-in methods a signed-in user adds to or removes from their own account. */
export function createSignInMethodsService(deps: SignInMethodsDeps) {
  const { db } = deps;
  const now = () => deps.clock.now();

  async function usableUser(userId: number): Promise<repo.UserRow> {
    const user = await repo.findUser(db, userId);
    if (!user || user.deletedAt) throw Errors.notFound('user');
    return user;
  }

  return {
    /**
     * Sets or changes the password. With a password already set the current one is required
     * (a stolen access token alone cannot take the account over); every other session ends.
     */
    async setPassword(
      userId: number,
      sessionId: number | null,
      body: { current_password?: string; new_password: string },
      ip: string,
    ): Promise<void> {
      const user = await usableUser(userId);
      if (!user.username)
        throw new AppError(422, 42201, 'choose a username first (PUT /api/me/username)', undefined, {
          reason: 'username_required',
        });
      const fresh = acceptPassword(body.new_password, user.username, 'new_password');
      if (user.passwordHash) {
        if (body.current_password === undefined)
          throw Errors.field('current_password', 'is required to change the password');
        await deps.guard.assertOpen(user.username, ip);
        await deps.guard.attempt(user.username, ip);
        if (!(await deps.hasher.verify(user.passwordHash, normalizePassword(body.current_password))))
          throw Errors.badCredentials();
        await deps.guard.succeeded(user.username, ip);
      }
      const passwordHash = await deps.hasher.hash(fresh);
      await db.transaction(async (tx) => {
        // a demo account with a username and a password becomes a lasting one
        await repo.updateUser(tx, userId, { passwordHash, isDemo: false });
        await repo.revokeOtherSessions(tx, userId, sessionId, now());
      });
      deps.onUserChanged(userId);
    },

    async removePassword(userId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await repo.lockUser(tx, userId);
        if (!user || user.deletedAt || !user.passwordHash) throw Errors.notFound('password');
        await assertKeepsAMethod(tx, { ...user, passwordHash: null });
        await repo.updateUser(tx, userId, { passwordHash: null });
      });
    },

    async setUsername(userId: number, raw: string): Promise<void> {
      const username = acceptUsername(raw);
      const user = await usableUser(userId);
      if (user.username) throw Errors.rule('the account already has a username');
      try {
        await repo.updateUser(db, userId, { username });
      } catch (err) {
        if (isUniqueViolation(err)) throw Errors.conflict('username is taken');
        throw err;
      }
    },

    async linkWechat(userId: number, code: string): Promise<void> {
      const user = await usableUser(userId);
      if (user.provider === 'wechat') throw Errors.conflict('a WeChat account is already linked');
      const subject = await deps.provider.resolve(code);
      try {
        await repo.updateUser(db, userId, { provider: 'wechat', providerSubject: subject, isDemo: false });
      } catch (err) {
        if (isUniqueViolation(err)) throw Errors.conflict('this WeChat account belongs to another user');
        throw err;
      }
    },

    async unlinkWechat(userId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await repo.lockUser(tx, userId);
        if (!user || user.deletedAt || user.provider !== 'wechat') throw Errors.notFound('WeChat link');
        await assertKeepsAMethod(tx, { ...user, provider: null });
        await repo.updateUser(tx, userId, { provider: null, providerSubject: null });
      });
    },
  };
}

export type SignInMethodsService = ReturnType<typeof createSignInMethodsService>;
