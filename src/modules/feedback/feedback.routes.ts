import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { userOf } from '../../plugins/auth.ts';
import { IdParams } from '../../lib/schemas.ts';
import {
  AdminFeedback,
  AdminFeedbackList,
  AdminQuery,
  Feedback,
  FeedbackList,
  MineQuery,
  ReplyBody,
  StatusBody,
  SubmitBody,
} from './feedback.schemas.ts';
import { type createFeedbackService } from './feedback.service.ts';

export default async function feedbackRoutes(
  fastify: FastifyInstance,
  { feedback: service }: { feedback: ReturnType<typeof createFeedbackService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { auth: 'admin' as const };

  app.post(
    '/api/feedback',
    {
      schema: {
        summary: 'Send feedback',
        description:
          '`content` 1 to 2000 characters and `contact` 0 to 100 characters, after trimming (an empty contact is stored as null). The new feedback is `pending`.',
        body: SubmitBody,
        response: { 201: Feedback },
      },
    },
    async (req, reply) => reply.code(201).send(await service.submit(userOf(req).id, req.body)),
  );

  app.get(
    '/api/feedback/mine',
    {
      schema: {
        summary: "The caller's own feedback with the administrators' replies",
        description: 'Newest first.',
        querystring: MineQuery,
        response: { 200: FeedbackList },
      },
    },
    async (req) => service.mine(userOf(req).id, req.query),
  );

  app.get(
    '/api/admin/feedback',
    {
      config: admin,
      schema: {
        summary: 'All feedback with its author (administrators)',
        description: 'Newest first; `status` filters.',
        querystring: AdminQuery,
        response: { 200: AdminFeedbackList },
      },
    },
    async (req) => service.adminList(req.query),
  );

  app.post(
    '/api/admin/feedback/:id/reply',
    {
      config: admin,
      schema: {
        summary: 'Reply to feedback (administrators)',
        description:
          'Stores the reply (1 to 2000 characters after trimming), sets `status` to `replied` and `replied_at`, and sends the author a personal ' +
          'notification with the reply, in one database transaction. A `pending` or `replied` feedback may be answered (again); a `closed` one: 42201 ' +
          '(reopen it first). Unknown id: 40401.',
        params: IdParams,
        body: ReplyBody,
        response: { 200: AdminFeedback },
      },
    },
    async (req) => service.reply(userOf(req).id, req.params.id, req.body.reply),
  );

  app.put(
    '/api/admin/feedback/:id/status',
    {
      config: admin,
      schema: {
        summary: 'Close or reopen feedback (administrators)',
        description:
          '`closed` closes a feedback in any status. `pending` reopens a closed one (a `replied` one cannot go back: 42201; a pending one stays pending). ' +
          '`replied` is reached only by a reply: asking for it here is 42201. Setting the current status again changes nothing. Unknown id: 40401.',
        params: IdParams,
        body: StatusBody,
        response: { 200: AdminFeedback },
      },
    },
    async (req) => service.setStatus(req.params.id, req.body.status),
  );
}
