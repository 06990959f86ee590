// A person's webhook endpoints: the list, adding one (its secret shown once), changing, turning on
// and off, rotating the secret, removing, the test event and each endpoint's delivery log. Views
// call this store, not the API; an answer to an earlier read that arrives after a later one is dropped.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { createLoader } from '../../lib/loader';
import { onSessionEnd } from '../../lib/session-end';
import { webhooksApi, type EndpointFields, type WebhookDelivery, type WebhookEndpoint } from './api';

/** The events an endpoint may follow, in the order the screen lists them. */
export const WEBHOOK_EVENTS = [
  'transaction.created',
  'transaction.updated',
  'transaction.deleted',
  'import.committed',
  'budget.exceeded',
  'group.expense.shared',
  'settlement.recorded',
] as const satisfies readonly WebhookEndpoint['events'][number][];

export const useWebhooksStore = defineStore('webhooks', () => {
  const list = createLoader(async () => (await webhooksApi.list()).list, [] as WebhookEndpoint[]);
  /** the secret just shown (at creation or rotation), with its endpoint: shown once */
  const secret = ref<{ id: number; secret: string } | null>(null);
  /** the endpoint whose delivery log is open */
  const logOf = ref<number | null>(null);
  const log = createLoader(
    async () => (logOf.value === null ? [] : (await webhooksApi.deliveries(logOf.value)).list),
    [] as WebhookDelivery[],
  );
  onSessionEnd(() => {
    list.data.value = [];
    list.loaded.value = false;
    secret.value = null;
    logOf.value = null;
    log.data.value = [];
  });

  const load = list.load;

  async function openLog(id: number | null): Promise<void> {
    if (logOf.value !== id) log.data.value = [];
    logOf.value = id;
    await log.load();
  }

  async function add(fields: EndpointFields): Promise<void> {
    const made = await webhooksApi.create(fields);
    secret.value = { id: made.id, secret: made.secret };
    await load();
  }

  async function change(id: number, patch: Partial<EndpointFields> & { enabled?: boolean }): Promise<void> {
    await webhooksApi.update(id, patch);
    await load();
  }

  async function remove(id: number): Promise<void> {
    await webhooksApi.remove(id);
    if (logOf.value === id) await openLog(null);
    if (secret.value?.id === id) secret.value = null;
    await load();
  }

  async function rotate(id: number): Promise<void> {
    secret.value = { id, secret: (await webhooksApi.rotateSecret(id)).secret };
  }

  /** Sends the test event; answers its delivery, and the log shows it. */
  async function sendTest(id: number): Promise<WebhookDelivery> {
    const d = await webhooksApi.sendTest(id);
    await openLog(id);
    return d;
  }

  return {
    endpoints: list.data,
    loading: list.loading,
    loaded: list.loaded,
    error: list.error,
    secret,
    logOf,
    log: log.data,
    logLoading: log.loading,
    load,
    openLog,
    add,
    change,
    remove,
    rotate,
    sendTest,
  };
});
