import type { FastifyBaseLogger } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import type { WebhooksConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { signature } from './webhooks.events.ts';
import * as repo from './webhooks.repo.ts';
import { createSender, type Sender } from './webhooks.send.ts';

/** A delivery is retried for this long after its event, then marked failed. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** the first retry waits this long; each next one twice as long, up to MAX_BACKOFF_MS */
const FIRST_BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 4 * 60 * 60 * 1000;
/** deliveries one pass of the worker sends at most (at once) */
const BATCH = 20;

/** How long to wait before the attempt after the `attempts`-th (1, 2, ...): 10 s, 20 s, 40 s, ... 4 h. */
export const backoffMs = (attempts: number): number =>
  Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20));

export type Outcome = 'delivered' | 'retry' | 'failed';

export interface DelivererDeps {
  db: Db;
  clock: Clock;
  config: WebhooksConfig;
  log?: FastifyBaseLogger;
  /** counts deliveries by outcome (the app's metrics registry; none: not counted) */
  registry?: Registry | null;
  /** tests give a sender of their own */
  sender?: Sender;
}

export type Deliverer = ReturnType<typeof createDeliverer>;

/**
 * The delivery worker: claims due deliveries (two processes never take the same one), signs and
 * sends each with its stable `webhook-id`, records every attempt, and retries with exponential
 * backoff until 24 hours after the event, then marks the delivery failed.
 */
export function createDeliverer({ db, clock, config, log, registry, sender }: DelivererDeps) {
  const send = sender ?? createSender(config);
  const counter = registry
    ? ((registry.getSingleMetric('ledger_webhook_deliveries_total') as Counter<'outcome'> | undefined) ??
      new Counter({
        name: 'ledger_webhook_deliveries_total',
        help: 'Webhook delivery attempts by outcome: delivered, retry (failed, tried again later) or failed (given up)',
        labelNames: ['outcome'],
        registers: [registry],
      }))
    : null;
  // a worker holds what it claimed for longer than an attempt can take; a process that dies lets go then
  const holdMs = config.timeoutMs + 30_000;

  async function attempt(d: repo.Claimed): Promise<Outcome> {
    const started = clock.now();
    const body = typeof d.payload === 'string' ? d.payload : JSON.stringify(d.payload);
    const timestamp = Math.floor(started.getTime() / 1000);
    const t0 = performance.now();
    const sent = await send.post(
      d.url,
      {
        'webhook-id': d.message_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(d.secret, d.message_id, timestamp, body),
        'user-agent': 'Ledger-Webhooks/1',
      },
      body,
    );
    const outcome = { ...sent, durationMs: Math.round(performance.now() - t0) };
    const deadline = new Date(d.created_at).getTime() + GIVE_UP_AFTER_MS;
    const now = clock.now();
    let result: Outcome;
    if (sent.error === null) result = 'delivered';
    else if (now.getTime() >= deadline) result = 'failed';
    else result = 'retry';
    const next = result === 'retry' ? new Date(Math.min(now.getTime() + backoffMs(d.attempts + 1), deadline)) : null;
    await repo.recordAttempt(db, d.id, now, outcome, {
      status: result === 'retry' ? 'pending' : result,
      nextAttemptAt: next,
    });
    counter?.inc({ outcome: result });
    if (result !== 'delivered')
      log?.info(
        { delivery: d.id, status: sent.statusCode, error: sent.error, outcome: result },
        'webhook not delivered',
      );
    return result;
  }

  return {
    /** One pass: sends what is due (at most a batch at once); answers the outcome of each. */
    async deliverDue(): Promise<Outcome[]> {
      const now = clock.now();
      const claimed = await repo.claimDue(db, now, new Date(now.getTime() + holdMs), BATCH);
      return Promise.all(claimed.map(attempt));
    },
    /** Sends one delivery now (the test event), unless a worker holds it; null when it was not sent. */
    async deliverNow(id: number): Promise<Outcome | null> {
      const now = clock.now();
      const [d] = await repo.claimDue(db, now, new Date(now.getTime() + holdMs), 1, id);
      return d ? attempt(d) : null;
    },
  };
}
