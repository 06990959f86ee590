import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { monthRange, todayIn } from './lib/dates';

// the statistics page's code is only fetched early; its evaluation is not what is tested here
vi.mock('./features/stats/components/StatsView.vue', () => ({ default: {} }));

function memoryStorage(entries: Record<string, string>): Storage {
  const s = { ...entries } as Record<string, string>;
  Object.defineProperties(s, {
    getItem: { value: (k: string) => (k in s ? s[k] : null) },
    setItem: { value: (k: string, v: string) => void (s[k] = String(v)) },
    removeItem: { value: (k: string) => void delete s[k] },
  });
  return s as unknown as Storage;
}

const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
const TOKENS = JSON.stringify({ access_token: 'a1', refresh_token: 'r1' });

/** Opens `address` with `stored` in localStorage; answers the reads started, as path and query. */
async function start(
  address: string,
  stored: Record<string, string>,
): Promise<{ path: string; query: Record<string, string>; auth: string | null }[]> {
  vi.resetModules();
  fetchMock.mockClear();
  vi.stubGlobal('location', new URL(address, 'http://app.test'));
  vi.stubGlobal('localStorage', memoryStorage(stored));
  vi.stubGlobal('fetch', fetchMock);
  await import('./early');
  return (fetchMock.mock.calls as unknown as [URL, RequestInit][]).map(([url, init]) => ({
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    auth: new Headers(init.headers).get('Authorization'),
  }));
}

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-30T20:00:00Z'), toFake: ['Date'] }));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the reads a page starts before the app has loaded', () => {
  it('are the profile, the groups and the first page of the books as the address filters them, in the group shown last', async () => {
    const reads = await start('/books?kind=expense&keyword=tea', {
      'ledger.tokens': TOKENS,
      'ledger.group': '7',
      'ledger.timezone': 'Asia/Shanghai',
    });
    expect(reads.map((r) => r.path)).toEqual(['/api/me', '/api/groups', '/api/transactions']);
    expect(reads.every((r) => r.auth === 'Bearer a1')).toBe(true);
    // 20:00 UTC on the 30th is already the 1st of December in Shanghai
    expect(reads[2]!.query).toEqual({
      startDate: '2026-12-01',
      endDate: '2026-12-31',
      kind: 'expense',
      keyword: 'tea',
      sort: 'date_desc',
      group_id: '7',
      page: '1',
      pageSize: '20',
    });
  });

  it("take the month of the browser before the person's time zone is known", async () => {
    const reads = await start('/', { 'ledger.tokens': TOKENS });
    const { start: first, end } = monthRange(todayIn());
    expect(reads[2]!.query).toMatchObject({ startDate: first, endDate: end, kind: 'all' });
    expect(reads[2]!.query.group_id).toBeUndefined();
  });

  it('are the month summary of the expense and its budget on the statistics page', async () => {
    const reads = await start('/stats', { 'ledger.tokens': TOKENS, 'ledger.timezone': 'Asia/Shanghai' });
    expect(reads.slice(2)).toEqual([
      {
        path: '/api/stats/summary',
        query: { period: 'month', type: 'expense', date: '2026-12-01' },
        auth: 'Bearer a1',
      },
      { path: '/api/budget', query: { month: '2026-12' }, auth: 'Bearer a1' },
    ]);
  });

  it('are only the profile and the groups on another page', async () => {
    const reads = await start('/budget', { 'ledger.tokens': TOKENS });
    expect(reads.map((r) => r.path)).toEqual(['/api/me', '/api/groups']);
  });

  it('are only the public configuration without a session', async () => {
    const reads = await start('/books', {});
    expect(reads).toEqual([{ path: '/api/config', query: {}, auth: null }]);
  });
});
