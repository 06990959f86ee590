// OpenID Connect: leaving for the provider, finishing its answer (a sign-in or a link), and the
// security page's linked provider accounts.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { ApiError, ClientError } from '../../api/client';
import { createLoader } from '../../lib/loader';
import { forgetLoader } from '../../lib/pager';
import { onSessionEnd } from '../../lib/session-end';
import { loadMe, signIn } from '../../stores/session';
import { oidcApi, type OidcCallback, type OidcIdentity } from './api';
import { rememberFlow, takeFlow } from './flow';

/** The redirect's query as the service takes it: the parameters the provider sent, nothing else. */
export function callbackOf(query: Record<string, unknown>): OidcCallback | null {
  const pick = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : undefined);
  const state = pick('state');
  if (!state) return null;
  const out: OidcCallback = { state };
  for (const k of ['code', 'iss', 'error', 'error_description'] as const) {
    const v = pick(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The service's refusals of a provider's answer, said in the words of this feature. */
function said(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.code === 40001) return new ClientError('oidc.stateRefused');
  if (err.code === 40103)
    return new ClientError(err.body.reason === 'access_denied' ? 'oidc.cancelled' : 'oidc.refused');
  if (err.code === 40901) return new ClientError('oidc.alreadyLinked');
  return err;
}

export const useOidcStore = defineStore('oidc', () => {
  const leaving = ref(false);
  const linked = createLoader<OidcIdentity[]>(() => oidcApi.list(), []);
  onSessionEnd(() => forgetLoader(linked, []));

  /** Sends the browser to the provider; the answer comes back to /signin/oidc. */
  async function leave(purpose: 'sign-in' | 'link', next: string): Promise<void> {
    leaving.value = true;
    try {
      const start = await (purpose === 'link' ? oidcApi.startLink() : oidcApi.startSignIn());
      rememberFlow({ state: start.state, purpose, next });
      window.location.assign(start.authorization_url);
    } catch (err) {
      leaving.value = false;
      throw err;
    }
  }

  /** Finishes the provider's answer; resolves to the page to open next. */
  async function finish(query: Record<string, unknown>): Promise<string> {
    const callback = callbackOf(query);
    const flow = callback && takeFlow(callback.state);
    if (!callback || !flow) throw new ClientError('oidc.notThisTab');
    try {
      if (flow.purpose === 'sign-in') {
        await signIn(oidcApi.finishSignIn(callback));
        return flow.next;
      }
      await oidcApi.finishLink(callback);
    } catch (err) {
      throw said(err);
    }
    await Promise.all([loadMe(), linked.load()]);
    return '/security';
  }

  return {
    leaving,
    linked: linked.data,
    linkedError: linked.error,
    /** whether the list has answered: until then no line says that nothing is linked */
    linkedLoaded: linked.loaded,
    load: linked.load,
    signIn: (next: string) => leave('sign-in', next),
    link: () => leave('link', '/security'),
    finish,
    async unlink(id: number): Promise<void> {
      await oidcApi.unlink(id);
      await Promise.all([loadMe(), linked.load()]);
    },
  };
});
