import { createMemoryHistory, createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router';
import { session, loadMe, loadGroups, ensureConfig, isAdmin } from './stores/session';
import { client, getTokens } from './api/client';
import TransactionsView from './features/transactions/components/TransactionsView.vue';

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/books' },
  {
    path: '/signin',
    name: 'signin',
    component: () => import('./features/identity/components/SignInView.vue'),
    meta: { public: true, title: 'signin.title' },
  },
  // where the OpenID Provider sends the browser back (the redirect URI: PUBLIC_URL + /signin/oidc)
  {
    path: '/signin/oidc',
    name: 'oidc-callback',
    component: () => import('./features/oidc/components/OidcCallbackView.vue'),
    meta: { public: true, title: 'signin.title' },
  },
  { path: '/books', name: 'books', component: TransactionsView, meta: { title: 'nav.books', grouped: true } },
  // statistics (ECharts) and administration load on demand
  {
    path: '/stats',
    name: 'stats',
    component: () => import('./features/stats/components/StatsView.vue'),
    meta: { title: 'nav.stats', grouped: true },
  },
  {
    path: '/accounts',
    name: 'accounts',
    component: () => import('./features/accounts/components/AccountsView.vue'),
    meta: { title: 'nav.accounts' },
  },
  {
    path: '/budget',
    name: 'budget',
    component: () => import('./features/budget/components/BudgetView.vue'),
    meta: { title: 'nav.budget', grouped: true },
  },
  {
    path: '/recurring',
    name: 'recurring',
    component: () => import('./features/recurring/components/RecurringView.vue'),
    meta: { title: 'nav.recurring' },
  },
  {
    path: '/categories',
    name: 'categories',
    component: () => import('./features/categories/components/CategoriesView.vue'),
    meta: { title: 'nav.categories' },
  },
  {
    path: '/groups/:id(\\d+)/settings',
    name: 'groupSettings',
    component: () => import('./features/groups/components/GroupSettingsView.vue'),
    meta: { title: 'nav.groupSettings' },
  },
  {
    path: '/groups/:id(\\d+)/balances',
    name: 'balances',
    component: () => import('./features/groups/components/BalancesView.vue'),
    meta: { title: 'nav.balances' },
  },
  {
    path: '/groups',
    name: 'groups',
    component: () => import('./features/groups/components/GroupsView.vue'),
    meta: { title: 'nav.groups' },
  },
  {
    path: '/notifications',
    name: 'notifications',
    component: () => import('./features/notifications/components/NotificationsView.vue'),
    meta: { title: 'nav.notifications' },
  },
  {
    path: '/feedback',
    name: 'feedback',
    component: () => import('./features/feedback/components/FeedbackView.vue'),
    meta: { title: 'nav.feedback' },
  },
  {
    path: '/import',
    name: 'billImport',
    component: () => import('./features/import/components/BillImportView.vue'),
    meta: { title: 'nav.billImport' },
  },
  {
    path: '/import/rules',
    name: 'importRules',
    component: () => import('./features/import/components/ImportRulesView.vue'),
    meta: { title: 'nav.importRules' },
  },
  {
    path: '/data',
    name: 'data',
    component: () => import('./features/import/components/DataView.vue'),
    meta: { title: 'nav.data' },
  },
  {
    path: '/security',
    name: 'security',
    component: () => import('./features/identity/components/SecurityView.vue'),
    meta: { title: 'nav.security' },
  },
  {
    path: '/webhooks',
    name: 'webhooks',
    component: () => import('./features/webhooks/components/WebhooksView.vue'),
    meta: { title: 'webhooks.title' },
  },
  {
    path: '/profile',
    name: 'profile',
    component: () => import('./features/identity/components/ProfileView.vue'),
    meta: { title: 'nav.profile' },
  },
  {
    path: '/me',
    name: 'me',
    component: () => import('./features/identity/components/MeView.vue'),
    meta: { title: 'nav.me' },
  },
  {
    path: '/rates',
    name: 'rates',
    component: () => import('./features/rates/components/RatesView.vue'),
    meta: { title: 'rates.title' },
  },
  {
    path: '/admin/:tab?',
    name: 'admin',
    component: () => import('./features/admin/components/AdminView.vue'),
    meta: { title: 'nav.admin', admin: true },
  },
  {
    path: '/accounts/:id(\\d+)',
    name: 'account',
    component: () => import('./features/accounts/components/AccountView.vue'),
    meta: { title: 'nav.accounts' },
  },
  {
    path: '/setup',
    name: 'setup',
    component: () => import('./features/setup/components/SetupView.vue'),
    meta: { title: 'setup.title' },
  },
  // an invite link: the join form with its code filled in (after signing in when needed)
  {
    path: '/join/:code([A-Za-z0-9]{8})',
    redirect: (to) => ({ path: '/groups', query: { join: String(to.params.code) } }),
  },
  { path: '/:rest(.*)*', redirect: '/books' },
];

// the server renders a page with a router of its own (entry-server.ts): this one, with its guards,
// is the browser's
export const router = createRouter({
  history: import.meta.env.SSR ? createMemoryHistory() : createWebHistory(),
  routes,
});

router.beforeEach(async (to) => {
  // the sign-in page needs the configuration (its ways to sign in); a signed-in page does not wait for it
  const config = session.config ? null : ensureConfig();
  if (to.meta.public) {
    await config;
    return true;
  }
  if (!getTokens()) return { name: 'signin', query: to.fullPath !== '/books' ? { next: to.fullPath } : {} };
  if (!session.me) {
    try {
      await Promise.all([loadMe(), loadGroups()]);
    } catch {
      if (!getTokens()) return { name: 'signin' };
    }
  }
  if (to.meta.admin && !isAdmin.value) return { name: 'books' };
  return true;
});

router.afterEach((to) => {
  if (!to.meta.public && getTokens()) {
    void client
      .POST('/api/track', { body: { event_type: 'page_view', page: to.path, data: {} } })
      .catch(() => undefined);
  }
});
