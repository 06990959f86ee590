import type { FastifyInstance } from 'fastify';
export { assertError } from './assert.ts';

type Headers = Record<string, string>;

/** A small HTTP client over app.inject for one signed-in user. */
export function client(app: FastifyInstance, headers: Headers) {
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, extra: Headers = {}) =>
    app.inject({ method, url, headers: { ...headers, ...extra }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, payload?: unknown, extra?: Headers) => send('POST', url, payload, extra),
    put: (url: string, payload?: unknown) => send('PUT', url, payload),
    del: (url: string) => send('DELETE', url),
  };
}
export type Client = ReturnType<typeof client>;

/** Asserts an error answer: HTTP status and the contract's numeric code. */
