import { createHmac, randomBytes } from 'node:crypto';

/** The events a person may subscribe an endpoint to. */
export const WEBHOOK_EVENTS = [
  'transaction.created',
  'transaction.updated',
  'transaction.deleted',
  'import.committed',
  'budget.exceeded',
  'group.expense.shared',
  'settlement.recorded',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event "send a test event" sends: to its one endpoint, whatever events it is subscribed to. */
export const TEST_EVENT = 'webhook.test';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret as Standard Webhooks writes it: `whsec_` and the base64 of 24 random bytes. */
export const newSecret = (): string => SECRET_PREFIX + randomBytes(24).toString('base64');

/** A new `webhook-id`: the same on every attempt of one event's delivery. */
export const newMessageId = (): string => `msg_${randomBytes(16).toString('hex')}`;

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,` and the base64 HMAC-SHA256, keyed with
 * the secret's decoded bytes, of `<id>.<timestamp>.<body>` (the timestamp in whole seconds).
 */
export function signature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}
