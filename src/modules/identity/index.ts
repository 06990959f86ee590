/**
 * Identity: who a person is and how they prove it. Passwords, passkeys, WeChat, sessions,
 * personal API tokens, sign-in lockout and the set-up of a new user live here; other modules and
 * the composition root import this file only.
 */
export { default as identityRoutes, type IdentityRouteServices } from './auth.routes.ts';
export { default as apiTokensRoutes } from './api-tokens.routes.ts';
export { default as identityPlugin } from './identity.plugin.ts';
export { authCommands } from './auth.cli.ts';
export { totpCommands } from './totp.cli.ts';
export { createAuthService, type AuthService, type ClientInfo } from './auth.service.ts';
export { createTokenService, sha256, ACCESS_TTL_S, REFRESH_TTL_S, type TokenService } from '../../lib/tokens.ts';
export type { UserState, UserStateCache } from '../../plugins/auth.ts';
export { setUpNewUser } from './new-user.ts';
export { createPasswordHasher, passwordProblem } from './passwords.ts';
export { createApiTokenService, generateToken, isWellFormedToken, TOKEN_PREFIX } from './api-tokens.service.ts';
export { createPasskeyService } from './passkeys.service.ts';
export { createSessionService } from './sessions.service.ts';
export { createSignInMethodsService } from './sign-in-methods.service.ts';
export { createSecondFactorGate, createTotpService } from './totp.service.ts';
export { createMemoryCounterStore, createRedisCounterStore, createSignInGuard } from './lockout.ts';
export { createWechatProvider } from './wechat.ts';
export { createOidcService } from './oidc.service.ts';
export { oidcOffered } from './oidc.config.ts';
export { countOwn as countOidcIdentities } from './oidc.repo.ts';
export { signInMethods, offeredAuthMethods, type SignInMethod, type OfferedMethod } from './sign-in-methods.rules.ts';
export { countOwn as countPasskeys } from './passkeys.repo.ts';
export { revokeAllForUser } from './auth.repo.ts';
