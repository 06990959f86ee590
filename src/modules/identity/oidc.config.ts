import type { Config } from '../../config.ts';

/** The web client's page the provider sends people back to: the redirect URI is PUBLIC_URL + this path. */
export const OIDC_REDIRECT_PATH = '/signin/oidc';

/** Whether the server offers OpenID Connect sign-in: a provider, this client's credentials and a public address. */
export function oidcOffered(config: Pick<Config, 'publicUrl' | 'oidc'>): boolean {
  const o = config.oidc;
  return !!(config.publicUrl && o?.issuer && o.clientId && o.clientSecret);
}
