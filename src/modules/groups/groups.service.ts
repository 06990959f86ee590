import { randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/client.ts';
import { membershipOf, requireGroupMember, requireGroupOwner, requireLiveGroupOwner, requireMembership, baseCurrencyOf } from '../books/index.ts';
import { currencyInfo, requireCurrency, toMajorUnits } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { balanceRows } from '../splits/index.ts';
import { cleanText } from '../../lib/text.ts';
import * as groupsRepo from './groups.repo.ts';
import { GROUP_MEMBER_CAP, INVITE_ALPHABET, INVITE_CODE_LENGTH, type Group, type Member } from './groups.schemas.ts';

const INVITE_RE = new RegExp(`^[${INVITE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);

/** A crypto-random invite code; 256 is a multiple of the 32-letter alphabet, so `b & 31` is unbiased. */
export function randomInviteCode(): string {
  return Array.from(randomBytes(INVITE_CODE_LENGTH), (b) => INVITE_ALPHABET[b & 31]).join('');
}

/** Upper-cases a code typed by a user and checks it against the alphabet; 40001 when malformed. */
export function normalizeInviteCode(input: string): string {
  const code = input.toUpperCase();
  if (!INVITE_RE.test(code)) throw Errors.field('invite_code', `must be ${INVITE_CODE_LENGTH} characters of ${INVITE_ALPHABET}`);
  return code;
}

export function toGroup(row: groupsRepo.GroupViewRow): Group {
  return {
    id: row.id,
    name: row.name,
    owner_id: row.ownerId,
    role: row.role,
    member_count: row.memberCount,
    invite_code: row.inviteCode,
    currency: row.currency,
    notify_threshold: row.notifyThreshold === null ? null : toMajorUnits(row.notifyThreshold, currencyInfo(row.currency) ?? currencyInfo('CNY')!),
    split_costs: row.splitCosts,
    dissolved: row.dissolvedAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

export interface GroupsServiceOptions {
  db: Db;
  clock: Clock;
  /** currency of a group created without one */
  defaultCurrency?: string;
  repo?: typeof groupsRepo;
  /** source of candidate invite codes (tests replace it to force collisions) */
  generateCode?: () => string;
  /** candidate codes tried before giving up with 50002 */
  codeAttempts?: number;
}

export function createGroupsService({ db, clock, defaultCurrency = 'CNY', repo = groupsRepo, generateCode = randomInviteCode, codeAttempts = 5 }: GroupsServiceOptions) {
  /** Tries fresh codes until `attempt` accepts one (returns non-null); 50002 after `codeAttempts` collisions. */
  async function withFreshCode<T>(attempt: (code: string) => Promise<T | null>): Promise<T> {
    for (let i = 0; i < codeAttempts; i++) {
      const done = await attempt(generateCode());
      if (done !== null) return done;
    }
    throw Errors.inviteCollision();
  }

  async function view(groupId: number, userId: number): Promise<Group> {
    const row = await repo.findGroupView(db, groupId, userId);
    if (!row) throw Errors.groupForbidden();
    return toGroup(row);
  }

  return {
    async create(userId: number, body: { name: string; currency?: string; split_costs?: boolean }): Promise<Group> {
      const name = cleanText(body.name, 'name', 1, 30);
      // a new group keeps its balances in its creator's base currency unless told otherwise
      const currency = body.currency !== undefined ? requireCurrency(body.currency).code : ((await baseCurrencyOf(db, userId).catch(() => null))?.code ?? defaultCurrency);
      const group = await db.transaction(async (tx) => {
        const row = await withFreshCode((code) => repo.insertGroup(tx, userId, name, code, currency, body.split_costs === true));
        await repo.insertMember(tx, row.id, userId, 'owner');
        return row;
      });
      return view(group.id, userId);
    },

    async list(userId: number): Promise<{ list: Group[] }> {
      return { list: (await repo.listLiveGroups(db, userId)).map(toGroup) };
    },

    async join(userId: number, rawCode: string): Promise<Group> {
      const code = normalizeInviteCode(rawCode);
      const groupId = await db.transaction(async (tx) => {
        // The row lock serializes joins of one group, so the member count read below cannot be
        // overtaken by a concurrent join: the cap holds under any concurrency.
        const group = await repo.lockGroupByCode(tx, code);
        if (!group) throw Errors.notFound('invite code');
        if (group.dissolvedAt) throw Errors.dissolved();
        if (await membershipOf(tx, group.id, userId)) return group.id;
        if ((await repo.countMembers(tx, group.id)) >= GROUP_MEMBER_CAP) throw Errors.rule(`a group has at most ${GROUP_MEMBER_CAP} members`);
        await repo.insertMember(tx, group.id, userId, 'member');
        return group.id;
      });
      return view(groupId, userId);
    },

    async leave(userId: number, groupId: number): Promise<void> {
      const m = await requireMembership(db, groupId, userId);
      if (m.role === 'owner' || m.group.ownerId === userId) throw Errors.rule('the owner cannot leave their own group; dissolve it instead');
      // transactions recorded in the group keep their group_id
      await repo.deleteMember(db, groupId, userId);
    },

    /**
     * In a group that splits costs, balances not yet settled stop a dissolve unless `force` (they
     * stay readable, frozen). A group that does not split (every group of a first-version client)
     * dissolves as the first contract says, whatever explicit splits left behind.
     */
    async dissolve(userId: number, groupId: number, force = false): Promise<void> {
      const group = await requireLiveGroupOwner(db, groupId, userId);
      if (!force && group.splitCosts && (await balanceRows(db, groupId)).some((r) => r.paid - r.share + r.sent - r.received !== 0)) {
        throw Errors.rule('the group has unsettled balances; settle them first or dissolve with force=true');
      }
      // the record, memberships and transactions' group_id stay; the code stops joining
      if (!(await repo.markDissolved(db, groupId, userId, clock.now()))) throw Errors.dissolved();
    },

    async refreshCode(userId: number, groupId: number): Promise<{ invite_code: string }> {
      await requireLiveGroupOwner(db, groupId, userId);
      return withFreshCode(async (code) => {
        const res = await repo.updateInviteCode(db, groupId, userId, code);
        if (res === 'gone') throw Errors.dissolved();
        return res === 'ok' ? { invite_code: code } : null;
      });
    },

    async get(userId: number, groupId: number): Promise<Group> {
      await requireGroupMember(db, groupId, userId);
      return view(groupId, userId);
    },

    async members(userId: number, groupId: number): Promise<{ list: Member[] }> {
      await requireGroupMember(db, groupId, userId);
      const rows = await repo.listMembers(db, groupId);
      return {
        list: rows.map((r) => ({ user_id: r.userId, nickname: r.nickname, avatar_url: r.avatarUrl, role: r.role, joined_at: r.joinedAt.toISOString() })),
      };
    },

    async removeMember(userId: number, groupId: number, memberId: number): Promise<void> {
      const group = await requireGroupOwner(db, groupId, userId);
      const target = memberId === userId ? true : await membershipOf(db, groupId, memberId);
      if (!target) throw Errors.notFound('group member');
      if (group.dissolvedAt) throw Errors.dissolved();
      if (memberId === userId) throw Errors.rule('the owner cannot remove themselves; dissolve the group instead');
      if (!(await repo.deleteMember(db, groupId, memberId))) throw Errors.notFound('group member');
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
