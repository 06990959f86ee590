import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accounts, categories, groupMembers, groups, tags, users } from '../../db/schema/index.ts';
import { notYours, zoneOr } from '../../lib/access.ts';
import { bookableCurrencies } from '../../lib/currency.ts';
import { kindLabel, type CategoryKind } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';

/** A group's row, as the access rules below read it for every module (the groups module's too). */
export type GroupRow = typeof groups.$inferSelect;

/**
 * "May this user touch these ids?", answered in one place for every feature. Each rule has one
 * function and one error: a reference the caller does not own (a category, tag, account or group
 * named in a body or query) is a validation failure of that field (40001); a group the caller is not
 * in is 40302; a dissolved group refuses writes with 40902. Rows addressed by the URL are looked up
 * with their owner in the WHERE by each feature's repository and answer 40401 when not the caller's.
 */

// ---- categories ----

export interface OwnedCategory {
  id: number;
  kind: CategoryKind;
}

/** One of the caller's categories, of `kind` when given (else 40001 on `field`). */
export async function requireCategory(
  db: Executor,
  userId: number,
  categoryId: number,
  opts: { field?: string; kind?: CategoryKind } = {},
): Promise<OwnedCategory> {
  const field = opts.field ?? 'category_id';
  const [cat] = await db
    .select({ id: categories.id, kind: categories.kind })
    .from(categories)
    .where(and(eq(categories.id, categoryId), eq(categories.userId, userId)));
  if (!cat) throw notYours.category(field);
  if (opts.kind && cat.kind !== opts.kind) throw Errors.field(field, `must be ${kindLabel(opts.kind)} category`);
  return cat;
}

/** Every id one of the caller's categories (else 40001 on `field`); answers the distinct ids. */
export async function requireCategories(
  db: Executor,
  userId: number,
  ids: readonly number[],
  field: string,
): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const rows = await db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.userId, userId), inArray(categories.id, unique)));
  if (rows.length !== unique.length) throw notYours.category(field);
  return unique;
}

// ---- tags ----

/** Which of `ids` are the caller's tags (no error: for leaving out tags deleted meanwhile). */
export async function ownTagIds(db: Executor, userId: number, ids: readonly number[]): Promise<Set<number>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Set();
  const rows = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.userId, userId), inArray(tags.id, unique)));
  return new Set(rows.map((r) => r.id));
}

/** Every id one of the caller's tags, at most `max` distinct ones (else 40001 on `field`); answers the distinct ids. */
export async function requireTags(
  db: Executor,
  userId: number,
  ids: readonly number[],
  opts: { field?: string; max?: number } = {},
): Promise<number[]> {
  const field = opts.field ?? 'tag_ids';
  const unique = [...new Set(ids)];
  if (opts.max !== undefined && unique.length > opts.max)
    throw Errors.field(field, `must hold at most ${opts.max} tags`);
  const own = await ownTagIds(db, userId, unique);
  if (own.size !== unique.length) throw notYours.tag(field);
  return unique;
}

export async function requireTag(db: Executor, userId: number, tagId: number, field = 'tag_id'): Promise<void> {
  await requireTags(db, userId, [tagId], { field });
}

// ---- groups ----

export async function membershipOf(
  db: Executor,
  groupId: number,
  userId: number,
): Promise<{ group: GroupRow; role: 'owner' | 'member' } | null> {
  const [row] = await db
    .select({ group: groups, role: groupMembers.role })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
  return row ?? null;
}

/** The caller's membership (dissolved groups stay readable to their members): else 40302. */
export async function requireMembership(
  db: Executor,
  groupId: number,
  userId: number,
): Promise<{ group: GroupRow; role: 'owner' | 'member' }> {
  const m = await membershipOf(db, groupId, userId);
  if (!m) throw Errors.groupForbidden();
  return m;
}

/** The caller must be a member: else 40302. */
export async function requireGroupMember(db: Executor, groupId: number, userId: number): Promise<GroupRow> {
  return (await requireMembership(db, groupId, userId)).group;
}

/** A group the caller already knows they belong to must also be theirs to manage: else 40302. */
export function assertGroupOwner(group: GroupRow, userId: number): GroupRow {
  if (group.ownerId !== userId) throw Errors.groupForbidden('only the group owner may do this');
  return group;
}

/** The caller must own the group: else 40302. */
export async function requireGroupOwner(db: Executor, groupId: number, userId: number): Promise<GroupRow> {
  return assertGroupOwner(await requireGroupMember(db, groupId, userId), userId);
}

/** Managing a group that still takes writes: owner (else 40302) of a live group (else 40902). */
export async function requireLiveGroupOwner(db: Executor, groupId: number, userId: number): Promise<GroupRow> {
  const group = await requireGroupOwner(db, groupId, userId);
  if (group.dissolvedAt) throw Errors.dissolved();
  return group;
}

/** Writing into a group: member (else 40302) of a live group (else 40902). */
export async function requireWritableGroup(db: Executor, groupId: number, userId: number): Promise<GroupRow> {
  const group = await requireGroupMember(db, groupId, userId);
  if (group.dissolvedAt) throw Errors.dissolved();
  return group;
}

/** A group named inside a stored value (saved filter criteria): one the caller belongs to, else 40001 on `field`. */
export async function requireGroupReference(
  db: Executor,
  groupId: number,
  userId: number,
  field: string,
): Promise<void> {
  if (!(await membershipOf(db, groupId, userId))) throw notYours.group(field);
}

// ---- the same rules inside a statement ----

/**
 * The rules above as SQL, for the statement that checks and writes a manual entry in one round
 * trip (books.manual.ts): it answers, per entry, what each rule found, and `refusal` turns a failed
 * rule into the same error the functions above give. Arguments are SQL expressions: bound values or
 * columns of the statement.
 */
// the one-statement insert reads amounts with 2 decimals: an account in a currency with another
// number of minor digits (JPY 0, KWD 3) is booked by the service instead
const NOT_TWO_DIGITS = sql.raw(
  `array[${bookableCurrencies()
    .filter((c) => c.digits !== 2)
    .map((c) => `'${c.code}'`)
    .join(',')}]::text[]`,
);

export const accessSql = {
  /** `alias` (a row of categories) is the user's category `categoryId`, of any kind */
  ownCategory: (alias: SQL, categoryId: SQL, userId: SQL): SQL =>
    sql`${alias}.id = ${categoryId} and ${alias}.user_id = ${userId}`,
  /** `alias` (a row of accounts) is the user's account `accountId`, their default one when it is null */
  namedAccount: (alias: SQL, accountId: SQL, userId: SQL): SQL =>
    sql`${alias}.user_id = ${userId} and (case when ${accountId} is null then ${alias}.is_default else ${alias}.id = ${accountId} end)`,
  /**
   * the account `alias` is in the base currency `base` and that currency has 2 minor digits: an
   * amount read with 2 decimals is booked there as is, without conversion
   */
  bookedAsIs: (alias: SQL, base: SQL): SQL =>
    sql`(${alias}.currency <> all(${NOT_TWO_DIGITS}) and ${alias}.currency = ${base})`,
  /** every id of the int[] `tagIds` (distinct) is one of the user's tags */
  tags: (tagIds: SQL, userId: SQL): SQL =>
    sql`(select count(*) from tags where user_id = ${userId} and id = any(${tagIds})) = cardinality(${tagIds})`,
};

/** What the statement found of a manual entry's references. */
export interface AccessVerdict {
  /** the kind of the category when it is the user's */
  categoryKind: CategoryKind | null;
  tagsOk: boolean;
  /** the account named (or the default one) when it is the user's */
  account: AccountRef | null;
}

/**
 * The error of the first rule a manual entry failed, in the order the checks above are made
 * (category, tags, account), or the account when every rule passed.
 */
export function refusal(
  v: AccessVerdict,
  entry: { kind: CategoryKind; accountId: number | null },
): { error: Error } | { account: AccountRef } {
  if (v.categoryKind === null) return { error: notYours.category('category_id') };
  if (v.categoryKind !== entry.kind)
    return { error: Errors.field('category_id', `must be ${kindLabel(entry.kind)} category`) };
  if (!v.tagsOk) return { error: notYours.tag('tag_ids') };
  if (!v.account)
    return { error: entry.accountId === null ? Errors.notFound('account') : notYours.account('account_id') };
  if (v.account.archived) return { error: archivedAccount('account_id') };
  return { account: v.account };
}

const archivedAccount = (field: string) =>
  Errors.field(field, 'is archived: unarchive it to book new transactions in it');

// ---- accounts ----

export interface AccountRef {
  id: number;
  currency: string;
  archived: boolean;
}

/** The user's default account (every user has one), or 40401 on the very unlikely absence. */
export async function defaultAccount(db: Executor, userId: number): Promise<AccountRef> {
  const [row] = await db
    .select({ id: accounts.id, currency: accounts.currency, archived: accounts.archived })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.isDefault, true)));
  if (!row) throw Errors.notFound('account');
  return row;
}

/**
 * One of the caller's accounts. Anyone else's, or none: 40401 when the account is what the request
 * is about (its path), 40001 on `field` when the request names it as a reference in a body.
 */
export async function requireAccount(
  db: Executor,
  userId: number,
  accountId: number,
  opts: { field?: string } = {},
): Promise<AccountRef> {
  const [row] = await db
    .select({ id: accounts.id, currency: accounts.currency, archived: accounts.archived })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.userId, userId)));
  if (!row) throw opts.field ? notYours.account(opts.field) : Errors.notFound('account');
  return row;
}

/** Like requireAccount, and one that still takes new rows (not archived): else 40001 on `field`. */
export async function requireOpenAccount(
  db: Executor,
  userId: number,
  accountId: number,
  field = 'account_id',
): Promise<AccountRef> {
  const row = await requireAccount(db, userId, accountId, { field });
  if (row.archived) throw archivedAccount(field);
  return row;
}

// ---- the caller's settings ----

/** The user's own IANA time zone, or `fallback` (APP_TIMEZONE) when they have none. */
export async function userTimezone(db: Executor, userId: number, fallback: string): Promise<string> {
  const [row] = await db.select({ timezone: users.timezone }).from(users).where(eq(users.id, userId));
  return zoneOr(row?.timezone, fallback);
}
