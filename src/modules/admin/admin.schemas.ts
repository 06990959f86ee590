import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { Id, Nullable, Timestamp } from '../../lib/schemas.ts';

export const Role = Type.Union([Type.Literal('user'), Type.Literal('admin')]);
export const UserStatus = Type.Union([Type.Literal('active'), Type.Literal('disabled')]);

export const Dashboard = Type.Object({
  users: Type.Object({
    total: Type.Integer({ description: 'every user row, deleted ones included' }),
    active: Type.Integer({ description: 'not deleted, status active' }),
    disabled: Type.Integer({ description: 'not deleted, status disabled' }),
    deleted: Type.Integer({ description: 'soft-deleted' }),
    new_today: Type.Integer({ description: 'created today (APP_TIMEZONE)' }),
  }),
  transactions: Type.Object({
    total: Type.Integer(),
    today: Type.Integer({ description: 'recorded today (created_at in APP_TIMEZONE)' }),
  }),
  groups: Type.Object({
    total: Type.Integer(),
    live: Type.Integer({ description: 'not dissolved' }),
  }),
  feedback: Type.Object({ pending: Type.Integer() }),
  generated_at: Timestamp,
});
export type Dashboard = Static<typeof Dashboard>;

export const AdminUser = Type.Object({
  id: Id,
  nickname: Type.String(),
  avatar_url: Nullable(Type.String()),
  slogan: Type.String(),
  role: Role,
  status: UserStatus,
  is_demo: Type.Boolean(),
  created_at: Timestamp,
  deleted_at: Nullable(Timestamp),
});
export type AdminUser = Static<typeof AdminUser>;

export const AdminUserList = Type.Object({ list: Type.Array(AdminUser), total: Type.Integer() });

export const UserListQuery = Type.Object({
  keyword: Type.Optional(
    Type.String({ maxLength: 100, description: 'part of the nickname (case-insensitive), or an exact user id' }),
  ),
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('deleted'), Type.Literal('all')], {
      default: 'all',
      description: 'active and disabled exclude deleted users; deleted lists only soft-deleted ones',
    }),
  ),
  ...PageQuery,
});
export type UserListQuery = Static<typeof UserListQuery>;

export const DeleteUserBody = Type.Object({
  confirmName: Type.String({ minLength: 1, maxLength: 200, description: "the user's nickname, exactly" }),
});

export const StatusBody = Type.Object({ status: UserStatus });
export const RoleBody = Type.Object({ role: Role });
