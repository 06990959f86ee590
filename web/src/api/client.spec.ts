import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

// a page's storage: the keys are its own enumerable properties, as in a browser
function memoryStorage(): Storage {
  const s = {} as Record<string, string>;
  Object.defineProperties(s, {
    getItem: { value: (k: string) => (k in s ? s[k] : null) },
    setItem: { value: (k: string, v: string) => void (s[k] = String(v)) },
    removeItem: { value: (k: string) => void delete s[k] },
  });
  return s as unknown as Storage;
}

vi.stubGlobal('location', new URL('http://app.test/books'));
vi.stubGlobal('localStorage', memoryStorage());
const fetchMock = vi.fn<(input: Request | URL, init?: RequestInit) => Promise<Response>>();
vi.stubGlobal('fetch', fetchMock);
afterAll(() => vi.unstubAllGlobals());

const { client, ok, readEarly, setTokens, clearSession, takeServerAnswers } = await import('./client');

let served = 0;
/** what the server saw: the address and the bearer token of each request */
const seen = () =>
  fetchMock.mock.calls.map(([input, init]) => {
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    return { url: String(input instanceof Request ? input.url : input), auth: headers.get('Authorization') };
  });

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(
    async () =>
      new Response(JSON.stringify({ n: ++served }), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  clearSession();
  setTokens({ access_token: 'a1', refresh_token: 'r1' });
});

const page = async (query: Record<string, string | number>) =>
  (await ok(client.GET('/api/transactions', { params: { query: query as never } }))) as unknown as { n: number };

describe('reads started early', () => {
  it('answer the app call for the same address once, whatever the order of its query', async () => {
    readEarly('/api/transactions', { startDate: '2026-11-01', kind: 'all', page: 1, pageSize: 20 });
    const early = await page({ kind: 'all', page: 1, pageSize: 20, startDate: '2026-11-01' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(seen()[0]!.auth).toBe('Bearer a1');
    // taken once: the next call asks the server again
    const again = await page({ kind: 'all', page: 1, pageSize: 20, startDate: '2026-11-01' });
    expect(again.n).toBe(early.n + 1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('are not taken by a call for another address', async () => {
    readEarly('/api/transactions', { kind: 'all', page: 1, pageSize: 20 });
    await page({ kind: 'expense', page: 1, pageSize: 20 });
    expect(seen().map((s) => new URL(s.url).searchParams.get('kind'))).toEqual(['all', 'expense']);
  });

  it('are not taken after another person signed in on the page', async () => {
    readEarly('/api/me');
    setTokens({ access_token: 'b1', refresh_token: 'r2' });
    await ok(client.GET('/api/me'));
    expect(seen().map((s) => s.auth)).toEqual(['Bearer a1', 'Bearer b1']);
  });

  it('are forgotten when the session ends', async () => {
    readEarly('/api/groups');
    clearSession();
    setTokens({ access_token: 'a1', refresh_token: 'r1' });
    await ok(client.GET('/api/groups'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('start nothing without a session but the public configuration, which needs none', async () => {
    clearSession();
    readEarly('/api/me');
    expect(fetchMock).not.toHaveBeenCalled();
    readEarly('/api/config');
    await ok(client.GET('/api/config'));
    expect(seen()).toEqual([{ url: 'http://app.test/api/config', auth: null }]);
  });

  it('pass a network failure on to the call that takes them', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    readEarly('/api/me');
    await expect(client.GET('/api/me')).rejects.toThrow(TypeError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('answers a page rendered by the server brought', () => {
  /** an access token of user `sub` (the client reads its payload, never checks it) */
  const tokenOf = (sub: number) => `h.${btoa(JSON.stringify({ sub: String(sub) })).replace(/=+$/, '')}.s`;
  const withBlock = (data: unknown) =>
    vi.stubGlobal('document', {
      getElementById: (id: string) => (id === 'first-screen' ? { textContent: JSON.stringify(data) } : null),
    });
  afterAll(() => vi.stubGlobal('document', undefined));

  it('answer the app and the early reads for their address, without a request', async () => {
    setTokens({ access_token: tokenOf(7), refresh_token: 'r1' });
    withBlock({ user: 7, reads: { '/api/me': { id: 7 }, '/api/groups': { list: [] } } });
    expect(takeServerAnswers()).toBe(true);
    readEarly('/api/me');
    expect(await ok(client.GET('/api/me'))).toEqual({ id: 7 });
    expect(await ok(client.GET('/api/groups'))).toEqual({ list: [] });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('are refused when they are not of the person whose tokens the browser holds', async () => {
    setTokens({ access_token: tokenOf(8), refresh_token: 'r1' });
    withBlock({ user: 7, reads: { '/api/me': { id: 7 } } });
    expect(takeServerAnswers()).toBe(false);
    await ok(client.GET('/api/me'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
