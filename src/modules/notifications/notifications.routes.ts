import type { FastifyInstance, FastifyRequest } from 'fastify';
import { userOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import {
  ListQuery,
  Notification,
  NotificationList,
  PinBody,
  PublishBody,
  UnreadCount,
  UpdateBody,
  Updated,
} from './notifications.schemas.ts';
import { assertMayPublishScope, type createNotificationsService } from './notifications.service.ts';
import { typed, type TypedApp } from '../routes.ts';

const VISIBILITY =
  'Visible to a user: `system` notices, `group` notices of the live groups they belong to, and `personal` notices addressed to them, ' +
  'once `publish_at` (null: at once) has passed and before `expire_at` (null: never).';

const AS_PUBLISH =
  'Allowed to administrators, and to the owner of the group for a group notice. A notice the caller cannot see is 40401; ' +
  'a group notice seen by a member who is not the owner is 40302; a system or personal notice, for a non-administrator, 40301.';

// Only the group scope is open to non-administrators: refuse the others before reading the body's rules.
const publisherScope = async (req: FastifyRequest) => {
  const body = req.body;
  assertMayPublishScope(
    userOf(req),
    typeof body === 'object' && body !== null ? (body as { scope?: unknown }).scope : undefined,
  );
};

export default async function notificationsRoutes(
  fastify: FastifyInstance,
  { notifications: service }: { notifications: ReturnType<typeof createNotificationsService> },
) {
  const app = typed(fastify);
  registerInbox(app, service);
  registerPublishing(app, service);
}

/** One's notifications: listed, counted, read. */
function registerInbox(app: TypedApp, service: ReturnType<typeof createNotificationsService>) {
  app.get(
    '/api/notifications',
    {
      schema: {
        summary: 'Notifications visible to the caller',
        description: `${VISIBILITY} Pinned first, then newest first (by publish time, else creation time). \`read\` is the caller's own read status.`,
        querystring: ListQuery,
        response: { 200: NotificationList },
      },
    },
    async (req) => service.list(userOf(req).id, req.query),
  );

  app.get(
    '/api/notifications/unread-count',
    {
      schema: {
        summary: 'How many visible notifications the caller has not read, and the unread strong reminders',
        response: { 200: UnreadCount },
      },
    },
    async (req) => service.unreadCount(userOf(req).id),
  );

  app.post(
    '/api/notifications/read-all',
    {
      schema: {
        summary: 'Mark every visible notification read, group notices included',
        response: { 200: Updated },
      },
    },
    async (req) => service.markAllRead(userOf(req).id),
  );

  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        summary: 'Mark one notification read',
        description:
          "A notification the caller cannot see (another user's personal notice, a group they are not in, not yet published or expired): 40401. Marking twice is harmless.",
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.markRead(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** Notifications published, changed, pinned, deleted, and the administrators' list. */
function registerPublishing(app: TypedApp, service: ReturnType<typeof createNotificationsService>) {
  app.post(
    '/api/notifications',
    {
      preValidation: publisherScope,
      schema: {
        summary: 'Publish a notification',
        description:
          'Administrators publish any scope; the owner of a live group may publish `group` notices to it (another member or a non-member: 40302; ' +
          'a non-administrator asking for any other scope, or none: 40301, before the body is validated). `group` needs `group_id`, ' +
          '`personal` needs `user_id` (an existing user), `system` takes neither (40001 otherwise). A dissolved group: 40902. ' +
          'Title 1 to 100 and content 1 to 5000 characters after trimming; `link_url`/`image_url` must be https:, http: or an in-app path ' +
          'starting with a single "/"; `expire_at` must be after `publish_at` when both are set.',
        body: PublishBody,
        response: { 201: Notification },
      },
    },
    async (req, reply) => reply.code(201).send(await service.publish(userOf(req), req.body)),
  );

  app.put(
    '/api/notifications/:id',
    {
      schema: {
        summary: 'Edit a notification',
        description:
          `${AS_PUBLISH} Any publish field may change, under the rules of publishing; a new \`scope\` clears the audience field of the old one ` +
          'unless the body sets it. `null` clears link_url, image_url, publish_at and expire_at. A notice of a dissolved group: 40902.',
        params: IdParams,
        body: UpdateBody,
        response: { 200: Notification },
      },
    },
    async (req) => service.update(userOf(req), req.params.id, req.body),
  );

  app.put(
    '/api/notifications/:id/pin',
    {
      schema: {
        summary: 'Pin or unpin a notification',
        description: `${AS_PUBLISH} A notice of a dissolved group: 40902.`,
        params: IdParams,
        body: PinBody,
        response: { 200: Notification },
      },
    },
    async (req) => service.pin(userOf(req), req.params.id, req.body.pinned),
  );

  app.delete(
    '/api/notifications/:id',
    {
      schema: {
        summary: 'Delete a notification',
        description: `${AS_PUBLISH} A notice of a dissolved group may still be deleted.`,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.remove(userOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/admin/notifications',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Every notification (administrators)',
        description:
          "Scheduled and expired notifications included, newest first. `read` is the calling administrator's read status.",
        querystring: ListQuery,
        response: { 200: NotificationList },
      },
    },
    async (req) => service.adminList(userOf(req).id, req.query),
  );
}
