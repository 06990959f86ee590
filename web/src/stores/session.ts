// State shared between views: the signed-in user, their groups and the selected book, the
// server's public configuration, and cached categories and tags. Nothing else is global.
import { computed, reactive, watch } from 'vue';
import { client, ok, clearSession, getTokens, setTokens } from '../api/client';
import { identityApi } from '../features/identity/api';
import { forgetSessionData } from '../lib/session-end';
import type { Category, ClientConfig, Group, Me, Tag } from '../api/types';
import { todayIn } from '../lib/dates';
import { beforeSignOut } from '../features/offline/signout';
import { SAVED_GROUP, savedGroup, savePageCookie, saveTimezone } from './saved';

/** The shell's hook for a session the service ended (a final 401): back to sign-in. */
export { onSignedOut } from '../api/client';

export const session = reactive({
  me: null as Me | null,
  groups: [] as Group[],
  groupId: null as number | null,
  config: null as ClientConfig | null,
  categories: null as Category[] | null,
  tags: null as Tag[] | null,
  signedIn: !!getTokens(),
});

/** The signed-in user's base currency: statistics, budgets and net worth are in it. */
export const currency = computed(() => session.me?.base_currency ?? session.config?.default_currency ?? 'CNY');
export const currentGroup = computed(() => session.groups.find((g) => g.id === session.groupId) ?? null);
/** The currency a group of the person's keeps its books in (undefined for a group not in their list). */
export const groupCurrency = (id: number): string | undefined => session.groups.find((g) => g.id === id)?.currency;
export const isAdmin = computed(() => session.me?.role === 'admin');

// "today" at the next start is the person's own before their profile has answered (early.ts)
watch(
  () => session.me?.timezone,
  (tz) => {
    if (session.me && !import.meta.env.SSR) saveTimezone(tz ?? null);
  },
);

// "today" is asked for again and again while the books render (their filters, the default month),
// and each answer makes a date formatter, which adds up on a slow phone's first screen: the day is
// kept for a second, for the same time zone
let day = { timezone: undefined as string | null | undefined, until: 0, value: '' };

export function today(): string {
  const timezone = session.me?.timezone;
  const now = Date.now();
  if (timezone !== day.timezone || now >= day.until) day = { timezone, until: now + 1000, value: todayIn(timezone) };
  return day.value;
}

export async function loadConfig(): Promise<ClientConfig> {
  session.config = await identityApi.config();
  return session.config;
}

let configRead: Promise<unknown> | null = null;
/** Reads the configuration once (a failed read is tried again at the next call). */
export function ensureConfig(): Promise<unknown> {
  configRead ??= loadConfig().catch(() => {
    configRead = null;
  });
  return configRead;
}

export function selectGroup(id: number | null): void {
  session.groupId = id;
  if (id) localStorage.setItem(SAVED_GROUP, String(id));
  else localStorage.removeItem(SAVED_GROUP);
  savePageCookie('ledger_group', id ? String(id) : null);
}

export async function loadGroups(): Promise<Group[]> {
  const res = await ok(client.GET('/api/groups'));
  session.groups = res.list;
  const saved = savedGroup();
  selectGroup(session.groups.some((g) => g.id === saved) ? saved : null);
  return session.groups;
}

export async function loadMe(): Promise<Me> {
  session.me = await identityApi.me();
  return session.me;
}

export async function categories(): Promise<Category[]> {
  session.categories ??= (await ok(client.GET('/api/categories', { params: { query: {} } }))).list;
  return session.categories;
}

export async function tags(): Promise<Tag[]> {
  session.tags ??= (await ok(client.GET('/api/tags'))).list;
  return session.tags;
}

export function invalidateLists(): void {
  session.categories = null;
  session.tags = null;
}

export async function signIn(call: Promise<{ access_token: string; refresh_token: string }>): Promise<void> {
  const pair = await call;
  clearSession();
  setTokens(pair);
  session.signedIn = true;
  await Promise.all([loadMe(), loadGroups()]);
}

/** Forgets this device's tokens and state after the service ended the session (sign out everywhere). */
export function forgetSession(): void {
  clearSession();
  resetSession();
}

/** Drops the local state (tokens are cleared by the caller or by the API layer). */
export function resetSession(): void {
  forgetSessionData();
  session.me = null;
  session.groups = [];
  session.groupId = null;
  session.categories = null;
  session.tags = null;
  session.signedIn = false;
}

/** Signs out; false when the person chose to stay because operations still wait to be sent. */
export async function signOut(): Promise<boolean> {
  if (!(await beforeSignOut())) return false;
  const t = getTokens();
  clearSession();
  resetSession();
  if (t) await identityApi.logout(t.refresh_token).catch(() => undefined);
  return true;
}
