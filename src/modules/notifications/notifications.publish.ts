// Publishing notices: writing one, changing, pinning and deleting it, each as its publisher may.
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';
import type { AuthUser } from '../../types.ts';
import { view, type NotificationDeps } from './notifications.deps.ts';
import type * as notificationsRepo from './notifications.repo.ts';
import {
  assertMayPublishScope,
  authorizeTarget,
  checkTarget,
  checkWindow,
  instant,
  link,
  loadForEdit,
  type Target,
} from './notifications.rules.ts';
import type { Notification, PublishBody, UpdateBody } from './notifications.schemas.ts';

/** Publishes a notice to the audience the body names, as `user` may. */
export async function publishNotification(
  deps: NotificationDeps,
  user: AuthUser,
  body: PublishBody,
): Promise<Notification> {
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
  await authorizeTarget(deps, deps.db, user, target, true);
  const row = await deps.repo.insertNotification(deps.db, {
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
  return view(deps, row, user.id);
}

/** Changes the fields the body gives, the audience too (checked again). */
export async function updateNotification(
  deps: NotificationDeps,
  user: AuthUser,
  id: number,
  body: UpdateBody,
): Promise<Notification> {
  const patch: Partial<notificationsRepo.NotificationInsert> = {};
  if (body.title !== undefined) patch.title = cleanText(body.title, 'title', 1, 100);
  if (body.content !== undefined) patch.content = cleanText(body.content, 'content', 1, 5000);
  if (body.link_url !== undefined) patch.linkUrl = link(body.link_url, 'link_url');
  if (body.image_url !== undefined) patch.imageUrl = link(body.image_url, 'image_url');
  if (body.pinned !== undefined) patch.pinned = body.pinned;
  if (body.strong !== undefined) patch.strong = body.strong;
  if (body.publish_at !== undefined) patch.publishAt = instant(body.publish_at, 'publish_at');
  if (body.expire_at !== undefined) patch.expireAt = instant(body.expire_at, 'expire_at');
  const row = await loadForEdit(deps, user, id);
  checkWindow(
    patch.publishAt !== undefined ? patch.publishAt : row.publishAt,
    patch.expireAt !== undefined ? patch.expireAt : row.expireAt,
  );
  // a new scope drops the audience fields of the old one unless the body sets them
  const scope = body.scope ?? row.scope;
  const scopeChanged = scope !== row.scope;
  const target: Target = {
    scope,
    groupId: body.group_id !== undefined ? body.group_id : scopeChanged ? null : row.groupId,
    userId: body.user_id !== undefined ? body.user_id : scopeChanged ? null : row.userId,
  };
  checkTarget(target);
  await authorizeTarget(deps, deps.db, user, target, target.userId !== row.userId);
  Object.assign(patch, target);
  const updated = await deps.repo.updateNotification(deps.db, id, patch);
  if (!updated) throw Errors.notFound('notification');
  return view(deps, updated, user.id);
}

export async function pinNotification(
  deps: NotificationDeps,
  user: AuthUser,
  id: number,
  pinned: boolean,
): Promise<Notification> {
  const row = await loadForEdit(deps, user, id);
  await authorizeTarget(deps, deps.db, user, { scope: row.scope, groupId: row.groupId, userId: row.userId }, false);
  const updated = await deps.repo.updateNotification(deps.db, id, { pinned });
  if (!updated) throw Errors.notFound('notification');
  return view(deps, updated, user.id);
}

/** Deleting is allowed to the publisher even once a group is dissolved: it only removes a notice. */
export async function removeNotification(deps: NotificationDeps, user: AuthUser, id: number): Promise<void> {
  await loadForEdit(deps, user, id);
  if (!(await deps.repo.deleteNotification(deps.db, id))) throw Errors.notFound('notification');
}
