import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Db, Executor } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { createDefaultCategories, type Locale } from '../categories/categories.defaults.ts';
import { seedDemoData } from '../demo/demo.service.ts';
import * as authRepo from './auth.repo.ts';
import { ACCESS_TTL_S, REFRESH_TTL_S, sha256, type TokenService } from '../../lib/tokens.ts';
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

export interface AuthServiceDeps {
  db: Db;
  tokens: TokenService;
  provider: IdentityProvider;
  config: Pick<Config, 'adminOpenids' | 'demoLogin' | 'appTimezone'>;
  /** called after a user's role changes so that cached lookups follow at once */
  onUserChanged: (userId: number) => void;
  clock: Clock;
  repo?: typeof authRepo;
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, tokens, clock, repo = authRepo } = deps;
  const now = () => clock.now();

  async function issuePair(tx: Executor, user: authRepo.UserRow, family: string = randomUUID()): Promise<TokenPair> {
    const at = now();
    const refresh = await tokens.signRefresh(user.id, family);
    await repo.insertRefreshToken(tx, { userId: user.id, jtiHash: sha256(refresh.jti), family, expiresAt: refresh.expiresAt, createdAt: at });
    await repo.enforceTokenCap(tx, user.id, MAX_REFRESH_TOKENS, at);
    await repo.purgeDeadTokens(tx, user.id, at);
    return {
      access_token: await tokens.signAccess(user.id, user.role),
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

  return {
    /** `locale` names the default categories of a user created by this sign-in. */
    async login(code: string, locale: Locale = 'en'): Promise<LoginResult> {
      const subject = await deps.provider.resolve(code);
      const makeAdmin = deps.config.adminOpenids.includes(subject);
      const result = await db.transaction(async (tx) => {
        let user = await repo.findUserByProvider(tx, 'wechat', subject);
        if (!user) {
          user = await repo.insertUser(tx, {
            provider: 'wechat',
            providerSubject: subject,
            nickname: `${locale === 'zh' ? '用户' : 'User'} ${subject.slice(-4)}`,
            role: makeAdmin ? 'admin' : 'user',
          });
          await createDefaultCategories(tx, user.id, locale);
        } else {
          user = await repo.lockUser(tx, user.id);
          assertUsable(user);
          if (makeAdmin && user.role !== 'admin') {
            await repo.setRole(tx, user.id, 'admin');
            user = { ...user, role: 'admin' };
          }
        }
        return withUser(await issuePair(tx, user), user);
      });
      deps.onUserChanged(result.user.id);
      return result;
    },

    /** `locale` names the demo user's categories and sample data. */
    async demoLogin(locale: Locale = 'en'): Promise<LoginResult> {
      if (!deps.config.demoLogin) throw Errors.notFound('route POST /api/auth/demo-login');
      return db.transaction(async (tx) => {
        const zh = locale === 'zh';
        const user = await repo.insertUser(tx, {
          nickname: `${zh ? '体验用户' : 'Demo'} ${randomUUID().slice(0, 4)}`,
          isDemo: true,
          slogan: zh ? '随便试试' : 'Trying things out',
        });
        await createDefaultCategories(tx, user.id, locale);
        await seedDemoData(tx, user.id, now(), deps.config.appTimezone, locale);
        return withUser(await issuePair(tx, user), user);
      });
    },

    async refresh(refreshToken: string): Promise<TokenPair> {
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
          if (at.getTime() - row.rotatedAt.getTime() > REUSE_GRACE_MS) await repo.revokeFamily(tx, row.userId, row.family, at);
          return { error: Errors.badRefresh('refresh token already used') };
        }
        if (row.revokedAt || row.expiresAt <= at) return { error: Errors.badRefresh() };
        await repo.markRotated(tx, row.id, at);
        return { pair: await issuePair(tx, user, row.family) };
      });
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
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
