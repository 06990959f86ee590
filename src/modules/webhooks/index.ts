// The public face of the webhooks module: what other modules and the composition root may use.
export { default as webhooksRoutes } from './webhooks.routes.ts';
export { createWebhookService, type WebhookService } from './webhooks.service.ts';
export { createDeliverer, type Deliverer } from './webhooks.deliver.ts';
export { booksListener, recordEvent } from './webhooks.outbox.ts';
export { WEBHOOK_EVENTS, type WebhookEvent } from './webhooks.events.ts';
