import type { Db, Tx } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { todayIn } from '../../lib/dates.ts';
import { revokeAllForUser } from '../identity/index.ts';
import * as adminRepo from './admin.repo.ts';
import type { AdminUser, Dashboard, UserListQuery } from './admin.schemas.ts';

export const DASHBOARD_TTL_MS = 60_000;

export function toAdminUser(row: adminRepo.UserRow): AdminUser {
  return {
    id: row.id,
    nickname: row.nickname,
    avatar_url: row.avatarUrl,
    slogan: row.slogan,
    role: row.role,
    status: row.status,
    is_demo: row.isDemo,
    created_at: row.createdAt.toISOString(),
    deleted_at: row.deletedAt ? row.deletedAt.toISOString() : null,
  };
}

export interface AdminServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appTimezone'>;
  /** called after a user's role, status or deletion changed, so that auth sees it at once */
  onUserChanged: (userId: number) => void;
  repo?: typeof adminRepo;
}

/** Refuses a change that would leave no active administrator. */
async function keepAnAdmin(repo: typeof adminRepo, tx: Tx, user: adminRepo.UserRow, what: string) {
  const isActiveAdmin = user.role === 'admin' && user.status === 'active' && user.deletedAt === null;
  if (isActiveAdmin && (await repo.countOtherActiveAdmins(tx, user.id)) === 0) {
    throw Errors.rule(`cannot ${what} the last active administrator`);
  }
}

/** The dashboard's figures as counted at `at`. */
function toDashboard(c: Awaited<ReturnType<typeof adminRepo.dashboardCounts>>, at: Date): Dashboard {
  return {
    users: {
      total: c.users_total,
      active: c.users_active,
      disabled: c.users_disabled,
      deleted: c.users_deleted,
      new_today: c.users_new_today,
    },
    transactions: { total: c.transactions_total, today: c.transactions_today },
    groups: { total: c.groups_total, live: c.groups_live },
    feedback: { pending: c.feedback_pending },
    generated_at: at.toISOString(),
  };
}

export function createAdminService({ db, clock, config, onUserChanged, repo = adminRepo }: AdminServiceDeps) {
  const timezone = config.appTimezone;
  const now = () => clock.now().getTime();
  // one cache per service, i.e. per app instance
  let cached: { value: Dashboard; at: number } | null = null;

  function changed(userId: number) {
    onUserChanged(userId);
    cached = null;
  }

  return {
    async dashboard(): Promise<Dashboard> {
      const t = now();
      if (cached && t - cached.at < DASHBOARD_TTL_MS) return cached.value;
      const c = await repo.dashboardCounts(db, todayIn(timezone, new Date(t)), timezone);
      const value = toDashboard(c, new Date(t));
      cached = { value, at: t };
      return value;
    },

    async listUsers(q: UserListQuery): Promise<{ list: AdminUser[]; total: number }> {
      const { limit, offset } = pageOf(q);
      const { rows, total } = await repo.listUsers(db, {
        keyword: q.keyword,
        status: q.status ?? 'all',
        limit,
        offset,
      });
      return { list: rows.map(toAdminUser), total };
    },

    async deleteUser(id: number, confirmName: string): Promise<void> {
      await db.transaction(async (tx) => {
        await repo.lockAdminChanges(tx);
        const user = await repo.lockUserRow(tx, id);
        if (!user || user.deletedAt) throw Errors.notFound('user');
        if (confirmName !== user.nickname) throw Errors.rule("confirmName does not match the user's nickname");
        await keepAnAdmin(repo, tx, user, 'delete');
        const at = new Date(now());
        if (!(await repo.softDeleteUser(tx, id, at))) throw Errors.notFound('user');
        await revokeAllForUser(tx, id, at);
      });
      changed(id);
    },

    async restoreUser(id: number): Promise<AdminUser> {
      const row = await repo.restoreUser(db, id, new Date(now()));
      if (!row) throw Errors.notFound('deleted user');
      changed(id);
      return toAdminUser(row);
    },

    async setStatus(id: number, status: 'active' | 'disabled'): Promise<AdminUser> {
      const row = await db.transaction(async (tx) => {
        await repo.lockAdminChanges(tx);
        const user = await repo.lockUserRow(tx, id);
        if (!user || user.deletedAt) throw Errors.notFound('user');
        if (status === 'disabled') await keepAnAdmin(repo, tx, user, 'disable');
        const at = new Date(now());
        const updated = await repo.updateLiveUser(tx, id, { status }, at);
        if (!updated) throw Errors.notFound('user');
        // a disabled account must not be able to mint new access tokens either
        if (status === 'disabled') await revokeAllForUser(tx, id, at);
        return updated;
      });
      changed(id);
      return toAdminUser(row);
    },

    async setRole(id: number, role: 'user' | 'admin'): Promise<AdminUser> {
      const row = await db.transaction(async (tx) => {
        await repo.lockAdminChanges(tx);
        const user = await repo.lockUserRow(tx, id);
        if (!user || user.deletedAt) throw Errors.notFound('user');
        if (role === 'user') await keepAnAdmin(repo, tx, user, 'demote');
        const updated = await repo.updateLiveUser(tx, id, { role }, new Date(now()));
        if (!updated) throw Errors.notFound('user');
        return updated;
      });
      changed(id);
      return toAdminUser(row);
    },
  };
}
