// OpenID Connect through the typed client: starting and finishing a sign-in or a link, and the
// person's linked provider accounts.
import { client, ok } from '../../api/client';
import type { paths } from '../../api/schema';

export type OidcCallback = paths['/api/auth/oidc/callback']['post']['requestBody']['content']['application/json'];
export type OidcIdentity =
  paths['/api/me/oidc']['get']['responses'][200]['content']['application/json']['list'][number];

export const oidcApi = {
  startSignIn: () => ok(client.POST('/api/auth/oidc/start')),
  finishSignIn: (body: OidcCallback) => ok(client.POST('/api/auth/oidc/callback', { body })),
  startLink: () => ok(client.POST('/api/me/oidc/start')),
  finishLink: (body: OidcCallback) => ok(client.POST('/api/me/oidc/callback', { body })),
  list: () => ok(client.GET('/api/me/oidc')).then((r) => r.list),
  unlink: (id: number) => ok(client.DELETE('/api/me/oidc/{id}', { params: { path: { id } } })),
};
