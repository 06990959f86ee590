import { and, desc, eq, inArray, Param, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { query } from '../../db/client.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

// ---- endpoints, always scoped by their owner ----

export async function listEndpoints(ex: Executor, userId: number): Promise<EndpointRow[]> {
  return ex.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(webhookEndpoints.id);
}

export async function countEndpoints(ex: Executor, userId: number): Promise<number> {
  const [row] = await query<{ n: number }>(
    ex,
    sql`select count(*)::int as n from webhook_endpoints where user_id = ${userId}`,
  );
  return Number(row?.n ?? 0);
}

export async function endpointOf(ex: Executor, userId: number, id: number): Promise<EndpointRow | null> {
  const [row] = await ex
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
  return row ?? null;
}

export async function insertEndpoint(ex: Executor, v: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [row] = await ex.insert(webhookEndpoints).values(v).returning();
  return row!;
}

export async function updateEndpoint(
  ex: Executor,
  userId: number,
  id: number,
  patch: Partial<Pick<EndpointRow, 'url' | 'description' | 'events' | 'enabled' | 'secret'>>,
): Promise<EndpointRow | null> {
  const [row] = await ex
    .update(webhookEndpoints)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(ex: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await ex
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

// ---- the outbox ----

/** Which of these people have an endpoint that is on (lookups of the user index). */
export async function peopleWithEnabledEndpoints(ex: Executor, userIds: readonly number[]): Promise<Set<number>> {
  const rows = await query<{ user_id: number }>(
    ex,
    sql`select distinct user_id from webhook_endpoints where user_id = any(${new Param([...userIds])}::int[]) and enabled`,
  );
  return new Set(rows.map((r) => Number(r.user_id)));
}

/** The events each of these people's endpoints that are on are subscribed to (people with none are left out). */
export async function subscribedEvents(ex: Executor, userIds: readonly number[]): Promise<Map<number, Set<string>>> {
  const rows = await query<{ user_id: number; events: string[] }>(
    ex,
    sql`select e.user_id, array_agg(distinct ev) as events
        from webhook_endpoints e cross join unnest(e.events) as ev
        where e.user_id = any(${new Param([...userIds])}::int[]) and e.enabled
        group by e.user_id`,
  );
  return new Map(rows.map((r) => [Number(r.user_id), new Set(r.events)]));
}

/** An event to put in the outbox: its data as given, or the record `transactionId` read as it stands now. */
export interface OutboxEvent {
  messageId: string;
  userId: number;
  type: string;
  data: Record<string, unknown> | null;
  transactionId: number | null;
}

/** What a record event carries of the record: its columns, amounts in minor units of their currency. */
const RECORD_DATA = sql`jsonb_build_object(
  'id', t.id, 'kind', t.kind, 'amount_minor', t.amount_cents, 'currency', t.currency,
  'base_amount_minor', t.base_amount, 'date', to_char(t.date, 'YYYY-MM-DD'), 'note', t.note,
  'category_id', t.category_id, 'account_id', t.account_id, 'group_id', t.group_id, 'paid_by', t.paid_by,
  'to_account_id', t.to_account_id, 'to_amount_minor', t.to_amount, 'to_currency', t.to_currency,
  'parent_id', t.parent_id, 'refund_of', t.refund_of, 'user_id', t.user_id)`;

/**
 * Writes one delivery per event and endpoint of its person that is on and subscribed to its type
 * (or, with `endpointId`, to that endpoint alone), in the caller's transaction. The payload is the
 * body sent: `{type, timestamp, data}`. Answers the deliveries written.
 */
export async function insertDeliveries(
  ex: Executor,
  events: readonly OutboxEvent[],
  endpointId: number | null = null,
): Promise<{ id: number; endpoint_id: number }[]> {
  if (!events.length) return [];
  const col = <T>(f: (e: OutboxEvent) => T) => new Param(events.map(f));
  const target = endpointId === null ? sql`w.enabled and e.type = any(w.events)` : sql`w.id = ${endpointId}::int`;
  return query(
    ex,
    sql`insert into webhook_deliveries (message_id, endpoint_id, user_id, type, payload)
        select e.message_id, w.id, w.user_id, e.type,
               jsonb_build_object('type', e.type,
                                  'timestamp', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                  'data', coalesce(e.data::jsonb, r.data, jsonb_build_object('id', e.transaction_id)))
        from unnest(${col((e) => e.messageId)}::text[], ${col((e) => e.userId)}::int[], ${col((e) => e.type)}::text[],
                    ${col((e) => (e.data ? JSON.stringify(e.data) : null))}::text[], ${col((e) => e.transactionId)}::int[])
             as e(message_id, user_id, type, data, transaction_id)
        join webhook_endpoints w on w.user_id = e.user_id and ${target}
        left join lateral (select ${RECORD_DATA} as data from transactions t where t.id = e.transaction_id) r on true
        on conflict (message_id, endpoint_id) do nothing
        returning id, endpoint_id`,
  );
}

/** A delivery claimed by a worker, with what sending it needs of its endpoint. */
export interface Claimed {
  id: number;
  message_id: string;
  type: string;
  payload: Record<string, unknown> | string;
  attempts: number;
  created_at: Date | string;
  url: string;
  secret: string;
}

/**
 * Claims up to `limit` due deliveries (pending, their time come, of an endpoint that is on, and held
 * by no worker or by one whose hold ran out) until `lockedUntil`. Rows another transaction is
 * claiming are skipped (`for update skip locked`): two processes never take the same row at once.
 * With `id`, that delivery alone, due or not.
 */
export async function claimDue(
  ex: Executor,
  now: Date,
  lockedUntil: Date,
  limit: number,
  id: number | null = null,
): Promise<Claimed[]> {
  const which = id === null ? sql`d.next_attempt_at <= ${now.toISOString()}::timestamptz` : sql`d.id = ${id}::int`;
  return query<Claimed>(
    ex,
    sql`with due as (
          select d.id from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
          where d.status = 'pending' and ${which} and w.enabled
            and (d.locked_until is null or d.locked_until < ${now.toISOString()}::timestamptz)
          order by d.next_attempt_at, d.id
          limit ${limit}
          for update of d skip locked
        )
        update webhook_deliveries d set locked_until = ${lockedUntil.toISOString()}::timestamptz
        from due, webhook_endpoints w
        where d.id = due.id and w.id = d.endpoint_id
        returning d.id, d.message_id, d.type, d.payload, d.attempts, d.created_at, w.url, w.secret`,
  );
}

/** What one attempt came to. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Records an attempt and the delivery's new state: delivered, failed for good, or pending again at
 * `nextAttemptAt`; the worker's hold is released. In one transaction.
 */
export async function recordAttempt(
  ex: Executor,
  deliveryId: number,
  at: Date,
  outcome: AttemptOutcome,
  next: { status: 'delivered' | 'failed' | 'pending'; nextAttemptAt: Date | null },
): Promise<void> {
  await ex.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      deliveryId,
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs: outcome.durationMs,
      attemptedAt: at,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status: next.status,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lockedUntil: null,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        ...(next.nextAttemptAt ? { nextAttemptAt: next.nextAttemptAt } : {}),
        ...(next.status === 'delivered' ? { deliveredAt: at } : {}),
      })
      .where(eq(webhookDeliveries.id, deliveryId));
  });
}

/** The latest deliveries of an endpoint, newest first. */
export async function recentDeliveries(ex: Executor, endpointId: number, limit: number): Promise<DeliveryRow[]> {
  return ex
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function deliveryById(ex: Executor, id: number): Promise<DeliveryRow | null> {
  const [row] = await ex.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row ?? null;
}

/** The attempts of these deliveries, oldest first. */
export async function attemptsOf(ex: Executor, deliveryIds: readonly number[]): Promise<AttemptRow[]> {
  if (!deliveryIds.length) return [];
  return ex
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, [...deliveryIds]))
    .orderBy(webhookAttempts.attemptedAt, webhookAttempts.id);
}
