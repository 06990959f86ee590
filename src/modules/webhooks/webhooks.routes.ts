import type { FastifyInstance } from 'fastify';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { typed, type TypedApp } from '../routes.ts';
import {
  WebhookCreateBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookSecret,
  WebhookUpdateBody,
} from './webhooks.schemas.ts';
import type { WebhookService } from './webhooks.service.ts';

const SIGNING =
  'Deliveries are signed per Standard Webhooks: headers `webhook-id` (the same on every attempt), ' +
  '`webhook-timestamp` (seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` ' +
  'keyed with the base64-decoded part of the secret after `whsec_`); the body is `{type, timestamp, data}`. See docs/webhooks.md.';

export default async function webhooksRoutes(fastify: FastifyInstance, { webhooks }: { webhooks: WebhookService }) {
  const app = typed(fastify);

  app.get(
    '/api/webhooks',
    { schema: { summary: 'Your webhook endpoints', response: { 200: WebhookEndpointList } } },
    async (req) => webhooks.list(userOf(req).id),
  );

  app.post(
    '/api/webhooks',
    {
      schema: {
        summary: 'Add a webhook endpoint',
        description: `Answers the endpoint with its signing secret, shown only here. At most 10 endpoints per person (42201). ${SIGNING}`,
        body: WebhookCreateBody,
        response: { 201: WebhookEndpointCreated },
      },
    },
    async (req, reply) => reply.code(201).send(await webhooks.create(userOf(req).id, req.body)),
  );

  app.get(
    '/api/webhooks/:id',
    { schema: { summary: 'One of your webhook endpoints', params: IdParams, response: { 200: WebhookEndpoint } } },
    async (req) => webhooks.get(userOf(req).id, req.params.id),
  );

  app.put(
    '/api/webhooks/:id',
    {
      schema: {
        summary: 'Change a webhook endpoint: its URL, description, events, or turn it on or off',
        params: IdParams,
        body: WebhookUpdateBody,
        response: { 200: WebhookEndpoint },
      },
    },
    async (req) => webhooks.update(userOf(req).id, req.params.id, req.body),
  );

  app.delete(
    '/api/webhooks/:id',
    {
      schema: {
        summary: 'Remove a webhook endpoint (its deliveries and their log go with it)',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await webhooks.remove(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );

  deliveryRoutes(app, webhooks);
}

/** The secret, the test event and the delivery log of an endpoint. */
function deliveryRoutes(app: TypedApp, webhooks: WebhookService) {
  app.post(
    '/api/webhooks/:id/secret',
    {
      schema: {
        summary: 'Rotate the signing secret of a webhook endpoint',
        description: 'Answers the new secret, shown only here; every delivery from now on is signed with it.',
        params: IdParams,
        response: { 200: WebhookSecret },
      },
    },
    async (req) => webhooks.rotateSecret(userOf(req).id, req.params.id),
  );

  app.post(
    '/api/webhooks/:id/test',
    {
      schema: {
        summary: 'Send a test event to a webhook endpoint',
        description:
          'Sends a `webhook.test` event now and answers its delivery with the attempt made; a failed one is retried like any delivery. An endpoint that is off: 40901.',
        params: IdParams,
        response: { 200: WebhookDelivery },
      },
    },
    async (req) => webhooks.sendTest(userOf(req).id, req.params.id),
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        summary: 'The delivery log of a webhook endpoint',
        description:
          'The latest 50 deliveries, newest first, each with its attempts (status codes, errors, durations).',
        params: IdParams,
        response: { 200: WebhookDeliveryList },
      },
    },
    async (req) => webhooks.deliveries(userOf(req).id, req.params.id),
  );
}
