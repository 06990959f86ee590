import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** The claims of an ID token, handed to a test's tamper function. */
export type IdTokenClaims = Record<string, unknown> & { iss: string; sub: string; exp: number; iat: number };

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Changes the next ID tokens the token endpoint hands out: the claims are rewritten and signed
   * again with the provider's own key (an expired token, another issuer); null: tokens as issued.
   */
  tamper(fn: ((claims: IdTokenClaims) => IdTokenClaims) | null): void;
  close(): Promise<void>;
}

export const OIDC_CLIENT_ID = 'ledger-test';
export const OIDC_CLIENT_SECRET = 'ledger-test-client-secret-0123456789abcdef';

/**
 * A real OpenID Provider (oidc-provider) in this process on a loopback port: its in-memory adapter,
 * one static confidential client, development interactions (any login and password sign in as
 * the account named by the login), consent granted at once, and accounts whose claims are
 * `sub` = the login, `email` from `emails` (else `<login>@example.test`) and `name` = the login.
 */
export async function startOidcProvider(opts: {
  redirectUris: string[];
  emails?: Record<string, string>;
  port?: number;
}): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const signingKey = await importJWK(jwk, 'RS256');
  let tamper: ((claims: IdTokenClaims) => IdTokenClaims) | null = null;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: opts.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    pkce: { required: () => true },
    // lifetimes stated (the library's defaults announce themselves on every use)
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: opts.emails?.[id] ?? `${id}@example.test`,
          email_verified: true,
          name: id,
        }),
      };
    },
    // consent is granted at once: the interactions are the sign-in only
    async loadExistingGrant(ctx: {
      oidc: { client: { clientId: string }; session: { accountId: string }; provider: Provider };
    }) {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && tamper && body?.id_token) {
      const claims = tamper(decodeJwt(body.id_token) as IdTokenClaims);
      body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(signingKey);
    }
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    tamper: (fn) => void (tamper = fn),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Goes through the provider's pages as a browser would (cookies kept, redirects followed, the
 * login form filled in as `login`, or cancelled) and answers the query of the redirect back to
 * `redirectUri`.
 */
export async function authorizeAt(
  authorizationUrl: string,
  redirectUri: string,
  login: string,
  opts: { cancel?: boolean } = {},
): Promise<URLSearchParams> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      body,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const pair = cookie.split(';')[0]!;
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = res.headers.get('location');
    body = undefined;
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next.searchParams;
      url = next.href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action || !html.includes('name="login"'))
      throw new Error(`the provider answered an unexpected page (${res.status}): ${html.slice(0, 300)}`);
    if (opts.cancel) {
      url = new URL(/href="([^"]*\/abort)"/.exec(html)![1]!, url).href;
      continue;
    }
    url = new URL(action, url).href;
    body = new URLSearchParams({ prompt: 'login', login, password: 'any password' });
  }
  throw new Error('the provider did not send the browser back within 12 steps');
}
