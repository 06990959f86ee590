import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp } from '../../lib/schemas.ts';
import { WEBHOOK_EVENTS } from './webhooks.events.ts';

export const WebhookEventName = Type.Union(
  WEBHOOK_EVENTS.map((e) => Type.Literal(e)),
  { description: 'an event an endpoint may be subscribed to', examples: ['transaction.created'] },
);

const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'https:// URL of the receiver; not an address of this machine or a private network (http:// and loopback only when the operator sets WEBHOOKS_ALLOW_LOOPBACK)',
  examples: ['https://example.com/hooks/ledger'],
});
const Description = Type.String({ maxLength: 200, description: 'what the endpoint is for, up to 200 characters' });
const Events = Type.Array(WebhookEventName, {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  description: 'the events sent to it, at least one',
  examples: [['transaction.created', 'transaction.deleted']],
});

export const WebhookEndpoint = Type.Object(
  {
    id: Id,
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(WebhookEventName),
    enabled: Type.Boolean({ description: 'false: nothing is sent; what is waiting is sent once it is on again' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'WebhookEndpoint' },
);
export type WebhookEndpointView = Static<typeof WebhookEndpoint>;

const Secret = Type.String({
  description: 'the signing secret, `whsec_` and base64; shown only now: keep it with the receiver',
});

export const WebhookEndpointCreated = Type.Object(
  { ...WebhookEndpoint.properties, secret: Secret },
  { title: 'WebhookEndpointCreated' },
);
export type WebhookEndpointCreated = Static<typeof WebhookEndpointCreated>;

export const WebhookEndpointList = Type.Object({ list: Type.Array(WebhookEndpoint) });

export const WebhookCreateBody = Type.Object({
  url: Url,
  description: Type.Optional(Description),
  events: Events,
  enabled: Type.Optional(Type.Boolean()),
});
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

export const WebhookUpdateBody = Type.Object({
  url: Type.Optional(Url),
  description: Type.Optional(Description),
  events: Type.Optional(Events),
  enabled: Type.Optional(Type.Boolean()),
});
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;

export const WebhookSecret = Type.Object({ secret: Secret }, { title: 'WebhookSecret' });

export const WebhookAttempt = Type.Object(
  {
    status_code: Nullable(Type.Integer({ description: "the receiver's HTTP status; null: no answer" })),
    error: Nullable(Type.String({ description: 'why it failed; null when delivered' })),
    duration_ms: Type.Integer(),
    attempted_at: Timestamp,
  },
  { title: 'WebhookAttempt' },
);

export const WebhookDelivery = Type.Object(
  {
    id: Id,
    message_id: Type.String({ description: 'the `webhook-id` header, the same on every attempt' }),
    type: Type.String({ description: 'the event, or `webhook.test`' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    next_attempt_at: Nullable(Timestamp),
    last_status_code: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    created_at: Timestamp,
    delivered_at: Nullable(Timestamp),
    attempt_log: Type.Array(WebhookAttempt, { description: 'every attempt, oldest first' }),
  },
  { title: 'WebhookDelivery' },
);
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;

export const WebhookDeliveryList = Type.Object({ list: Type.Array(WebhookDelivery) });
