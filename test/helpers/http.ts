import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Method = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Headers = Record<string, string>;

/** Query parameters; `undefined` and `null` values are left out, others are sent as text. */
export type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export interface RequestOptions {
  query?: Query;
  headers?: Headers;
  remoteAddress?: string;
}

/** The inject response; `json<T>()` gives the parsed body typed as asked. */
export type Response = LightMyRequestResponse;

/** A multipart/form-data body: its bytes and the content type naming the boundary. */
export interface Upload {
  readonly multipart: true;
  payload: Buffer;
  headers: { 'content-type': string };
}

const isUpload = (body: unknown): body is Upload =>
  typeof body === 'object' && body !== null && (body as Upload).multipart === true;

/**
 * Requests to the app in one caller's name. Bodies are sent as JSON unless they are a string or a
 * Buffer (sent as they are) or an `Upload` (sent as multipart).
 */
export interface Client {
  get(url: string, opts?: RequestOptions): Promise<Response>;
  post(url: string, body?: unknown, opts?: RequestOptions): Promise<Response>;
  put(url: string, body?: unknown, opts?: RequestOptions): Promise<Response>;
  patch(url: string, body?: unknown, opts?: RequestOptions): Promise<Response>;
  delete(url: string, body?: unknown, opts?: RequestOptions): Promise<Response>;
  request(method: Method, url: string, body?: unknown, opts?: RequestOptions): Promise<Response>;
}

function queryOf(query: Query | undefined): Record<string, string | string[]> | undefined {
  if (!query) return undefined;
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    out[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  return out;
}

/** A client whose base headers come from `auth` (called once, on the first request). */
export function clientOf(app: FastifyInstance, auth: () => Promise<Headers> | Headers): Client {
  let base: Promise<Headers> | undefined;
  const headers = () => (base ??= Promise.resolve(auth()));
  const request = async (method: Method, url: string, body?: unknown, opts: RequestOptions = {}) => {
    const options: InjectOptions = { method, url, headers: { ...(await headers()), ...opts.headers } };
    const query = queryOf(opts.query);
    if (query) options.query = query;
    if (opts.remoteAddress) options.remoteAddress = opts.remoteAddress;
    if (isUpload(body)) {
      options.payload = body.payload;
      options.headers = { ...body.headers, ...options.headers };
    } else if (body !== undefined) {
      options.payload = body as InjectOptions['payload'];
    }
    return app.inject(options);
  };
  return {
    get: (url, opts) => request('GET', url, undefined, opts),
    post: (url, body, opts) => request('POST', url, body, opts),
    put: (url, body, opts) => request('PUT', url, body, opts),
    patch: (url, body, opts) => request('PATCH', url, body, opts),
    delete: (url, body, opts) => request('DELETE', url, body, opts),
    request,
  };
}

/** A freshly signed access token for a user. */
export function accessToken(app: FastifyInstance, user: { id: number; role?: string | null }): Promise<string> {
  return app.tokens.signAccess(user.id, user.role ?? 'user');
}

/** Authorization headers for a user, with a freshly signed access token. */
export async function loginAs(
  app: FastifyInstance,
  user: { id: number; role?: string | null },
): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await accessToken(app, user)}` };
}
