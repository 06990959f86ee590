import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../src/db/client.ts';
import { categories, groupMembers, groups, tags, transactions, users } from '../../src/db/schema/index.ts';
import { createDefaultCategories } from '../../src/modules/categories/categories.defaults.ts';

let seq = 0;
const next = () => `${process.pid}${++seq}`;

export type UserRow = typeof users.$inferSelect;

/** A user with the default categories. */
export async function createUser(db: Executor, overrides: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  const n = next();
  const [user] = await db
    .insert(users)
    .values({ provider: 'wechat', providerSubject: `openid-${n}`, nickname: `user${n}`, ...overrides })
    .returning();
  await createDefaultCategories(db, user!.id);
  return user!;
}

export async function createAdmin(db: Executor, overrides: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  return createUser(db, { role: 'admin', ...overrides });
}

/** Authorization headers for a user, with a freshly signed access token. */
export async function loginAs(app: FastifyInstance, user: { id: number; role?: string }): Promise<{ authorization: string }> {
  const token = await app.tokens.signAccess(user.id, user.role ?? 'user');
  return { authorization: `Bearer ${token}` };
}

export async function firstCategory(db: Executor, userId: number, kind: 'expense' | 'income' = 'expense') {
  const [row] = await db.select().from(categories).where(and(eq(categories.userId, userId), eq(categories.kind, kind))).orderBy(categories.sort).limit(1);
  return row!;
}

export async function createCategory(db: Executor, userId: number, overrides: Partial<typeof categories.$inferInsert> = {}) {
  const [row] = await db
    .insert(categories)
    .values({ userId, name: `cat${next()}`, color: '#123456', kind: 'expense', ...overrides })
    .returning();
  return row!;
}

export async function createTag(db: Executor, userId: number, overrides: Partial<typeof tags.$inferInsert> = {}) {
  const [row] = await db.insert(tags).values({ userId, name: `tag${next()}`.slice(0, 20), ...overrides }).returning();
  return row!;
}

export async function createTransaction(db: Executor, userId: number, overrides: Partial<typeof transactions.$inferInsert> = {}) {
  const categoryId = overrides.categoryId ?? (await firstCategory(db, userId, overrides.kind ?? 'expense')).id;
  const [row] = await db
    .insert(transactions)
    .values({ userId, kind: 'expense', amountCents: 1000, date: '2026-11-01', note: '', ...overrides, categoryId })
    .returning();
  return row!;
}

export async function createGroup(db: Executor, ownerId: number, overrides: Partial<typeof groups.$inferInsert> = {}) {
  const code = Array.from({ length: 8 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[Math.floor(Math.random() * 32)]).join('');
  const [group] = await db.insert(groups).values({ name: `group${next()}`, ownerId, inviteCode: code, ...overrides }).returning();
  await db.insert(groupMembers).values({ groupId: group!.id, userId: ownerId, role: 'owner' });
  return group!;
}

export async function addMember(db: Executor, groupId: number, userId: number) {
  await db.insert(groupMembers).values({ groupId, userId, role: 'member' });
}
