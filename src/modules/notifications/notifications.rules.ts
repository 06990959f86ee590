// Who may publish a notice to whom, and what a notice's links, times and audience must be.
import type { Executor } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { isSafeLink } from '../../lib/url.ts';
import type { AuthUser } from '../../types.ts';
import { assertGroupOwner, membershipOf, requireLiveGroupOwner } from '../books/index.ts';
import type { NotificationDeps } from './notifications.deps.ts';
import type * as notificationsRepo from './notifications.repo.ts';
import type { Scope } from './notifications.schemas.ts';

export interface Target {
  scope: Scope;
  groupId: number | null;
  userId: number | null;
}

/**
 * Who may publish: administrators any scope; a group's owner the `group` scope of their own group.
 * Checked before the body's schema (a non-administrator learns nothing of the other scopes' rules).
 */
export function assertMayPublishScope(user: AuthUser, scope: unknown): void {
  if (user.role !== 'admin' && scope !== 'group') throw Errors.adminRequired();
}

export function link(value: string | null | undefined, field: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (!isSafeLink(value))
    throw Errors.field(field, 'must be an https: or http: URL or an in-app path starting with a single "/"');
  return value;
}

export function instant(value: string | null | undefined, field: string): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw Errors.field(field, 'must be an ISO 8601 timestamp');
  return d;
}

/** A notice's audience must be complete and unambiguous: 40001 otherwise. */
export function checkTarget(t: Target): void {
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

export function checkWindow(publishAt: Date | null, expireAt: Date | null): void {
  if (publishAt && expireAt && expireAt.getTime() <= publishAt.getTime())
    throw Errors.field('expire_at', 'must be after publish_at');
}

/**
 * May `user` publish to `target`? Administrators: anywhere (an unknown group is 40001).
 * Others (only the group scope reaches here): the owner of the group (else 40302). Either way
 * a dissolved group takes no new notices (40902). An unknown or deleted addressee is 40001.
 */
export async function authorizeTarget(
  { repo }: NotificationDeps,
  ex: Executor,
  user: AuthUser,
  target: Target,
  checkAddressee: boolean,
): Promise<void> {
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
export async function loadForEdit(
  { db, repo }: NotificationDeps,
  user: AuthUser,
  id: number,
): Promise<notificationsRepo.NotificationRow> {
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
