import type { FastifyInstance } from 'fastify';
import { userOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import {
  CreateGroupBody,
  Group,
  GroupList,
  InviteCode,
  JoinBody,
  MemberList,
  RemoveMemberBody,
} from './groups.schemas.ts';
import { type createGroupsService } from './groups.service.ts';
import { DissolveQuery, GroupSettingsBody } from '../splits/index.ts';
import { type createSplitsService } from '../splits/index.ts';
import { typed, type TypedApp } from '../routes.ts';

export default async function groupsRoutes(
  fastify: FastifyInstance,
  {
    groups: service,
    splits,
  }: { groups: ReturnType<typeof createGroupsService>; splits: ReturnType<typeof createSplitsService> },
) {
  const app = typed(fastify);
  registerMembership(app, service);
  registerGroupLife(app, service);
  registerGroupRoutes(app, service, splits);
}

/** Groups created, listed and joined by their code. */
function registerMembership(app: TypedApp, service: ReturnType<typeof createGroupsService>) {
  app.post(
    '/api/groups',
    {
      schema: {
        summary: 'Create a group; the caller becomes its owner',
        description:
          'The name is 1 to 30 characters after trimming. The group gets a fresh invite code (50002 if no unique ' +
          'code could be allocated). ' +
          '`split_costs` (default false): share records without an explicit split equally among the members, so ' +
          'balances show who owes whom; ' +
          'without it the group keeps shared books and only explicit splits and settlements make balances.',
        body: CreateGroupBody,
        response: { 201: Group },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(userOf(req).id, req.body)),
  );

  app.get(
    '/api/groups',
    {
      schema: {
        summary: "The caller's live groups",
        description: 'Dissolved groups are left out. The most recently joined group comes first.',
        response: { 200: GroupList },
      },
    },
    async (req) => service.list(userOf(req).id),
  );

  app.post(
    '/api/groups/join',
    {
      schema: {
        summary: 'Join a group by its invite code',
        description:
          'The code is accepted in any letter case (malformed: 40001). Unknown code: 40401; dissolved group: 40902; ' +
          'a group already at 50 members: 42201. Joining a group one already belongs to answers the group again and ' +
          'keeps one membership.',
        body: JoinBody,
        response: { 200: Group },
      },
    },
    async (req) => service.join(userOf(req).id, req.body.invite_code),
  );
}

/** A group left, dissolved, or given a new invitation code. */
function registerGroupLife(app: TypedApp, service: ReturnType<typeof createGroupsService>) {
  app.post(
    '/api/groups/:id/leave',
    {
      schema: {
        summary: 'Leave a group',
        description:
          "Not a member: 40302; the owner cannot leave (42201). The member's transactions keep their group_id.",
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.leave(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/groups/:id/dissolve',
    {
      schema: {
        summary: 'Dissolve a group (owner)',
        description:
          'Not the owner: 40302; already dissolved: 40902. A group that splits costs (`split_costs`) with balances ' +
          'not yet settled: 42201 unless `force=true` ' +
          '(then they stay readable, frozen); a group that does not split costs always dissolves (204). ' +
          'The group record, its memberships and the group_id of its transactions are kept; ' +
          "its invite code no longer joins (40902) and it leaves every member's group list.",
        params: IdParams,
        querystring: DissolveQuery,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.dissolve(userOf(req).id, req.params.id, req.query.force === true);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/groups/:id/refresh-code',
    {
      schema: {
        summary: 'Replace the invite code (owner)',
        description: 'The old code stops working at once. Not the owner: 40302; dissolved group: 40902.',
        params: IdParams,
        response: { 200: InviteCode },
      },
    },
    async (req) => service.refreshCode(userOf(req).id, req.params.id),
  );
}

/** One group: read, its settings changed, its members listed or removed. */
function registerGroupRoutes(
  app: TypedApp,
  service: ReturnType<typeof createGroupsService>,
  splits: ReturnType<typeof createSplitsService>,
) {
  app.get(
    '/api/groups/:id',
    {
      schema: {
        summary: 'One group (members only)',
        description: 'Not a member: 40302. A dissolved group stays readable to its members.',
        params: IdParams,
        response: { 200: Group },
      },
    },
    async (req) => service.get(userOf(req).id, req.params.id),
  );

  app.put(
    '/api/groups/:id',
    {
      schema: {
        summary: "Change a group's name, currency, cost splitting or notification threshold (owner)",
        description:
          'Not the owner: 40302; dissolved: 40902. The currency changes only while the group has no records or ' +
          'settlements (else 42201). ' +
          '`split_costs` applies to records from then on: turning it on gives older records no shares, turning it ' +
          'off keeps the shares already recorded. ' +
          '`notify_threshold`: expenses of at least this amount send a personal notification to the members sharing ' +
          'them (null: none; a new group starts at 0, every amount).',
        params: IdParams,
        body: GroupSettingsBody,
        response: { 200: Group },
      },
    },
    async (req) => {
      await splits.updateSettings(userOf(req).id, req.params.id, req.body);
      return service.get(userOf(req).id, req.params.id);
    },
  );

  app.get(
    '/api/groups/:id/members',
    {
      schema: {
        summary: 'Members of a group (members only)',
        description:
          'The owner first, then by join time. Not a member: 40302. A dissolved group stays readable to its members.',
        params: IdParams,
        response: { 200: MemberList },
      },
    },
    async (req) => service.members(userOf(req).id, req.params.id),
  );

  app.post(
    '/api/groups/:id/remove-member',
    {
      schema: {
        summary: 'Remove a member (owner)',
        description:
          'Not the owner: 40302; `user_id` not a member of the group: 40401; the owner removing themselves: 42201; ' +
          'dissolved group: 40902. ' +
          "The removed member's transactions keep their group_id.",
        params: IdParams,
        body: RemoveMemberBody,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await service.removeMember(userOf(req).id, req.params.id, req.body.user_id);
      return reply.code(204).send(null);
    },
  );
}
