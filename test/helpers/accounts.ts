import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { clientOf, type Client } from './http.ts';

export interface SignedIn {
  access_token: string;
  refresh_token: string;
  user: { id: number; nickname: string; role: string };
  api: Client;
}

let seq = 0;
/** A username nobody has taken yet in this process. */
export const freshUsername = (prefix = 'user') => `${prefix}_${process.pid}_${++seq}`;
export const GOOD_PASSWORD = 'correct horse battery staple';

function signedIn(app: FastifyInstance, body: Omit<SignedIn, 'api'>): SignedIn {
  return {
    ...body,
    api: clientOf(app, () => ({ authorization: `Bearer ${body.access_token}`, 'user-agent': 'test-agent' })),
  };
}

/** Registers an account through the API and answers its sign-in. */
export async function register(
  app: FastifyInstance,
  username = freshUsername(),
  password = GOOD_PASSWORD,
  headers: Record<string, string> = {},
): Promise<SignedIn> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, password }, headers });
  assert.equal(res.statusCode, 200, res.body);
  return signedIn(app, res.json());
}

export async function passwordLogin(
  app: FastifyInstance,
  username: string,
  password = GOOD_PASSWORD,
  headers: Record<string, string> = {},
) {
  return app.inject({ method: 'POST', url: '/api/auth/password-login', payload: { username, password }, headers });
}

/** Signs in with a password; fails the test unless it succeeds. */
export async function signIn(
  app: FastifyInstance,
  username: string,
  password = GOOD_PASSWORD,
  headers: Record<string, string> = {},
): Promise<SignedIn> {
  const res = await passwordLogin(app, username, password, headers);
  assert.equal(res.statusCode, 200, res.body);
  return signedIn(app, res.json());
}

export { signedIn };
