import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import { sha256 } from '../../lib/tokens.ts';
import { OIDC_REDIRECT_PATH, oidcOffered } from './oidc.config.ts';
import * as repo from './oidc.repo.ts';

/** How long a started sign-in or link may take at the provider before its state is refused. */
export const FLOW_TTL_MS = 10 * 60_000;
const SCOPE = 'openid email profile';
const PROVIDER_TIMEOUT_S = 10;

/** The openid-client library loads at the first OpenID Connect request, not at start-up. */
let library: Promise<typeof import('openid-client')> | null = null;
const oidcClient = () => (library ??= import('openid-client'));
type Lib = typeof import('openid-client');
type Configuration = import('openid-client').Configuration;
type Tokens = Awaited<ReturnType<Lib['authorizationCodeGrant']>>;

export type OidcPurpose = 'sign-in' | 'link';

/** The provider's answer as it reached the redirect URI, passed on by the client. */
export interface OidcCallback {
  state: string;
  code?: string;
  iss?: string;
  error?: string;
  error_description?: string;
}

/** Who the provider says signed in: (issuer, subject) names the person; e-mail and name are shown only. */
export interface ProviderAccount {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
}

export interface OidcFlowDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'oidc'>;
  clock: Clock;
}

const stateRefused = () =>
  new AppError(400, 40001, 'state unknown, expired or already used: start the sign-in again', [
    { field: 'state', message: 'unknown, expired or already used' },
  ]);

/** A library failure as the contract's answer: unreachable is 503, anything the provider or its token got wrong 401. */
function refusal(err: unknown, lib: Lib): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof lib.AuthorizationResponseError)
    return new AppError(401, 40103, `the identity provider answered ${err.error}`, undefined, { reason: err.error });
  if (err instanceof lib.ResponseBodyError)
    return new AppError(401, 40103, `the identity provider refused the code (${err.error})`, undefined, {
      reason: err.error,
    });
  const cause = (err as { cause?: unknown }).cause;
  const network = [err, cause].some(
    (e) => e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError' || e instanceof TypeError),
  );
  if (network && !(err instanceof lib.ClientError && err.code))
    return Errors.unavailable('the identity provider is unreachable');
  // openid-client names the check in its error's cause: 'unexpected ID Token "nonce" claim value', ...
  const message = [err, cause]
    .filter((e): e is Error => e instanceof Error)
    .map((e) => e.message)
    .join(': ');
  return new AppError(401, 40103, `the identity provider's answer was not accepted: ${message}`, undefined, {
    reason: 'id_token',
  });
}

/**
 * The provider's metadata through openid-client's discovery, read once per process; a failed read
 * is tried again at the next request. Off (40401) without the settings.
 */
function providerConfiguration(config: OidcFlowDeps['config']) {
  let discovered: Promise<Configuration> | null = null;
  return async (): Promise<{ config: Configuration; redirectUri: string; lib: Lib }> => {
    const o = config.oidc;
    if (!oidcOffered(config) || !o?.issuer || !o.clientId || !o.clientSecret)
      throw Errors.featureOff(
        'OpenID Connect sign-in is not configured on this server (OIDC_ISSUER, OIDC_CLIENT_ID, ' +
          'OIDC_CLIENT_SECRET, PUBLIC_URL)',
      );
    const lib = await oidcClient();
    discovered ??= lib.discovery(new URL(o.issuer), o.clientId, undefined, lib.ClientSecretBasic(o.clientSecret), {
      timeout: PROVIDER_TIMEOUT_S,
      // http:// only for a loopback issuer with OIDC_ALLOW_HTTP (src/config.ts refuses anything else)
      execute: o.allowHttp && new URL(o.issuer).protocol === 'http:' ? [lib.allowInsecureRequests] : [],
    });
    try {
      return { config: await discovered, redirectUri: new URL(OIDC_REDIRECT_PATH, config.publicUrl!).href, lib };
    } catch (err) {
      discovered = null;
      const failure = refusal(err, lib);
      throw failure.status === 503 ? failure : Errors.unavailable('the identity provider could not be discovered');
    }
  };
}

/** The ID token's identity, with e-mail and name from the userinfo endpoint when the ID token leaves them out. */
async function accountOf(lib: Lib, config: Configuration, tokens: Tokens): Promise<ProviderAccount> {
  const claims = tokens.claims()!;
  let profile: Record<string, unknown> = claims;
  if ((!claims.email || !claims.name) && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
    profile = await lib.fetchUserInfo(config, tokens.access_token, claims.sub).then(
      (info) => ({ ...info, ...claims }),
      () => claims,
    );
  }
  const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null);
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: text(profile.email, 320),
    name: text(profile.name, 200) ?? text(profile.preferred_username, 200),
  };
}

/**
 * The authorization code flow with PKCE (S256), state and nonce. openid-client builds the request,
 * checks the answer and redeems the code, checking the ID token (signature, issuer, audience,
 * expiry, nonce). Each flow's state (hashed), nonce and verifier wait in oidc_flows, single use.
 */
export function createOidcFlows(deps: OidcFlowDeps) {
  const { db } = deps;
  const provider = providerConfiguration(deps.config);

  return {
    async start(purpose: OidcPurpose, userId: number | null) {
      const { config, redirectUri, lib } = await provider();
      const state = lib.randomState();
      const nonce = lib.randomNonce();
      const codeVerifier = lib.randomPKCECodeVerifier();
      const at = deps.clock.now();
      await repo.purgeExpiredFlows(db, at);
      const expiresAt = new Date(at.getTime() + FLOW_TTL_MS);
      await repo.insertFlow(db, { stateHash: sha256(state), nonce, codeVerifier, purpose, userId, expiresAt });
      const url = lib.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state,
        nonce,
        code_challenge: await lib.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { authorization_url: url.href, state, redirect_uri: redirectUri };
    },

    /**
     * Takes the flow of the callback's state (deleted whatever follows: one answer per state) and
     * answers the provider account it proves. A link's flow is finished by the person who started it only.
     */
    async finish(callback: OidcCallback, purpose: OidcPurpose, userId: number | null): Promise<ProviderAccount> {
      const { config, redirectUri, lib } = await provider();
      const flow = await repo.takeFlow(db, sha256(callback.state));
      const mine = flow?.purpose === purpose && (purpose === 'sign-in' || flow.userId === userId);
      if (!flow || !mine || flow.expiresAt <= deps.clock.now()) throw stateRefused();
      const current = new URL(redirectUri);
      for (const key of ['code', 'state', 'iss', 'error', 'error_description'] as const) {
        const value = callback[key];
        if (value !== undefined) current.searchParams.set(key, value);
      }
      try {
        const tokens = await lib.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: callback.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        return await accountOf(lib, config, tokens);
      } catch (err) {
        throw refusal(err, lib);
      }
    },
  };
}

export type OidcFlows = ReturnType<typeof createOidcFlows>;
