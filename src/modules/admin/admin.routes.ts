import type { FastifyInstance } from 'fastify';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import {
  AdminUser,
  AdminUserList,
  Dashboard,
  DeleteUserBody,
  RoleBody,
  StatusBody,
  UserListQuery,
} from './admin.schemas.ts';
import { type createAdminService } from './admin.service.ts';
import { typed, type TypedApp } from '../routes.ts';

const admin = { auth: 'admin' as const };

export default async function adminRoutes(
  fastify: FastifyInstance,
  { admin: service }: { admin: ReturnType<typeof createAdminService> },
) {
  const app = typed(fastify);
  registerOverview(app, service);
  registerUserChanges(app, service);
}

/** The dashboard and the list of users. */
function registerOverview(app: TypedApp, service: ReturnType<typeof createAdminService>) {
  app.get(
    '/api/admin/dashboard',
    {
      config: admin,
      schema: {
        summary: 'Dashboard figures',
        description:
          'Computed at most once a minute per server process (generated_at tells when). "Today" is the current day ' +
          'in APP_TIMEZONE; ' +
          '`transactions.today` counts transactions recorded (created) today.',
        response: { 200: Dashboard },
      },
    },
    async () => service.dashboard(),
  );

  app.get(
    '/api/admin/users',
    {
      config: admin,
      schema: {
        summary: 'List users, newest first',
        description: '`keyword` matches part of the nickname case-insensitively, or an exact user id.',
        querystring: UserListQuery,
        response: { 200: AdminUserList },
      },
    },
    async (req) => service.listUsers(req.query),
  );
}

/** A user deleted, restored, disabled or enabled, promoted or demoted. */
function registerUserChanges(app: TypedApp, service: ReturnType<typeof createAdminService>) {
  app.delete(
    '/api/admin/users/:id',
    {
      config: admin,
      schema: {
        summary: 'Soft-delete a user',
        description:
          "`confirmName` must equal the user's nickname exactly (else 42201). Revokes the user's refresh tokens; " +
          'their access tokens stop working at once. ' +
          'Deleting the last active administrator: 42201. Missing or already deleted: 40401.',
        params: IdParams,
        body: DeleteUserBody,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.deleteUser(req.params.id, req.body.confirmName);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/admin/users/:id/restore',
    {
      config: admin,
      schema: {
        summary: 'Restore a soft-deleted user',
        description: 'Not deleted or missing: 40401.',
        params: IdParams,
        response: { 200: AdminUser },
      },
    },
    async (req) => service.restoreUser(req.params.id),
  );

  app.put(
    '/api/admin/users/:id/status',
    {
      config: admin,
      schema: {
        summary: "Enable or disable a user's account",
        description:
          'Deleted or missing: 40401. Disabling revokes the refresh tokens and takes effect at once; disabling the ' +
          'last active administrator: 42201.',
        params: IdParams,
        body: StatusBody,
        response: { 200: AdminUser },
      },
    },
    async (req) => service.setStatus(req.params.id, req.body.status),
  );

  app.put(
    '/api/admin/users/:id/role',
    {
      config: admin,
      schema: {
        summary: "Change a user's role",
        description: 'Deleted or missing: 40401. Demoting the last active administrator: 42201.',
        params: IdParams,
        body: RoleBody,
        response: { 200: AdminUser },
      },
    },
    async (req) => service.setRole(req.params.id, req.body.role),
  );
}
