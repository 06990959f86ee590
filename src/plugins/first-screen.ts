import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_TTL_S } from '../lib/tokens.ts';

/**
 * The first screen in the page itself. On a slow phone, the books' rows after the page, its
 * scripts and the API's answers are three round trips and the scripts' download away; a page the
 * server renders shows them one round trip after the tap.
 *
 * - Every answer that hands out a token pair (sign-in of any kind, refresh) also sets the cookie
 *   `ledger_page`: HttpOnly, SameSite=Strict, Path=/, Secure on https, for as long as the refresh
 *   token. It holds a token of its own purpose (`page`), bound to the user and the session, which
 *   the service accepts only here: for the HTML of a navigation to /, /books or /stats. The API
 *   never reads cookies, so the cookie gives no cross-site request any power; the page rendered
 *   with it is readable by the same origin only, and rendering it changes nothing. Signing out
 *   clears it, and a session signed out (here or everywhere) or a blocked account refuses it.
 * - With a valid cookie, those pages are rendered by the web client's own components
 *   (web/src/entry-server.ts, built into web/dist-server/), reading through the API's own routes
 *   in-process as that user, in the language of the device (its `ledger_locale` cookie, else
 *   Accept-Language) and the group it showed last (`ledger_group`, checked against the user's
 *   groups). The markup goes inside #app, marked inert until the browser's app takes over; the
 *   answers read go in a `<script type="application/json">` block (the CSP allows no inline
 *   script), which the browser's first reads take instead of asking again; the stylesheet is
 *   written into the page, one round trip less before the first paint. The page holds personal
 *   data: `Cache-Control: private, no-store`. The service worker never stores it: it caches
 *   /index.html, the plain shell.
 * - Without a cookie, or when anything fails (logged, never an error page), the plain shell.
 */

export const PAGE_COOKIE = 'ledger_page';
const PAGE_PURPOSE = 'page';
const LOCALE_COOKIE = 'ledger_locale';
const GROUP_COOKIE = 'ledger_group';
/** a render that takes longer gives the plain shell (the page is on its way either way) */
const RENDER_TIMEOUT_MS = 3000;
const PAGES: Record<string, FirstScreen> = { '/': '/books', '/books': '/books', '/stats': '/stats' };

type FirstScreen = '/books' | '/stats';
type Locale = 'en' | 'zh-CN';
interface Renderer {
  render(input: {
    path: FirstScreen;
    query: Record<string, string>;
    locale: Locale;
    group: number | null;
    read: (address: string) => Promise<{ status: number; body: unknown }>;
  }): Promise<{ html: string; title: string; user: number; reads: Record<string, unknown> }>;
  READY: Record<FirstScreen, string>;
}

/** The value of one cookie of the request, or null. */
export function cookieOf(request: FastifyRequest, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

function pageCookie(request: FastifyRequest, value: string, maxAge: number): string {
  return `${PAGE_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${request.protocol === 'https' ? '; Secure' : ''}`;
}

function localeOf(request: FastifyRequest): Locale {
  const chosen = cookieOf(request, LOCALE_COOKIE);
  if (chosen === 'en' || chosen === 'zh-CN') return chosen;
  // the browser's languages in order, as the client picks its own (web/src/i18n/index.ts)
  for (const part of (request.headers['accept-language'] ?? '').split(',')) {
    const l = part.split(';')[0]!.trim().toLowerCase();
    if (l === 'zh' || l.startsWith('zh-')) return 'zh-CN';
    if (l === 'en' || l.startsWith('en-')) return 'en';
  }
  return 'en';
}

/** JSON inside a <script> block: nothing in it can close the block or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The built page, with its stylesheets written in (read again when the build changes). */
function pageTemplate(webRoot: string): () => string | null {
  let cached: { mtime: number; html: string } | null = null;
  return () => {
    const file = path.join(webRoot, 'index.html');
    if (!existsSync(file)) return null;
    const mtime = statSync(file).mtimeMs;
    if (cached?.mtime !== mtime) {
      const html = readFileSync(file, 'utf8').replace(
        /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g,
        (_, href: string) => {
          const css = readFileSync(path.join(webRoot, href), 'utf8');
          return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
        },
      );
      cached = { mtime, html };
    }
    return cached.html;
  };
}

/** What the pages are rendered with: the built page, the renderer once loaded, and the one render at a time. */
interface Pages {
  app: FastifyInstance;
  template: () => string | null;
  // null when the renderer was not built (the plain page is then sent, without a warning per page)
  renderer: Promise<Renderer> | null;
  // the client's state lives in its modules: one page at a time
  queue: Promise<unknown>;
}

export async function registerFirstScreen(app: FastifyInstance, webRoot: string): Promise<void> {
  const serverEntry = path.join(webRoot, '..', 'dist-server', 'entry-server.js');
  const pages: Pages = { app, template: pageTemplate(webRoot), renderer: null, queue: Promise.resolve() };

  // the renderer is loaded once the server is up, not by the first page that needs it
  app.addHook('onReady', async () => {
    if (!existsSync(serverEntry)) return;
    const renderer = import(pathToFileURL(serverEntry).href) as Promise<Renderer>;
    pages.renderer = renderer;
    renderer.catch((err: unknown) => app.log.warn({ err }, 'the first screen renderer did not load'));
  });
  registerPageCookie(app);

  for (const url of Object.keys(PAGES)) {
    app.get(url, { config: { auth: 'public' }, schema: { hide: true } }, (request, reply) =>
      sendPage(pages, request, reply),
    );
  }
}

/** The cookie, set with every token pair and cleared on sign-out. */
function registerPageCookie(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    const url = request.routeOptions.url ?? '';
    if (!url.startsWith('/api/auth/') || reply.statusCode !== 200 || !payload || typeof payload !== 'object')
      return payload;
    const access = (payload as { access_token?: unknown }).access_token;
    if (typeof access !== 'string') return payload;
    const claims = await app.tokens.verifyAccess(access);
    const token = await app.tokens.signPurpose(
      PAGE_PURPOSE,
      String(claims.userId),
      REFRESH_TTL_S,
      claims.sessionId ? { sid: claims.sessionId } : {},
    );
    reply.header('set-cookie', pageCookie(request, token, REFRESH_TTL_S));
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url === '/api/auth/logout' && reply.statusCode < 400)
      reply.header('set-cookie', pageCookie(request, '', 0));
    return payload;
  });
}

/** The rendered page for a valid cookie; the plain shell without one or when rendering fails. */
async function sendPage(pages: Pages, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const screen = PAGES[request.url.split('?')[0]!]!;
  const cookie = cookieOf(request, PAGE_COOKIE);
  if (cookie) {
    try {
      const html = await renderPage(pages, request, screen, cookie);
      if (html) return reply.header('cache-control', 'private, no-store').type('text/html; charset=utf-8').send(html);
    } catch (err) {
      request.log.warn({ err }, 'the first screen was not rendered: the plain page is sent');
    }
  }
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
}

/** The page with the screen rendered into it as the cookie's user; null when the cookie or the build will not do. */
async function renderPage(
  pages: Pages,
  request: FastifyRequest,
  screen: FirstScreen,
  cookie: string,
): Promise<string | null> {
  const { app, renderer } = pages;
  const page = pages.template();
  if (!page || !renderer) return null;
  const claims = await app.tokens.verifyPurpose(cookie, PAGE_PURPOSE).catch(() => null);
  const userId = claims ? Number(claims.sub) : 0;
  if (!claims || !Number.isInteger(userId) || userId <= 0) return null;
  const sid = typeof claims.sid === 'number' ? claims.sid : undefined;
  // the API's routes as this user, within this session: its sign-out or the account's blocking
  // refuses them (40101, 40104), and the page is then the plain shell
  const access = await app.tokens.signAccess(userId, 'user', sid);
  const locale = localeOf(request);
  const read = apiReader(app, access, locale);
  const { render, READY } = await renderer;
  const query = Object.fromEntries(
    Object.entries(request.query as Record<string, unknown>).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]),
  );
  const group = Number(cookieOf(request, GROUP_COOKIE)) || null;
  const run = pages.queue.then(() => render({ path: screen, query, locale, group, read }));
  pages.queue = run.catch(() => undefined);
  const done = await withinRenderTimeout(run);
  const data = scriptJson({ user: done.user, reads: done.reads });
  return page
    .replace(/<html lang="[^"]*">/, `<html lang="${locale}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(done.title)}</title>`)
    .replace(
      '<div id="app"></div>',
      `<div id="app" inert data-first-screen="${escapeHtml(READY[screen])}">${done.html}</div>\n  <script type="application/json" id="first-screen">${data}</script>`,
    );
}

/** GET requests to the API's own routes, in-process, with this access token and language. */
function apiReader(app: FastifyInstance, access: string, locale: Locale) {
  return async (address: string) => {
    const res = await app.inject({
      method: 'GET',
      url: address,
      headers: { authorization: `Bearer ${access}`, 'accept-language': locale, accept: 'application/json' },
    });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : null };
  };
}

/** The render's result, or a failure once it has taken RENDER_TIMEOUT_MS. */
async function withinRenderTimeout<T>(run: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the first screen took more than ${RENDER_TIMEOUT_MS} ms`)),
      RENDER_TIMEOUT_MS,
    );
  });
  return Promise.race([run, timeout]).finally(() => clearTimeout(timer));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
