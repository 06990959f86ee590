import { randomUUID } from 'node:crypto';
import type { Executor } from '../../../src/db/client.ts';
import { refreshTokens, users } from '../../../src/db/schema/index.ts';
import { setUpNewUser } from '../../../src/modules/identity/index.ts';
import type { Client } from '../http.ts';
import { unique } from './seq.ts';

export type UserRow = typeof users.$inferSelect;

/** A user with the default categories and a default cash account. */
export async function createUser(db: Executor, overrides: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  const n = unique();
  const [user] = await db
    .insert(users)
    .values({ provider: 'wechat', providerSubject: `openid-${n}`, nickname: `user${n}`, ...overrides })
    .returning();
  await setUpNewUser(db, user!);
  return user!;
}

/** Two users, Alice and Bob, each with requests in their own name: the owner and the stranger of most tests. */
export async function aliceAndBob(t: {
  db: Executor;
  as(user: UserRow): Client;
}): Promise<{ alice: UserRow; bob: UserRow; asAlice: Client; asBob: Client }> {
  const alice = await createUser(t.db);
  const bob = await createUser(t.db);
  return { alice, bob, asAlice: t.as(alice), asBob: t.as(bob) };
}

export async function createAdmin(db: Executor, overrides: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  return createUser(db, { role: 'admin', ...overrides });
}

/** A live refresh token row (valid for a day unless told). */
export async function createRefreshToken(
  db: Executor,
  userId: number,
  overrides: Partial<typeof refreshTokens.$inferInsert> = {},
) {
  const [row] = await db
    .insert(refreshTokens)
    .values({
      userId,
      jtiHash: randomUUID(),
      family: randomUUID(),
      expiresAt: new Date(Date.now() + 86_400_000),
      ...overrides,
    })
    .returning();
  return row!;
}
