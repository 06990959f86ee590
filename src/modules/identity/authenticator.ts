import { Errors } from '../../lib/errors.ts';
import type { Authenticator, UserStateCache } from '../../plugins/auth.ts';
import type { AuthUser } from '../../types.ts';
import { TOKEN_PREFIX, type ApiTokenAuthenticator } from './api-tokens.service.ts';
import type { TokenService } from '../../lib/tokens.ts';

export interface AuthenticatorDeps {
  tokens: TokenService;
  /** read at each call: another plugin may wrap the cache after this is built */
  userState: () => UserStateCache;
  /** personal API tokens (`lgr_...`); without it such a token is refused */
  apiTokens?: ApiTokenAuthenticator;
}

/**
 * Verifies an access token (or a personal API token) and the user's current state; throws
 * 40101/40104. An access token of a session that was signed out no longer works either.
 */
export function createAuthenticator({ tokens, userState, apiTokens }: AuthenticatorDeps): Authenticator {
  return {
    async authenticate(token: string): Promise<AuthUser> {
      if (token.startsWith(TOKEN_PREFIX)) {
        if (!apiTokens) throw Errors.unauthorized('API tokens are not accepted here');
        return apiTokens.authenticate(token);
      }
      const claims = await tokens.verifyAccess(token);
      const state = await userState().get(claims.userId);
      if (!state || state.deleted || state.status === 'disabled') throw Errors.accountBlocked();
      if (claims.sessionId !== null && state.endedSessions.includes(claims.sessionId))
        throw Errors.unauthorized('the session was signed out');
      return { id: claims.userId, role: state.role, sessionId: claims.sessionId };
    },
  };
}
