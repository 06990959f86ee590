// The offline web app, in Chromium against the local server (needs the built client):
// 1. Warm start: a phone (390x844) that has opened the books before starts them again from the
//    service worker on the throttled phone profile (4x CPU slowdown, DevTools' "Fast 3G": 562.5 ms
//    round trip, 180 kB/s down, 84 kB/s up). Figure: from navigation to the first row of the books
//    painted, median of 5. Target: <= 500 ms. For reference, the same page on the same profile
//    without service worker and cache (a first visit, signed in).
// 2. Sync: 200 creates waiting in the outbox are sent when the network comes back. Figure: from
//    the network's return to an empty outbox, with the server holding exactly 200 new rows.
//    Target: <= 5 s.
import type { BrowserContext, Page } from 'playwright-core';
import { PHONE, launchBrowser, signInWechat, startServer } from '../test/e2e/harness.ts';
import { median } from './lib.ts';

const PORT = Number(process.env.BENCH_OFFLINE_PORT ?? 3392);
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 };

async function firstRowAt(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  // performance.now() counts from the navigation's start
  const handle = await page.waitForFunction(
    () => (document.querySelector('[data-testid="tx-row"]') ? performance.now() : 0),
    null,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', FAST_3G);
}

async function api(base: string, openid: string) {
  const login = (await (
    await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: `ok-${openid}` }),
    })
  ).json()) as { access_token: string; user: { id: number } };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${login.access_token}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  return { id: login.user.id, token: login.access_token, call };
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export async function run() {
  const server = await startServer(PORT);
  const browser = await launchBrowser();
  try {
    // ---- warm start ----
    const a = await api(server.base, 'bench-offline-warm');
    const cats = (await a.call('GET', '/api/categories?kind=expense')) as { list: { id: number }[] };
    for (let i = 0; i < 60; i++) {
      await a.call('POST', '/api/transactions', {
        kind: 'expense',
        amount: String(10 + i),
        category_id: cats.list[i % cats.list.length]!.id,
        date: today(),
        note: `row ${i}`,
      });
    }
    const warm = await browser.newContext({
      baseURL: server.base,
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
    });
    const page = await warm.newPage();
    await signInWechat(page, 'bench-offline-warm');
    await page.locator('[data-testid="tx-row"]').first().waitFor();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await page.reload();
    await page.locator('[data-testid="tx-row"]').first().waitFor();
    await throttle(warm, page);
    const warmRuns: number[] = [];
    for (let i = 0; i < 5; i++) warmRuns.push(await firstRowAt(page, '/books'));
    // where the last warm start spent its time (ms from the navigation's start)
    const breakdown = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) =>
        /\/assets\/.*\.js$/.test(r.name),
      );
      return {
        page_from_sw: Math.round(nav.responseEnd),
        scripts_loaded: Math.round(Math.max(0, ...scripts.map((r) => r.responseEnd))),
        dom_content_loaded: Math.round(nav.domContentLoadedEventEnd),
      };
    });

    // the reference: the same person's first visit in a browser without service worker and cache
    const cold = await browser.newContext({
      baseURL: server.base,
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
      serviceWorkers: 'block',
    });
    const coldPage = await cold.newPage();
    await signInWechat(coldPage, 'bench-offline-warm');
    await coldPage.locator('[data-testid="tx-row"]').first().waitFor();
    const coldCdp = await cold.newCDPSession(coldPage);
    await coldCdp.send('Network.clearBrowserCache');
    await throttle(cold, coldPage);
    const coldRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      await coldCdp.send('Network.clearBrowserCache');
      coldRuns.push(await firstRowAt(coldPage, '/books'));
    }
    await cold.close();
    await warm.close();

    // ---- sync of 200 waiting creates ----
    const b = await api(server.base, 'bench-offline-sync');
    const cat = ((await b.call('GET', '/api/categories?kind=expense')) as { list: { id: number }[] }).list[0]!.id;
    const ctx = await browser.newContext({ baseURL: server.base, viewport: PHONE });
    const p = await ctx.newPage();
    await signInWechat(p, 'bench-offline-sync');
    await p.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await ctx.setOffline(true);
    const N = 200;
    // the outbox as the add form leaves it: one create a row, each with its own key
    await p.evaluate(
      async ({ user, cat, date, n }) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open(`ledger-offline-${user}`);
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('outbox', 'readwrite');
          for (let i = 0; i < n; i++) {
            tx.objectStore('outbox').put({
              kind: 'create',
              key: `bench-${i}-${crypto.randomUUID()}`,
              target: -(i + 1),
              at: Date.now(),
              attempts: 0,
              state: 'queued',
              refusal: null,
              body: {
                kind: 'expense',
                amount: (1 + i / 100).toFixed(2),
                category_id: cat,
                date,
                note: `bench ${i}`,
                tag_ids: [],
              },
            });
          }
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      },
      { user: b.id, cat, date: today(), n: N },
    );
    const left = () =>
      p.evaluate(async (user) => {
        const db = await new Promise<IDBDatabase>((resolve) => {
          const req = indexedDB.open(`ledger-offline-${user}`);
          req.onsuccess = () => resolve(req.result);
        });
        const count = await new Promise<number>((resolve) => {
          const req = db.transaction('outbox').objectStore('outbox').count();
          req.onsuccess = () => resolve(req.result);
        });
        db.close();
        return count;
      }, b.id);
    const t0 = performance.now();
    await ctx.setOffline(false);
    while ((await left()) > 0) {
      if (performance.now() - t0 > 120_000) throw new Error('the outbox was not sent within 120 s');
      await new Promise((r) => setTimeout(r, 25));
    }
    const syncMs = performance.now() - t0;
    const onServer = ((await b.call('GET', '/api/transactions?keyword=bench&pageSize=1')) as { total: number }).total;
    await ctx.close();
    if (onServer !== N) throw new Error(`the server holds ${onServer} rows, expected ${N}`);

    // the limit in the same run: the same 200 creates with their keys straight from Node, 8 at a time
    const c = await api(server.base, 'bench-offline-limit');
    const catC = ((await c.call('GET', '/api/categories?kind=expense')) as { list: { id: number }[] }).list[0]!.id;
    const l0 = performance.now();
    for (let i = 0; i < N; i += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, N - i) }, (_, j) =>
          fetch(`${server.base}/api/transactions`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${c.token}`,
              'Content-Type': 'application/json',
              'Idempotency-Key': `limit-${i + j}`,
            },
            body: JSON.stringify({
              kind: 'expense',
              amount: '1.00',
              category_id: catC,
              date: today(),
              note: `limit ${i + j}`,
              tag_ids: [],
            }),
          }).then((r) => r.text()),
        ),
      );
    }
    const limitMs = performance.now() - l0;

    return {
      warm_start_books_ms: {
        median: Math.round(median(warmRuns)),
        runs: warmRuns.map(Math.round),
        target: 500,
        last_run: breakdown,
      },
      first_visit_books_ms_same_profile: { median: Math.round(median(coldRuns)), runs: coldRuns.map(Math.round) },
      sync_200_ops_ms: {
        total: Math.round(syncMs),
        per_op: Number((syncMs / N).toFixed(1)),
        rows_on_server: onServer,
        target: 5000,
      },
      limit_200_creates_from_node_ms: Math.round(limitMs),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
