import { randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/client.ts';
import { currencyInfo, toMajorUnits } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import type * as groupsRepo from './groups.repo.ts';
import { INVITE_ALPHABET, INVITE_CODE_LENGTH, type Group } from './groups.schemas.ts';

const INVITE_RE = new RegExp(`^[${INVITE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);

/** A crypto-random invite code; 256 is a multiple of the 32-letter alphabet, so `b & 31` is unbiased. */
export function randomInviteCode(): string {
  return Array.from(randomBytes(INVITE_CODE_LENGTH), (b) => INVITE_ALPHABET[b & 31]).join('');
}

/** Upper-cases a code typed by a user and checks it against the alphabet; 40001 when malformed. */
export function normalizeInviteCode(input: string): string {
  const code = input.toUpperCase();
  if (!INVITE_RE.test(code))
    throw Errors.field('invite_code', `must be ${INVITE_CODE_LENGTH} characters of ${INVITE_ALPHABET}`);
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
    notify_threshold:
      row.notifyThreshold === null
        ? null
        : toMajorUnits(row.notifyThreshold, currencyInfo(row.currency) ?? currencyInfo('CNY')!),
    split_costs: row.splitCosts,
    dissolved: row.dissolvedAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** What the group use cases are built from. */
export interface GroupsDeps {
  db: Db;
  clock: Clock;
  /** currency of a group created without one */
  defaultCurrency: string;
  repo: typeof groupsRepo;
  /** source of candidate invite codes */
  generateCode: () => string;
  /** candidate codes tried before giving up with 50002 */
  codeAttempts: number;
}

/** Tries fresh codes until `attempt` accepts one (returns non-null); 50002 after `codeAttempts` collisions. */
export async function withFreshCode<T>(
  { generateCode, codeAttempts }: GroupsDeps,
  attempt: (code: string) => Promise<T | null>,
): Promise<T> {
  for (let i = 0; i < codeAttempts; i++) {
    const done = await attempt(generateCode());
    if (done !== null) return done;
  }
  throw Errors.inviteCollision();
}

/** A group as the person sees it, or 40302 when they are not in it. */
export async function view({ db, repo }: GroupsDeps, groupId: number, userId: number): Promise<Group> {
  const row = await repo.findGroupView(db, groupId, userId);
  if (!row) throw Errors.groupForbidden();
  return toGroup(row);
}
