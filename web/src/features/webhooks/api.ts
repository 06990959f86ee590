// The webhook calls, through the typed client: a person's endpoints, their secret, the test event
// and the delivery log.
import { client, ok } from '../../api/client';
import type { components } from '../../api/schema';

export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookEventName = WebhookEndpoint['events'][number];
export interface EndpointFields {
  url: string;
  description: string;
  events: WebhookEventName[];
}

const path = (id: number) => ({ params: { path: { id } } });

export const webhooksApi = {
  list: () => ok(client.GET('/api/webhooks')),
  create: (body: EndpointFields) => ok(client.POST('/api/webhooks', { body })),
  update: (id: number, body: Partial<EndpointFields> & { enabled?: boolean }) =>
    ok(client.PUT('/api/webhooks/{id}', { ...path(id), body })),
  remove: (id: number) => ok(client.DELETE('/api/webhooks/{id}', path(id))),
  rotateSecret: (id: number) => ok(client.POST('/api/webhooks/{id}/secret', path(id))),
  sendTest: (id: number) => ok(client.POST('/api/webhooks/{id}/test', path(id))),
  deliveries: (id: number) => ok(client.GET('/api/webhooks/{id}/deliveries', path(id))),
};
