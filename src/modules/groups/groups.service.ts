import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/client.ts';
import type { UseCaseArgs } from '../service.ts';
import { randomInviteCode, type GroupsDeps } from './groups.deps.ts';
import { createGroup, dissolveGroup, joinGroup, leaveGroup, refreshInviteCode } from './groups.life.ts';
import { getGroup, groupMembers, listGroups, removeMember } from './groups.members.ts';
import * as groupsRepo from './groups.repo.ts';

export { normalizeInviteCode, randomInviteCode, toGroup } from './groups.deps.ts';

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

/**
 * The groups, one named use case each: creating, joining, leaving and dissolving one and its
 * invite code (groups.life.ts), reading them and their members (groups.members.ts).
 */
export function createGroupsService({
  db,
  clock,
  defaultCurrency = 'CNY',
  repo = groupsRepo,
  generateCode = randomInviteCode,
  codeAttempts = 5,
}: GroupsServiceOptions) {
  const deps: GroupsDeps = { db, clock, defaultCurrency, repo, generateCode, codeAttempts };
  return {
    create: (...a: UseCaseArgs<typeof createGroup>) => createGroup(deps, ...a),
    list: (...a: UseCaseArgs<typeof listGroups>) => listGroups(deps, ...a),
    join: (...a: UseCaseArgs<typeof joinGroup>) => joinGroup(deps, ...a),
    leave: (...a: UseCaseArgs<typeof leaveGroup>) => leaveGroup(deps, ...a),
    dissolve: (...a: UseCaseArgs<typeof dissolveGroup>) => dissolveGroup(deps, ...a),
    refreshCode: (...a: UseCaseArgs<typeof refreshInviteCode>) => refreshInviteCode(deps, ...a),
    get: (...a: UseCaseArgs<typeof getGroup>) => getGroup(deps, ...a),
    members: (...a: UseCaseArgs<typeof groupMembers>) => groupMembers(deps, ...a),
    removeMember: (...a: UseCaseArgs<typeof removeMember>) => removeMember(deps, ...a),
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
