// The first screen rendered on the server (src/plugins/first-screen.ts), with the same components
// as in the browser: the books with their rows, or the statistics with the donut drawn as SVG, in
// the person's language and time zone. Built by `vite build --ssr` into web/dist-server/.
//
// Every read goes through a layer that hands it to the server's `read` (the API's own routes,
// called in-process with the person's identity); each answer is also returned, so that the page
// carries it and the browser's first reads take it instead of asking again (early.ts). Nothing is
// ever written: a request other than GET is refused by the layer.
//
// The client's state lives in modules (the session, the accounts, the shell): the server renders
// one page at a time (the caller serializes the calls) and puts that state back afterwards.
import { createSSRApp } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { createPinia, setActivePinia } from 'pinia';
import { createMemoryHistory, createRouter } from 'vue-router';
import App from './App.vue';
import { routes } from './router';
import { i18n, setLocale } from './i18n';
import { ok, client, readKey, useFetchLayer } from './api/client';
import { session, today, loadMe, resetSession } from './stores/session';
import { shell } from './stores/shell';
import { accountState, loadAccounts } from './features/accounts/store';
import { useTransactionsStore } from './features/transactions/store';
import { filtersFromQuery } from './features/transactions/filters';
import { useStatsStore } from './features/stats/store';
import { defaultChoice } from './features/stats/query';
import type { AppLocale } from './lib/format';

export type FirstScreen = '/books' | '/stats';

export interface RenderInput {
  path: FirstScreen;
  query: Record<string, string>;
  locale: AppLocale;
  /** the group whose books the browser showed last (its cookie), when it is still one of the person's */
  group: number | null;
  /** a GET of the API as the person: its status and body */
  read: (address: string) => Promise<{ status: number; body: unknown }>;
}

export interface Rendered {
  /** the markup of #app */
  html: string;
  title: string;
  /** the person's id and the answers read, by address, for the browser's first reads */
  user: number;
  reads: Record<string, unknown>;
}

/** What the browser waits for in its own render before it takes over from the server's markup. */
export const READY: Record<FirstScreen, string> = {
  '/books': '[data-testid="tx-row"], .empty',
  '/stats': '[data-testid="donut"], [data-testid="share-empty"]',
};

function reset(): void {
  resetSession();
  shell.unread = 0;
  accountState.list = null;
  accountState.netWorth = 0;
  accountState.baseCurrency = '';
  accountState.missingRates = [];
}

export async function render(input: RenderInput): Promise<Rendered> {
  const reads: Record<string, unknown> = {};
  const pending = new Set<Promise<unknown>>();
  let open = true;
  useFetchLayer(async (req) => {
    if (!open || req.method !== 'GET') return new Response(null, { status: 405 });
    const key = readKey(new URL(req.url));
    const read = input.read(key);
    pending.add(read);
    const { status, body } = await read.finally(() => pending.delete(read));
    if (status === 200) reads[key] = body;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  reset();
  try {
    setLocale(input.locale, false);
    session.signedIn = true;
    const [me, groups, unread] = await Promise.all([
      loadMe(),
      ok(client.GET('/api/groups')),
      ok(client.GET('/api/notifications/unread-count')).catch(() => null),
    ]);
    session.groups = groups.list;
    session.groupId = groups.list.some((g) => g.id === input.group) ? input.group : null;
    shell.unread = unread?.count ?? 0;

    const pinia = createPinia();
    setActivePinia(pinia);
    if (input.path === '/books') {
      const books = useTransactionsStore();
      await Promise.all([
        books.show(filtersFromQuery(input.query, today()), session.groupId),
        books.loadSavedFilters(),
        books.showMembers(session.groupId),
        loadAccounts(),
      ]);
      if (books.error) throw books.error;
    } else {
      const stats = useStatsStore();
      await Promise.all([stats.show(defaultChoice(today(), session.groupId)), loadAccounts()]);
      if (stats.error) throw stats.error;
    }

    const router = createRouter({ history: createMemoryHistory(), routes });
    const search = new URLSearchParams(input.query).toString();
    await router.push(search ? `${input.path}?${search}` : input.path);
    await router.isReady();
    const app = createSSRApp(App).use(pinia).use(i18n).use(router);
    const html = await renderToString(app);
    const t = i18n.global.t;
    const name = router.currentRoute.value.meta.title;
    const title = name ? `${t(String(name))} · ${t('app.name')}` : t('app.name');
    return { html, title, user: me.id, reads };
  } finally {
    // reads the components started and the render did not wait for (a view's own start) end
    // here, before the state is put back; any later one is refused
    open = false;
    while (pending.size) await Promise.allSettled([...pending]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    reset();
  }
}
