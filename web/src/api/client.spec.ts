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

const { client, ok, readEarly, setTokens, clearSession } = await import('./client');

let served = 0;
/** what the server saw: the address and the bearer token of each request */
const seen = () =>
  fetchMock.mock.calls.map(([input, init]) => {
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    return { url: String(input instanceof Request ? input.url : input), auth: headers.get('Authorization') };
  });

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => new Response(JSON.stringify({ n: ++served }), { status: 200, headers: { 'content-type': 'application/json' } }));
  clearSession();
  setTokens({ access_token: 'a1', refresh_token: 'r1' });
});

const page = async (query: Record<string, string | number>) => (await ok(client.GET('/api/transactions', { params: { query: query as never } }))) as unknown as { n: number };

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
