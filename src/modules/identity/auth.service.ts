import type { UseCaseArgs } from '../service.ts';
import { signIn, signInTransaction, type AuthDeps, type AuthServiceDeps } from './auth.deps.ts';
import { passwordLogin, register } from './auth.password.ts';
import { demoLogin, providerLogin } from './auth.provider.ts';
import * as authRepo from './auth.repo.ts';
import { logout, refreshTokens } from './auth.refresh.ts';

export {
  MAX_REFRESH_TOKENS,
  REUSE_GRACE_MS,
  type AuthServiceDeps,
  type ClientInfo,
  type LoginResult,
  type TokenPair,
} from './auth.deps.ts';

/**
 * Signing in, one named use case each: with a username and password (auth.password.ts), with
 * WeChat or as a demo user (auth.provider.ts), refreshing and ending a session (auth.refresh.ts);
 * a session is issued in auth.deps.ts, also for the other ways in (passkeys, TOTP, OpenID).
 */
export function createAuthService(serviceDeps: AuthServiceDeps) {
  const deps: AuthDeps = { ...serviceDeps, repo: serviceDeps.repo ?? authRepo };
  return {
    signIn: (...a: UseCaseArgs<typeof signIn>) => signIn(deps, ...a),
    signInTransaction: (...a: UseCaseArgs<typeof signInTransaction>) => signInTransaction(deps, ...a),
    register: (...a: UseCaseArgs<typeof register>) => register(deps, ...a),
    passwordLogin: (...a: UseCaseArgs<typeof passwordLogin>) => passwordLogin(deps, ...a),
    login: (...a: UseCaseArgs<typeof providerLogin>) => providerLogin(deps, ...a),
    demoLogin: (...a: UseCaseArgs<typeof demoLogin>) => demoLogin(deps, ...a),
    refresh: (...a: UseCaseArgs<typeof refreshTokens>) => refreshTokens(deps, ...a),
    logout: (...a: UseCaseArgs<typeof logout>) => logout(deps, ...a),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
