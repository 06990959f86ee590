import { randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { Errors } from '../../lib/errors.ts';
import { acceptUsername, normalizeUsername } from '../../lib/usernames.ts';
import { type Locale } from '../categories/index.ts';
import { firstDemoDay, seedDemoData } from '../demo/index.ts';
import { setUpNewUser } from './new-user.ts';
import * as authRepo from './auth.repo.ts';
import { ACCESS_TTL_S, REFRESH_TTL_S, sha256, type TokenService } from './tokens.ts';
import type { SignInGuard } from './lockout.ts';
import { acceptPassword, normalizePassword, type PasswordHasher } from './passwords.ts';
import type { IdentityProvider } from './wechat.ts';

export const MAX_REFRESH_TOKENS = 5;
/** a rotated token presented again within this window is a race between tabs, not theft */
export const REUSE_GRACE_MS = 60_000;

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_expires_in: number;
}

export interface LoginResult extends TokenPair {
  user: { id: number; nickname: string; avatar_url: string | null; role: 'user' | 'admin' };
}

/** Where a sign-in comes from, shown in the sessions list. */
export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

export interface AuthServiceDeps {
  db: Db;
  tokens: TokenService;
  provider: IdentityProvider;
  hasher: PasswordHasher;
  guard: SignInGuard;
  config: Pick<Config, 'adminOpenids' | 'demoLogin' | 'appTimezone' | 'registration' | 'defaultCurrency'>;
  /** called after a user's role changes so that cached lookups follow at once */
  onUserChanged: (userId: number) => void;
  clock: Clock;
  repo?: typeof authRepo;
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, tokens, clock, repo = authRepo } = deps;
  const now = () => clock.now();

  async function issuePair(tx: Executor, user: authRepo.UserRow, client: ClientInfo, family: string = randomUUID()): Promise<TokenPair> {
    const at = now();
    const refresh = await tokens.signRefresh(user.id, family);
    await repo.insertRefreshToken(tx, { userId: user.id, jtiHash: sha256(refresh.jti), family, expiresAt: refresh.expiresAt, createdAt: at });
    const sessionId = await repo.upsertSession(tx, { userId: user.id, family, userAgent: client.userAgent?.slice(0, 512) ?? null, ip: client.ip, at });
    await repo.enforceTokenCap(tx, user.id, MAX_REFRESH_TOKENS, at);
    await repo.purgeDeadTokens(tx, user.id, at);
    return {
      access_token: await tokens.signAccess(user.id, user.role, sessionId),
      refresh_token: refresh.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TTL_S,
      refresh_expires_in: REFRESH_TTL_S,
    };
  }

  function assertUsable(user: authRepo.UserRow | undefined): asserts user is authRepo.UserRow {
    if (!user || user.deletedAt || user.status === 'disabled') throw Errors.accountBlocked();
  }

  function withUser(pair: TokenPair, user: authRepo.UserRow): LoginResult {
    return { ...pair, user: { id: user.id, nickname: user.nickname, avatar_url: user.avatarUrl, role: user.role } };
  }

  /** A new session for a user who has just proven who they are; the sign-in counters move on. */
  async function signIn(tx: Executor, user: authRepo.UserRow, client: ClientInfo): Promise<LoginResult> {
    const at = now();
    await repo.updateUser(tx, user.id, {
      previousSignInAt: user.lastSignInAt,
      lastSignInAt: at,
      failedSignInsBefore: user.failedSignIns,
      failedSignIns: 0,
    });
    return withUser(await issuePair(tx, user, client), user);
  }

  /**
   * Runs a sign-in's transaction. Afterwards the user's cached state is dropped: the cap on live
   * sessions may have ended one, whose access tokens must stop working at once.
   */
  async function signInTransaction(work: (tx: Tx) => Promise<LoginResult>): Promise<LoginResult> {
    const result = await db.transaction(work);
    deps.onUserChanged(result.user.id);
    return result;
  }

  return {
    signIn,
    signInTransaction,

    async register(body: { username: string; password: string; nickname?: string }, client: ClientInfo, locale: Locale = 'en'): Promise<LoginResult> {
      if (deps.config.registration === 'closed') throw Errors.forbidden('registration is closed on this server');
      const username = acceptUsername(body.username);
      const password = acceptPassword(body.password, username);
      const nickname = body.nickname?.trim() || username;
      if ([...nickname].length > 30) throw Errors.field('nickname', 'must be at most 30 characters');
      if (await repo.findUserByUsername(db, username)) throw Errors.conflict('username is taken');
      const passwordHash = await deps.hasher.hash(password);
      try {
        return await signInTransaction(async (tx) => {
          // never an administrator: whoever registers a name first must not take the server
          const user = await repo.insertUser(tx, { username, passwordHash, nickname, role: 'user', baseCurrency: deps.config.defaultCurrency });
          await setUpNewUser(tx, user, locale);
          return signIn(tx, user, client);
        });
      } catch (err) {
        // two registrations of one name at once: the unique index lets exactly one through
        if (isUniqueViolation(err)) throw Errors.conflict('username is taken');
        throw err;
      }
    },

    async passwordLogin(raw: { username: string; password: string }, client: ClientInfo): Promise<LoginResult> {
      // a name typed in full-width letters signs in as the name it was registered under
      const body = { ...raw, username: normalizeUsername(raw.username) };
      const ip = client.ip ?? 'unknown';
      await deps.guard.assertOpen(body.username, ip);
      const password = normalizePassword(body.password);
      // counted before the password is checked: concurrent guesses cannot outrun the lock
      const delay = await deps.guard.attempt(body.username, ip);
      const user = await repo.findUserByUsername(db, body.username);
      // an unknown user costs the same hashing time as a known one, and gets the same answer
      const ok = user?.passwordHash ? await deps.hasher.verify(user.passwordHash, password) : (await deps.hasher.verifyNothing(password), false);
      if (!ok || !user) {
        // the same statement whether or not the user exists (it changes no row for an unknown name)
        await repo.countFailedSignIn(db, body.username);
        if (delay) await sleep(delay);
        throw Errors.badCredentials();
      }
      assertUsable(user);
      await deps.guard.succeeded(body.username, ip);
      const rehash = deps.hasher.needsRehash(user.passwordHash!) ? await deps.hasher.hash(password) : null;
      return signInTransaction(async (tx) => {
        const locked = await repo.lockUser(tx, user.id);
        assertUsable(locked);
        // the cost parameters changed since this hash was made: store one with the current ones
        if (rehash && locked.passwordHash === user.passwordHash) await repo.updateUser(tx, user.id, { passwordHash: rehash });
        return signIn(tx, locked, client);
      });
    },

    /** `locale` names the default categories of a user created by this sign-in. */
    async login(code: string, locale: Locale = 'en', client: ClientInfo = { userAgent: null, ip: null }): Promise<LoginResult> {
      const subject = await deps.provider.resolve(code);
      const makeAdmin = deps.config.adminOpenids.includes(subject);
      return signInTransaction(async (tx) => {
        let user = await repo.findUserByProvider(tx, 'wechat', subject);
        if (!user) {
          user = await repo.insertUser(tx, {
            provider: 'wechat',
            providerSubject: subject,
            nickname: `${locale === 'zh' ? '用户' : 'User'} ${subject.slice(-4)}`,
            role: makeAdmin ? 'admin' : 'user',
            baseCurrency: deps.config.defaultCurrency,
          });
          await setUpNewUser(tx, user, locale);
        } else {
          user = await repo.lockUser(tx, user.id);
          assertUsable(user);
          if (makeAdmin && user.role !== 'admin') {
            await repo.setRole(tx, user.id, 'admin');
            user = { ...user, role: 'admin' };
          }
        }
        return signIn(tx, user, client);
      });
    },

    /** `locale` names the demo user's categories and sample data. */
    async demoLogin(locale: Locale = 'en', client: ClientInfo = { userAgent: null, ip: null }): Promise<LoginResult> {
      if (!deps.config.demoLogin) throw Errors.notFound('route POST /api/auth/demo-login');
      return signInTransaction(async (tx) => {
        const zh = locale === 'zh';
        const user = await repo.insertUser(tx, {
          // digits only: a Chinese screen shows no Latin letters, whatever the random draw
          nickname: `${zh ? '体验用户' : 'Demo'} ${randomInt(1000, 10000)}`,
          isDemo: true,
          slogan: zh ? '随便试试' : 'Trying things out',
          baseCurrency: deps.config.defaultCurrency,
        });
        await setUpNewUser(tx, user, locale, firstDemoDay(now(), deps.config.appTimezone));
        await seedDemoData(tx, user.id, now(), deps.config.appTimezone, locale);
        return signIn(tx, user, client);
      });
    },

    async refresh(refreshToken: string, client: ClientInfo = { userAgent: null, ip: null }): Promise<TokenPair> {
      const claims = await tokens.verifyRefresh(refreshToken);
      const outcome = await db.transaction(async (tx) => {
        // the user's row lock serializes every refresh of that user, in every process
        const user = await repo.lockUser(tx, claims.userId);
        // a genuine token of a disabled or deleted account says so, even when disabling revoked the
        // token: the client can then tell "account disabled" from "session expired"
        if (!user || user.deletedAt || user.status === 'disabled') return { error: Errors.accountBlocked() };
        const row = await repo.findRefreshToken(tx, sha256(claims.jti));
        if (!row || row.userId !== claims.userId) return { error: Errors.badRefresh() };
        const at = now();
        if (row.rotatedAt) {
          // reuse of a rotated token: outside the grace window it revokes the whole family
          if (at.getTime() - row.rotatedAt.getTime() > REUSE_GRACE_MS) {
            await repo.revokeFamily(tx, row.userId, row.family, at);
            return { error: Errors.badRefresh('refresh token already used'), ended: row.userId };
          }
          return { error: Errors.badRefresh('refresh token already used') };
        }
        if (row.revokedAt || row.expiresAt <= at) return { error: Errors.badRefresh() };
        await repo.markRotated(tx, row.id, at);
        return { pair: await issuePair(tx, user, client, row.family) };
      });
      if ('ended' in outcome && outcome.ended) deps.onUserChanged(outcome.ended);
      if ('error' in outcome) throw outcome.error;
      return outcome.pair;
    },

    async logout(refreshToken: string): Promise<void> {
      const claims = await tokens.verifyRefresh(refreshToken);
      await db.transaction(async (tx) => {
        const row = await repo.findRefreshToken(tx, sha256(claims.jti));
        if (!row || row.userId !== claims.userId) throw Errors.badRefresh();
        await repo.revokeFamily(tx, row.userId, row.family, now());
      });
      // the session's access tokens stop working at once too
      deps.onUserChanged(claims.userId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
