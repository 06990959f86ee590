import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorBody, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import type { SignInMethodsService } from './sign-in-methods.service.ts';
import { LoginBody, PasswordChangeBody, UsernameBody } from './auth.schemas.ts';

export function registerSignInMethodRoutes(fastify: FastifyInstance, service: SignInMethodsService): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const session = { session: true };
  const done = { 204: NoContent };

  app.put(
    '/api/me/password',
    {
      config: session,
      schema: {
        summary: 'Set or change the password',
        description:
          '`current_password` is required when the account has one (wrong: 40105). Sets a first password for a WeChat or demo account (a demo account with a username and password is kept). Needs a username first (42201, reason `username_required`). Every other session is signed out; personal API tokens are kept (they are managed separately: DELETE /api/me/sessions?everywhere=true revokes them too).',
        body: PasswordChangeBody,
        response: done,
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      await service.setPassword(user.id, user.sessionId ?? null, req.body, req.ip);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/me/password',
    {
      config: session,
      schema: { summary: 'Remove the password (another sign-in method must remain: 42201)', response: done },
    },
    async (req, reply) => {
      await service.removePassword(userOf(req).id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/me/username',
    {
      config: session,
      schema: {
        summary: 'Choose a username, for an account without one',
        description: 'Taken: 40901; the account already has one: 42201.',
        body: UsernameBody,
        response: done,
      },
    },
    async (req, reply) => {
      await service.setUsername(userOf(req).id, req.body.username);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/me/wechat',
    {
      config: session,
      schema: {
        summary: 'Link a WeChat account (mini-program login code) to this account',
        description:
          'Already linked, or the WeChat account belongs to another user: 40901. Provider refusal: 40103; unreachable: 50301.',
        body: LoginBody,
        response: { ...done, 503: ErrorBody },
      },
    },
    async (req, reply) => {
      await service.linkWechat(userOf(req).id, req.body.code);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/me/wechat',
    {
      config: session,
      schema: { summary: 'Unlink WeChat (another sign-in method must remain: 42201)', response: done },
    },
    async (req, reply) => {
      await service.unlinkWechat(userOf(req).id);
      return reply.code(204).send(null);
    },
  );
}
