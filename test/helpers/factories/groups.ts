import type { Executor } from '../../../src/db/client.ts';
import { groupMembers, groups } from '../../../src/db/schema/index.ts';
import { unique } from './seq.ts';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A group owned by `ownerId` (who is its first member), with a random invite code. */
export async function createGroup(db: Executor, ownerId: number, overrides: Partial<typeof groups.$inferInsert> = {}) {
  const code = Array.from({ length: 8 }, () => CODE_ALPHABET[Math.floor(Math.random() * CODE_ALPHABET.length)]).join(
    '',
  );
  const [group] = await db
    .insert(groups)
    .values({ name: `group${unique()}`, ownerId, inviteCode: code, ...overrides })
    .returning();
  await db.insert(groupMembers).values({ groupId: group!.id, userId: ownerId, role: 'owner' });
  return group!;
}

export async function addMember(db: Executor, groupId: number, userId: number) {
  await db.insert(groupMembers).values({ groupId, userId, role: 'member' });
}
