import { Errors } from '../../lib/errors.ts';
import { sha256 } from '../../lib/tokens.ts';
import { issuePair, REUSE_GRACE_MS, type AuthDeps, type ClientInfo, type TokenPair } from './auth.deps.ts';

/** A new token pair for a refresh token, which is spent; a rotated token used again ends its family. */
export async function refreshTokens(
  deps: AuthDeps,
  refreshToken: string,
  client: ClientInfo = { userAgent: null, ip: null },
): Promise<TokenPair> {
  const { db, tokens, clock, repo } = deps;
  const claims = await tokens.verifyRefresh(refreshToken);
  const outcome = await db.transaction(async (tx) => {
    // the user's row lock serializes every refresh of that user, in every process
    const user = await repo.lockUser(tx, claims.userId);
    // a genuine token of a disabled or deleted account says so, even when disabling revoked the
    // token: the client can then tell "account disabled" from "session expired"
    if (!user || user.deletedAt || user.status === 'disabled') return { error: Errors.accountBlocked() };
    const row = await repo.findRefreshToken(tx, sha256(claims.jti));
    if (!row || row.userId !== claims.userId) return { error: Errors.badRefresh() };
    const at = clock.now();
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
    return { pair: await issuePair(deps, tx, user, client, row.family) };
  });
  if ('ended' in outcome && outcome.ended) deps.onUserChanged(outcome.ended);
  if ('error' in outcome) throw outcome.error;
  return outcome.pair;
}

/** Ends the session of a refresh token: its whole family is revoked and its access tokens stop working. */
export async function logout(deps: AuthDeps, refreshToken: string): Promise<void> {
  const { db, tokens, clock, repo } = deps;
  const claims = await tokens.verifyRefresh(refreshToken);
  await db.transaction(async (tx) => {
    const row = await repo.findRefreshToken(tx, sha256(claims.jti));
    if (!row || row.userId !== claims.userId) throw Errors.badRefresh();
    await repo.revokeFamily(tx, row.userId, row.family, clock.now());
  });
  // the session's access tokens stop working at once too
  deps.onUserChanged(claims.userId);
}
