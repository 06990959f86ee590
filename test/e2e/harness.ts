// Starts the real server (embedded database, a fresh data folder) and Debian's Chromium for the
// browser tests, and collects what a page logs so that a test can insist on a clean console.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { entryArgs } from '../helpers/entry.ts';
import { startFakeWechat } from '../helpers/wechat.ts';

export const ADMIN_OPENID = 'e2e-admin';
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 860 };

export interface Server {
  base: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The real server (compiled, or from the sources when dist/ is stale) on `port`, WeChat sign-in answered by a local
 * stand-in. `env` adds or overrides settings; `host` is the name the browser uses (passkeys need `localhost`).
 */
export async function startServer(port: number, env: Record<string, string> = {}, host = '127.0.0.1'): Promise<Server> {
  // a server left over from another run would answer the health check in this one's place
  const taken = await fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is already in use by another process`);
  const wechat = await startFakeWechat();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-e2e-'));
  const child: ChildProcess = spawn(process.execPath, entryArgs('server'), {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET: 'e2e-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'warn',
      WECHAT_APPID: 'wx-e2e',
      WECHAT_SECRET: 'wx-e2e-secret',
      WECHAT_API_BASE: wechat.base,
      ADMIN_OPENIDS: ADMIN_OPENID,
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://${host}:${port}`;
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('the server did not answer within 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    // a server that starts after all must not stay behind holding the port for the next run
    child.kill('SIGKILL');
    await wechat.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    base,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await wechat.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** console errors, page errors and failed requests seen so far */
  problems: string[];
}

export interface TabOptions {
  locale?: string;
  viewport?: { width: number; height: number };
  /**
   * The installed app's service worker precaches the whole client in every new context; tabs keep it
   * out unless a test is about it (offline, updates, the share target): `'allow'`.
   */
  serviceWorkers?: 'allow' | 'block';
}

/**
 * How long a test waits for what it expects (an element, an address, a condition) before it fails.
 * Generous: a passing test never waits it out, and a machine busy with other work (CI runs the
 * browser tests beside the database suites) may take several times as long as an idle one.
 */
export const WAIT_MS = 30_000;

export async function openTab(browser: Browser, base: string, opts: TabOptions = {}): Promise<Tab> {
  const serviceWorkers = opts.serviceWorkers ?? 'block';
  const context = await browser.newContext({
    baseURL: base,
    locale: opts.locale ?? 'en-US',
    viewport: opts.viewport ?? DESKTOP,
    acceptDownloads: true,
    serviceWorkers,
  });
  context.setDefaultTimeout(WAIT_MS);
  await context.addInitScript({ content: TOAST_LOG });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    // the app asks for its service worker on every page; a tab that keeps it out is told so, and that is all
    if (serviceWorkers === 'block' && m.text() === 'Service Worker registration blocked by Playwright') return;
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return { context, page, problems };
}

/** The server and the browser of a describe block, with tabs on them. */
export interface Live {
  readonly server: Server;
  readonly browser: Browser;
  /** a new tab in a context of its own (a person of its own) */
  openTab(opts?: TabOptions): Promise<Tab>;
  /** a new tab, signed in with WeChat as `openid` */
  signedInTab(openid: string, opts?: TabOptions): Promise<Tab>;
}

/**
 * Starts the server (as `startServer`) and the browser before the tests of the describe block it
 * is called in, and stops them after them. Hooks the block registers later run after the start.
 */
export function serverAndBrowser(port: number, env: Record<string, string> = {}, host?: string): Live {
  let server: Server | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await startServer(port, env, host);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  const live: Live = {
    get server() {
      if (!server) throw new Error('the server is not started yet: use it in a test or a later hook');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not started yet: use it in a test or a later hook');
      return browser;
    },
    openTab: (opts) => openTab(live.browser, live.server.base, opts),
    async signedInTab(openid, opts) {
      const tab = await live.openTab(opts);
      await signInWechat(tab.page, openid);
      return tab;
    },
  };
  return live;
}

/** Serious or critical accessibility violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

/** Signs in with a WeChat code through the sign-in page (the local stand-in accepts ok-<openid>). */
export async function signInWechat(page: Page, openid: string): Promise<void> {
  await page.goto('/signin');
  await page.locator('input[name="code"]').fill(`ok-${openid}`);
  await page.getByTestId('wechat-form').locator('button[type="submit"]').click();
  await page.waitForURL(/\/books/);
}

/** Signs in with a username and password through the sign-in page. */
export async function signInPassword(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/signin');
  const form = page.getByTestId('password-form');
  await form.locator('input[name="username"]').fill(username);
  await form.locator('input[name="password"]').fill(password);
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/books/);
}

let shotsDir: string | undefined;

/**
 * Where the screenshot `name` is written. With E2E_SCREENSHOTS=1 it is docs/screenshots/, the
 * pictures of the README; otherwise a temporary folder removed when the run ends, so that a run
 * leaves the checkout as it found it.
 */
export function screenshotPath(name: string): string {
  if (process.env.E2E_SCREENSHOTS === '1') {
    mkdirSync('docs/screenshots', { recursive: true });
    return path.join('docs/screenshots', name);
  }
  if (!shotsDir) {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-e2e-shots-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    shotsDir = dir;
  }
  return path.join(shotsDir, name);
}

/**
 * Every toast the page shows, kept in `window.__toasts` as it is added: a toast stays a few seconds, and a machine
 * busy with other work may let them pass between two looks at the page (the script is text, as the browser gets it).
 */
const TOAST_LOG = `(() => {
  const seen = (window.__toasts = []);
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes)
        if (n.nodeType === 1 && n.matches('.toast')) seen.push((n.textContent || '').trim());
  }).observe(document, { childList: true, subtree: true });
})();`;

/**
 * Waits until the page has shown a toast whose text contains `text` since the last one this matched (each call takes
 * one), whether or not it is still on the screen.
 */
export async function toastShown(page: Page, text: string): Promise<void> {
  await until(
    () =>
      page.evaluate((t) => {
        const seen = (window as unknown as { __toasts?: string[] }).__toasts ?? [];
        const i = seen.findIndex((s) => s.includes(t));
        if (i < 0) return false;
        seen.splice(0, i + 1);
        return true;
      }, text),
    `the toast "${text}"`,
  );
}

/**
 * Polls `check` until it holds (a list being reloaded, a chart redrawn), at most `ms`; on a timeout
 * the error says what `state` read then (what the screen showed instead).
 */
export async function until(
  check: () => Promise<boolean>,
  what: string,
  ms = WAIT_MS,
  state?: () => Promise<unknown>,
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) {
      const seen = state ? await state().catch((e: Error) => `unreadable: ${e.message}`) : undefined;
      throw new Error(`timed out waiting for ${what}${state ? `; instead: ${JSON.stringify(seen)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the focused element is the field of this name (a form focuses it as it opens). */
export async function untilFocused(page: Page, name: string): Promise<void> {
  await until(
    async () => (await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)) === name,
    `the field ${name} focused`,
  );
}

/** A call to the API as the person signed in on `page` (with the tokens the app keeps); fails on an error answer. */
export async function apiAs<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const out = await page.evaluate(
    async ([m, p, b]) => {
      const tokens = JSON.parse(localStorage.getItem('ledger.tokens') ?? '{}') as { access_token?: string };
      const res = await fetch(p as string, {
        method: m as string,
        headers: {
          Authorization: `Bearer ${tokens.access_token}`,
          ...(b === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, text: await res.text() };
    },
    [method, path, body] as const,
  );
  if (out.status >= 300) throw new Error(`${method} ${path}: ${out.status} ${out.text}`);
  return (out.text ? JSON.parse(out.text) : null) as T;
}
