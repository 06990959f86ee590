// Identity through the typed client: the service's public configuration, the signed-in person, the
// ways to sign in (password, demo, WeChat, passkeys), signed-in sessions and personal API tokens.
import { client, ok, upload } from '../../api/client';
import type { ApiToken } from '../../api/types';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}
export interface ProfileChange {
  nickname: string;
  slogan: string;
  timezone: string | null;
  notify_splits: boolean;
}

export const identityApi = {
  config: () => ok(client.GET('/api/config')),
  me: () => ok(client.GET('/api/me')),
  logout: (refreshToken: string) => client.POST('/api/auth/logout', { body: { refresh_token: refreshToken } }),

  demo: (): Promise<TokenPair> => ok(client.POST('/api/auth/demo-login')),
  wechat: (code: string): Promise<TokenPair> => ok(client.POST('/api/auth/login', { body: { code } })),
  register: (username: string, password: string): Promise<TokenPair> =>
    ok(client.POST('/api/auth/register', { body: { username, password } })),
  passkeyLoginOptions: () => ok(client.POST('/api/auth/passkeys/login/options')),
  passkeyLoginVerify: (credential: unknown): Promise<TokenPair> =>
    ok(client.POST('/api/auth/passkeys/login/verify', { body: { credential: credential as never } })),

  updateMe: (change: ProfileChange) => ok(client.PUT('/api/me', { body: change })),
  uploadAvatar: (form: FormData) => upload<{ avatar_url: string }>('/api/me/avatar', form),
  setUsername: (username: string) => ok(client.PUT('/api/me/username', { body: { username } })),
  setPassword: (body: { current_password?: string; new_password: string }) =>
    ok(client.PUT('/api/me/password', { body: body as never })),
  removePassword: () => ok(client.DELETE('/api/me/password')),

  passkeys: () => ok(client.GET('/api/me/passkeys')).then((r) => r.list),
  passkeyRegisterOptions: () => ok(client.POST('/api/auth/passkeys/register/options')),
  passkeyRegisterVerify: (credential: unknown, name: string) =>
    ok(
      client.POST('/api/auth/passkeys/register/verify', {
        body: { credential: credential as never, ...(name ? { name } : {}) },
      }),
    ),
  renamePasskey: (id: number, name: string) =>
    ok(client.PUT('/api/me/passkeys/{id}', { params: { path: { id } }, body: { name } })),
  removePasskey: (id: number) => ok(client.DELETE('/api/me/passkeys/{id}', { params: { path: { id } } })),

  sessions: () => ok(client.GET('/api/me/sessions')).then((r) => r.list),
  endSession: (id: number) => ok(client.DELETE('/api/me/sessions/{id}', { params: { path: { id } } })),
  endOtherSessions: () => ok(client.DELETE('/api/me/sessions')),
  /** every session, this one included, and every API token */
  endEverywhere: () => ok(client.DELETE('/api/me/sessions', { params: { query: { everywhere: true } } })),

  tokens: () => ok(client.GET('/api/me/tokens')).then((r) => r.list),
  createToken: (name: string, scopes: ApiToken['scopes'], days: number) =>
    ok(client.POST('/api/me/tokens', { body: { name, scopes, expires_in_days: days } })),
  revokeToken: (id: number) => ok(client.DELETE('/api/me/tokens/{id}', { params: { path: { id } } })),
};
