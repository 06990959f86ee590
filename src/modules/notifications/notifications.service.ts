import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { assertGroupOwner, membershipOf, requireLiveGroupOwner } from '../books/index.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { cleanText } from '../../lib/text.ts';
import { isSafeLink } from '../../lib/url.ts';
import type { AuthUser } from '../../types.ts';
import * as notificationsRepo from './notifications.repo.ts';
import type { Notification, PublishBody, Scope, UpdateBody } from './notifications.schemas.ts';

export const STRONG_LIST_MAX = 100;

export function toNotification(row: notificationsRepo.NotificationViewRow): Notification {
  return {
    id: row.id,
    scope: row.scope,
    title: row.title,
    content: row.content,
    key: row.key,
    params: row.params,
    link_url: row.linkUrl,
    image_url: row.imageUrl,
    pinned: row.pinned,
    strong: row.strong,
    publish_at: row.publishAt ? row.publishAt.toISOString() : null,
    expire_at: row.expireAt ? row.expireAt.toISOString() : null,
    group_id: row.groupId,
    user_id: row.userId,
    read: row.read,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Who may publish: administrators any scope; a group's owner the `group` scope of their own group.
 * Checked before the body's schema (a non-administrator learns nothing of the other scopes' rules).
 */
export function assertMayPublishScope(user: AuthUser, scope: unknown): void {
  if (user.role !== 'admin' && scope !== 'group') throw Errors.adminRequired();
}

function link(value: string | null | undefined, field: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (!isSafeLink(value)) throw Errors.field(field, 'must be an https: or http: URL or an in-app path starting with a single "/"');
  return value;
}

function instant(value: string | null | undefined, field: string): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw Errors.field(field, 'must be an ISO 8601 timestamp');
  return d;
}

interface Target {
  scope: Scope;
  groupId: number | null;
  userId: number | null;
}

/** A notice's audience must be complete and unambiguous: 40001 otherwise. */
function checkTarget(t: Target): void {
  if (t.scope === 'group') {
    if (t.groupId === null) throw Errors.field('group_id', 'is required for group notices');
    if (t.userId !== null) throw Errors.field('user_id', 'is only allowed on personal notices');
  } else if (t.scope === 'personal') {
    if (t.userId === null) throw Errors.field('user_id', 'is required for personal notices');
    if (t.groupId !== null) throw Errors.field('group_id', 'is only allowed on group notices');
  } else if (t.groupId !== null || t.userId !== null) {
    throw Errors.field(t.groupId !== null ? 'group_id' : 'user_id', 'is not allowed on system notices');
  }
}

function checkWindow(publishAt: Date | null, expireAt: Date | null): void {
  if (publishAt && expireAt && expireAt.getTime() <= publishAt.getTime()) throw Errors.field('expire_at', 'must be after publish_at');
}

export interface NotificationsServiceDeps {
  db: Db;
  clock: Clock;
  repo?: typeof notificationsRepo;
}

export function createNotificationsService({ db, clock, repo = notificationsRepo }: NotificationsServiceDeps) {
  const now = () => clock.now();
  /**
   * May `user` publish to `target`? Administrators: anywhere (an unknown group is 40001).
   * Others (only the group scope reaches here): the owner of the group (else 40302). Either way
   * a dissolved group takes no new notices (40902). An unknown or deleted addressee is 40001.
   */
  async function authorizeTarget(ex: Executor, user: AuthUser, target: Target, checkAddressee: boolean): Promise<void> {
    if (target.scope === 'group') {
      const groupId = target.groupId!;
      if (user.role === 'admin') {
        const g = await repo.findGroupState(ex, groupId);
        if (!g) throw Errors.field('group_id', 'no such group');
        if (g.dissolvedAt) throw Errors.dissolved();
        return;
      }
      await requireLiveGroupOwner(ex, groupId, user.id);
      return;
    }
    assertMayPublishScope(user, target.scope);
    if (target.scope === 'personal' && checkAddressee && !(await repo.liveUserExists(ex, target.userId!))) {
      throw Errors.field('user_id', 'no such user');
    }
  }

  /**
   * A notification `user` may change as its publisher. Administrators: any. Others: a group notice of
   * a group they own; a notice they cannot see at all is 40401, one they see but do not own 40302
   * (group) or 40301 (system, personal).
   */
  async function loadForEdit(user: AuthUser, id: number): Promise<notificationsRepo.NotificationRow> {
    const row = await repo.findById(db, id);
    if (!row) throw Errors.notFound('notification');
    if (user.role === 'admin') return row;
    if (row.scope === 'group') {
      const m = await membershipOf(db, row.groupId!, user.id);
      if (!m) throw Errors.notFound('notification');
      assertGroupOwner(m.group, user.id);
      return row;
    }
    if (row.scope === 'personal' && row.userId !== user.id) throw Errors.notFound('notification');
    throw Errors.adminRequired();
  }

  async function view(row: notificationsRepo.NotificationRow, userId: number): Promise<Notification> {
    return toNotification(await repo.withRead(db, row, userId));
  }

  return {
    async list(userId: number, q: { scope?: Scope; page?: number; pageSize?: number }) {
      const { rows, total } = await repo.listVisible(db, userId, now(), { scope: q.scope, ...pageOf(q) });
      return { list: rows.map(toNotification), total };
    },

    async adminList(adminId: number, q: { scope?: Scope; page?: number; pageSize?: number }) {
      const { rows, total } = await repo.listAll(db, adminId, { scope: q.scope, ...pageOf(q) });
      return { list: rows.map(toNotification), total };
    },

    async unreadCount(userId: number) {
      const at = now();
      const [count, strong] = await Promise.all([repo.countUnread(db, userId, at), repo.listUnreadStrong(db, userId, at, STRONG_LIST_MAX)]);
      return { count, strong: strong.map(toNotification) };
    },

    async markRead(userId: number, id: number): Promise<void> {
      if (!(await repo.findVisible(db, id, userId, now()))) throw Errors.notFound('notification');
      await repo.markRead(db, id, userId);
    },

    async markAllRead(userId: number): Promise<{ updated: number }> {
      return { updated: await repo.markAllRead(db, userId, now()) };
    },

    async publish(user: AuthUser, body: PublishBody): Promise<Notification> {
      assertMayPublishScope(user, body.scope);
      const title = cleanText(body.title, 'title', 1, 100);
      const content = cleanText(body.content, 'content', 1, 5000);
      const linkUrl = link(body.link_url, 'link_url') ?? null;
      const imageUrl = link(body.image_url, 'image_url') ?? null;
      const publishAt = instant(body.publish_at, 'publish_at') ?? null;
      const expireAt = instant(body.expire_at, 'expire_at') ?? null;
      checkWindow(publishAt, expireAt);
      const target: Target = { scope: body.scope, groupId: body.group_id ?? null, userId: body.user_id ?? null };
      checkTarget(target);
      await authorizeTarget(db, user, target, true);
      const row = await repo.insertNotification(db, {
        ...target,
        title,
        content,
        linkUrl,
        imageUrl,
        pinned: body.pinned ?? false,
        strong: body.strong ?? false,
        publishAt,
        expireAt,
        createdBy: user.id,
      });
      return view(row, user.id);
    },

    async update(user: AuthUser, id: number, body: UpdateBody): Promise<Notification> {
      const patch: Partial<notificationsRepo.NotificationInsert> = {};
      if (body.title !== undefined) patch.title = cleanText(body.title, 'title', 1, 100);
      if (body.content !== undefined) patch.content = cleanText(body.content, 'content', 1, 5000);
      if (body.link_url !== undefined) patch.linkUrl = link(body.link_url, 'link_url');
      if (body.image_url !== undefined) patch.imageUrl = link(body.image_url, 'image_url');
      if (body.pinned !== undefined) patch.pinned = body.pinned;
      if (body.strong !== undefined) patch.strong = body.strong;
      if (body.publish_at !== undefined) patch.publishAt = instant(body.publish_at, 'publish_at');
      if (body.expire_at !== undefined) patch.expireAt = instant(body.expire_at, 'expire_at');
      const row = await loadForEdit(user, id);
      checkWindow(patch.publishAt !== undefined ? patch.publishAt : row.publishAt, patch.expireAt !== undefined ? patch.expireAt : row.expireAt);
      // a new scope drops the audience fields of the old one unless the body sets them
      const scope = body.scope ?? row.scope;
      const scopeChanged = scope !== row.scope;
      const target: Target = {
        scope,
        groupId: body.group_id !== undefined ? body.group_id : scopeChanged ? null : row.groupId,
        userId: body.user_id !== undefined ? body.user_id : scopeChanged ? null : row.userId,
      };
      checkTarget(target);
      await authorizeTarget(db, user, target, target.userId !== row.userId);
      Object.assign(patch, target);
      const updated = await repo.updateNotification(db, id, patch);
      if (!updated) throw Errors.notFound('notification');
      return view(updated, user.id);
    },

    async pin(user: AuthUser, id: number, pinned: boolean): Promise<Notification> {
      const row = await loadForEdit(user, id);
      await authorizeTarget(db, user, { scope: row.scope, groupId: row.groupId, userId: row.userId }, false);
      const updated = await repo.updateNotification(db, id, { pinned });
      if (!updated) throw Errors.notFound('notification');
      return view(updated, user.id);
    },

    /** Deleting is allowed to the publisher even once a group is dissolved: it only removes a notice. */
    async remove(user: AuthUser, id: number): Promise<void> {
      await loadForEdit(user, id);
      if (!(await repo.deleteNotification(db, id))) throw Errors.notFound('notification');
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
