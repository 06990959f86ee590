// The web client on a slow phone: Chromium throttled through the DevTools protocol to "Fast 3G"
// (150 ms round trip × 3.75 = 562.5 ms latency, 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up, as
// DevTools and Lighthouse define it) and a CPU 4 times slower, cache empty, already signed in (the
// tokens and the cookies of a sign-in). Measures, from the start of the navigation, the first
// screen (the books with their rows) and the statistics page (its donut drawn), each opened cold,
// as shown (the server may render them into the page) and as answering taps (the app's own screen,
// `interactive`); and the same with compression refused by the
// browser (Accept-Encoding: identity) as the limit without it. Targets: first screen <= 1.5 s,
// statistics <= 2 s; and a 5,000-row bill's first cards in the import review <= 1 s after the
// preview's answer. `npm run bench -- web-throttled` (the web client is built first when stale).
import type { Browser, Cookie, Page } from 'playwright-core';
// @ts-expect-error: a plain ES module script without type declarations
import { ensureWebBuild } from '../scripts/build-web.mjs';
import { reviewBigBill } from '../test/e2e/big-bill.ts';
import { ADMIN_OPENID, PHONE, launchBrowser, openTab, signInWechat, startServer } from '../test/e2e/harness.ts';
import { median } from './lib.ts';

const PORT = Number(process.env.BENCH_WEB_PORT ?? 3395);
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
};
const CPU_SLOWDOWN = 4;
/** the donut drawn: by the browser on a canvas, or by the server as SVG in the page */
const DONUT = '[data-testid="donut"] canvas, [data-testid="donut"] svg';

interface SignedIn {
  tokens: string;
  /** the browser's cookies after sign-in: the first-page cookie the server renders the first screen with */
  cookies: Cookie[];
}

/** Where a cold open spent its time, in ms from the navigation's start. */
interface Timeline {
  /** the page's first byte and its last */
  html_first_byte: number;
  html_received: number;
  /** the stylesheet loaded (0: written into the page) */
  css: number;
  first_paint: number;
  /** the frame that shows the screen: the first after its element is in the page */
  shown: number;
  /** the app's main script loaded */
  app_script: number;
  /** the app's own screen in place, answering taps */
  interactive: number;
}

async function coldOpen(
  browser: Browser,
  base: string,
  who: SignedIn,
  path: string,
  ready: string,
  compressed: boolean,
): Promise<{ ms: number; interactive_ms: number; bytes: number; timeline: Timeline }> {
  const context = await browser.newContext({ baseURL: base, viewport: PHONE, locale: 'zh-CN' });
  try {
    await context.addInitScript((t) => localStorage.setItem('ledger.tokens', t), who.tokens);
    // the frame in which the screen first shows, whoever put it in the page (the server or the app)
    // (a frame's callbacks run before it is painted, and only once the page renders at all; the
    // script is text, as the browser gets it: no helper of the TypeScript loader in it)
    // The same for the app's own screen (not the server's inert markup): the page is interactive.
    const own = `#app:not([inert]) :is(${ready})`;
    await context.addInitScript({
      content: `(function frame(at) {
        if (at !== undefined && window.__shown === undefined && document.querySelector(${JSON.stringify(ready)})) window.__shown = at;
        if (at !== undefined && document.querySelector(${JSON.stringify(own)})) window.__interactive = at;
        else requestAnimationFrame(frame);
      })();`,
    });
    await context.addCookies(who.cookies);
    const page: Page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    if (!compressed) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    let bytes = 0;
    cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => (bytes += e.encodedDataLength));
    await page.goto(path, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __interactive?: number }).__interactive !== undefined,
      undefined,
      { timeout: 60_000 },
    );
    const timeline = await page.evaluate((): Timeline => {
      const w = window as unknown as { __shown: number; __interactive: number };
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const css = resources.find((r) => r.name.endsWith('.css'));
      const app = resources.find((r) => /\/assets\/index-[\w-]+\.js$/.test(r.name));
      const paint =
        performance.getEntriesByName('first-paint')[0] ?? performance.getEntriesByName('first-contentful-paint')[0];
      return {
        html_first_byte: Math.round(nav.responseStart),
        html_received: Math.round(nav.responseEnd),
        css: Math.round(css?.responseEnd ?? 0),
        first_paint: Math.round(paint?.startTime ?? 0),
        shown: Math.round(w.__shown),
        app_script: Math.round(app?.responseEnd ?? 0),
        interactive: Math.round(w.__interactive),
      };
    });
    return { ms: timeline.shown, interactive_ms: timeline.interactive, bytes, timeline };
  } finally {
    await context.close();
  }
}

/**
 * A 5,000-row WeChat Pay bill reviewed on the phone (CPU 4x slower, no network throttling: the rows come in pages as
 * the list scrolls): from the preview's answer to the frame that painted the first cards, each run a fresh person.
 */
async function importReview(browser: Browser, base: string) {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const tab = await openTab(browser, base, { locale: 'zh-CN', viewport: PHONE });
    try {
      await signInWechat(tab.page, `bench-review-${i}`);
      runs.push((await reviewBigBill(tab, 5000)).firstCardMs);
    } finally {
      await tab.context.close();
    }
  }
  return { median_ms: Math.round(median(runs)), runs_ms: runs.map(Math.round) };
}

export async function run() {
  await (ensureWebBuild as () => Promise<boolean>)();
  const server = await startServer(PORT);
  const browser = await launchBrowser();
  try {
    // a signed-in user with a month of rows in several categories
    const setup = await browser.newContext({ baseURL: server.base, viewport: PHONE, locale: 'zh-CN' });
    const page = await setup.newPage();
    await signInWechat(page, ADMIN_OPENID);
    const tokens = await page.evaluate(async () => {
      const t = localStorage.getItem('ledger.tokens')!;
      const auth = {
        authorization: `Bearer ${(JSON.parse(t) as { access_token: string }).access_token}`,
        'content-type': 'application/json',
      };
      const cats = (await (await fetch('/api/categories?kind=expense', { headers: auth })).json()) as {
        list: { id: number }[];
      };
      const today = new Date();
      const rows = Array.from({ length: 60 }, (_, i) => ({
        kind: 'expense',
        amount: 10 + ((i * 37) % 200),
        category_id: cats.list[i % Math.min(6, cats.list.length)]!.id,
        date: new Date(today.getTime() - (i % 20) * 86_400_000).toISOString().slice(0, 10),
        note: `row ${i}`,
      }));
      for (const r of rows)
        await fetch('/api/transactions', { method: 'POST', headers: auth, body: JSON.stringify(r) });
      return t;
    });
    const who: SignedIn = { tokens, cookies: await setup.cookies() };
    // a running service has rendered these pages before: the first render of a fresh process
    // (its code compiled on first use) is not what a phone waits for
    for (const path of ['/books', '/stats']) await setup.request.get(path);
    await setup.close();

    const measure = async (path: string, ready: string, compressed: boolean) => {
      const runs: { ms: number; interactive_ms: number; bytes: number; timeline: Timeline }[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await coldOpen(browser, server.base, who, path, ready, compressed));
      const timeline = Object.fromEntries(
        (Object.keys(runs[0]!.timeline) as (keyof Timeline)[]).map((k) => [
          k,
          Math.round(median(runs.map((r) => r.timeline[k]))),
        ]),
      );
      return {
        median_ms: Math.round(median(runs.map((r) => r.ms))),
        runs_ms: runs.map((r) => Math.round(r.ms)),
        interactive_median_ms: Math.round(median(runs.map((r) => r.interactive_ms))),
        median_timeline_ms: timeline,
        transferred_kb: Math.round(median(runs.map((r) => r.bytes)) / 1024),
      };
    };
    const firstScreen = await measure('/books', '[data-testid="tx-row"]', true);
    const stats = await measure('/stats', DONUT, true);
    const firstScreenPlain = await measure('/books', '[data-testid="tx-row"]', false);
    const statsPlain = await measure('/stats', DONUT, false);
    const review = await importReview(browser, server.base);
    return {
      conditions: `Fast 3G (562.5 ms, ${Math.round(FAST_3G.downloadThroughput / 1024)} KB/s down), CPU ${CPU_SLOWDOWN}x slower, cold cache, ${RUNS} runs each`,
      first_screen: { ...firstScreen, target_ms: 1500, met: firstScreen.median_ms <= 1500 },
      statistics: { ...stats, target_ms: 2000, met: stats.median_ms <= 2000 },
      without_compression: { first_screen: firstScreenPlain, statistics: statsPlain },
      import_review: { ...review, target_ms: 1000, met: review.median_ms <= 1000 },
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
