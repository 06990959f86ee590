import type { WebhooksConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanOptionalText } from '../../lib/text.ts';
import { refusalOf } from './webhooks.address.ts';
import type { Deliverer } from './webhooks.deliver.ts';
import { newMessageId, newSecret, TEST_EVENT } from './webhooks.events.ts';
import * as repo from './webhooks.repo.ts';
import type {
  WebhookCreateBody,
  WebhookDeliveryView,
  WebhookEndpointCreated,
  WebhookEndpointView,
  WebhookUpdateBody,
} from './webhooks.schemas.ts';

/** endpoints one person may have */
export const MAX_ENDPOINTS = 10;
/** deliveries the log shows, the latest */
const LOG_SIZE = 50;

export interface WebhookServiceDeps {
  db: Db;
  config: WebhooksConfig;
  deliverer: Deliverer;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toView(r: repo.EndpointRow): WebhookEndpointView {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events as WebhookEndpointView['events'],
    enabled: r.enabled,
    created_at: iso(r.createdAt)!,
    updated_at: iso(r.updatedAt)!,
  };
}

function toDelivery(d: repo.DeliveryRow, attempts: readonly repo.AttemptRow[]): WebhookDeliveryView {
  return {
    id: d.id,
    message_id: d.messageId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: iso(d.createdAt)!,
    delivered_at: iso(d.deliveredAt),
    attempt_log: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        status_code: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
        attempted_at: iso(a.attemptedAt)!,
      })),
  };
}

/**
 * A person's webhook endpoints: add (the signing secret shown once), change, turn on and off,
 * rotate the secret, remove; send a test event; read the delivery log. Another person's endpoint
 * is not found (40401).
 */
export function createWebhookService({ db, config, deliverer }: WebhookServiceDeps) {
  const checkUrl = (url: string) => {
    const why = refusalOf(url.trim(), config.allowLoopback);
    if (why) throw Errors.field('url', why);
    return url.trim();
  };
  const own = async (userId: number, id: number) => {
    const row = await repo.endpointOf(db, userId, id);
    if (!row) throw Errors.notFound('webhook endpoint');
    return row;
  };

  return {
    async list(userId: number): Promise<{ list: WebhookEndpointView[] }> {
      return { list: (await repo.listEndpoints(db, userId)).map(toView) };
    },

    async get(userId: number, id: number): Promise<WebhookEndpointView> {
      return toView(await own(userId, id));
    },

    async create(userId: number, body: WebhookCreateBody): Promise<WebhookEndpointCreated> {
      const url = checkUrl(body.url);
      const description = cleanOptionalText(body.description, 'description', 200);
      if ((await repo.countEndpoints(db, userId)) >= MAX_ENDPOINTS)
        throw Errors.rule(`at most ${MAX_ENDPOINTS} webhook endpoints per person`);
      const secret = newSecret();
      const row = await repo.insertEndpoint(db, {
        userId,
        url,
        description,
        events: [...new Set(body.events)],
        enabled: body.enabled ?? true,
        secret,
      });
      return { ...toView(row), secret };
    },

    async update(userId: number, id: number, body: WebhookUpdateBody): Promise<WebhookEndpointView> {
      const patch: Parameters<typeof repo.updateEndpoint>[3] = {};
      if (body.url !== undefined) patch.url = checkUrl(body.url);
      if (body.description !== undefined) patch.description = cleanOptionalText(body.description, 'description', 200);
      if (body.events !== undefined) patch.events = [...new Set(body.events)];
      if (body.enabled !== undefined) patch.enabled = body.enabled;
      const row = Object.keys(patch).length ? await repo.updateEndpoint(db, userId, id, patch) : await own(userId, id);
      if (!row) throw Errors.notFound('webhook endpoint');
      return toView(row);
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.deleteEndpoint(db, userId, id))) throw Errors.notFound('webhook endpoint');
    },

    /** A new signing secret; deliveries from now on are signed with it. */
    async rotateSecret(userId: number, id: number): Promise<{ secret: string }> {
      const secret = newSecret();
      if (!(await repo.updateEndpoint(db, userId, id, { secret }))) throw Errors.notFound('webhook endpoint');
      return { secret };
    },

    ...deliveryUseCases(db, deliverer, own),
  };
}

/** The test event and the delivery log of one's own endpoint (`own` finds it or answers 40401). */
function deliveryUseCases(
  db: Db,
  deliverer: Deliverer,
  own: (userId: number, id: number) => Promise<repo.EndpointRow>,
) {
  return {
    /**
     * Sends a `webhook.test` event to this endpoint now, through the outbox like any other: a failed
     * attempt is retried as any delivery is. Answers the delivery with its attempt. An endpoint that
     * is off is refused (40901).
     */
    async sendTest(userId: number, id: number): Promise<WebhookDeliveryView> {
      const endpoint = await own(userId, id);
      if (!endpoint.enabled) throw Errors.conflict('the endpoint is off: turn it on to send a test event');
      const [written] = await repo.insertDeliveries(
        db,
        [
          {
            messageId: newMessageId(),
            userId,
            type: TEST_EVENT,
            data: { endpoint_id: endpoint.id, message: 'a test event from Ledger' },
            transactionId: null,
          },
        ],
        endpoint.id,
      );
      await deliverer.deliverNow(written!.id);
      const row = (await repo.deliveryById(db, written!.id))!;
      return toDelivery(row, await repo.attemptsOf(db, [row.id]));
    },

    /** The latest deliveries of the endpoint, newest first, each with its attempts. */
    async deliveries(userId: number, id: number): Promise<{ list: WebhookDeliveryView[] }> {
      await own(userId, id);
      const rows = await repo.recentDeliveries(db, id, LOG_SIZE);
      const attempts = await repo.attemptsOf(
        db,
        rows.map((r) => r.id),
      );
      return { list: rows.map((r) => toDelivery(r, attempts)) };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
