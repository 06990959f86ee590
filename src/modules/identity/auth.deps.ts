import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import * as authRepo from './auth.repo.ts';
import { ACCESS_TTL_S, REFRESH_TTL_S, sha256, type TokenService } from '../../lib/tokens.ts';
import type { SignInGuard } from './lockout.ts';
import type { PasswordHasher } from './passwords.ts';
import type { IdentityProvider } from './wechat.ts';
import type { SecondFactorGate } from './second-factor.ts';

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
  config: Pick<
    Config,
    'adminOpenids' | 'demoLogin' | 'appTimezone' | 'registration' | 'defaultCurrency' | 'passwordSignIn'
  >;
  /** called after a user's role changes so that cached lookups follow at once */
  onUserChanged: (userId: number) => void;
  clock: Clock;
  /** asks a person with a confirmed second factor for a code after the password (no tokens yet) */
  secondFactor?: SecondFactorGate;
  repo?: typeof authRepo;
}

/** What the sign-in use cases are built from. */
export type AuthDeps = AuthServiceDeps & { repo: typeof authRepo };

export async function issuePair(
  { tokens, clock, repo }: AuthDeps,
  tx: Executor,
  user: authRepo.UserRow,
  client: ClientInfo,
  family: string = randomUUID(),
): Promise<TokenPair> {
  const at = clock.now();
  const refresh = await tokens.signRefresh(user.id, family);
  await repo.insertRefreshToken(tx, {
    userId: user.id,
    jtiHash: sha256(refresh.jti),
    family,
    expiresAt: refresh.expiresAt,
    createdAt: at,
  });
  const sessionId = await repo.upsertSession(tx, {
    userId: user.id,
    family,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
    ip: client.ip,
    at,
  });
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

/** PASSWORD_SIGN_IN=false: no password sign-in and no registration with one (off, as a feature left off) */
export function assertPasswordsOn(deps: AuthDeps): void {
  if (deps.config.passwordSignIn === false) throw Errors.featureOff('password sign-in is switched off on this server');
}

export function assertUsable(user: authRepo.UserRow | undefined): asserts user is authRepo.UserRow {
  if (!user || user.deletedAt || user.status === 'disabled') throw Errors.accountBlocked();
}

export function withUser(pair: TokenPair, user: authRepo.UserRow): LoginResult {
  return { ...pair, user: { id: user.id, nickname: user.nickname, avatar_url: user.avatarUrl, role: user.role } };
}

/** A new session for a user who has just proven who they are; the sign-in counters move on. */
export async function signIn(
  deps: AuthDeps,
  tx: Executor,
  user: authRepo.UserRow,
  client: ClientInfo,
): Promise<LoginResult> {
  const { clock, repo } = deps;
  const at = clock.now();
  await repo.updateUser(tx, user.id, {
    previousSignInAt: user.lastSignInAt,
    lastSignInAt: at,
    failedSignInsBefore: user.failedSignIns,
    failedSignIns: 0,
  });
  return withUser(await issuePair(deps, tx, user, client), user);
}

/**
 * Runs a sign-in's transaction. Afterwards the user's cached state is dropped: the cap on live
 * sessions may have ended one, whose access tokens must stop working at once.
 */
export async function signInTransaction(deps: AuthDeps, work: (tx: Tx) => Promise<LoginResult>): Promise<LoginResult> {
  const result = await deps.db.transaction(work);
  deps.onUserChanged(result.user.id);
  return result;
}
