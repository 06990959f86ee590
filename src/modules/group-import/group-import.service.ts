import type { Db, Executor } from '../../db/client.ts';
import { currencyInfo, formatMinor, toMajorUnits, type CurrencyInfo } from '../../lib/currency.ts';
import type { CategoryKind } from '../../lib/domain.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import * as books from '../books/index.ts';
import { baseCurrencyOf, bookIn, requireLiveGroupOwner, type GroupRow } from '../books/index.ts';
import { GROUP_MEMBER_CAP, insertGroup, insertMember, randomInviteCode } from '../groups/index.ts';
import { insertSettlement } from '../splits/index.ts';
import { readGroupFile, type GroupEntry, type GroupFile, type GroupFileProblem } from './group-import.read.ts';
import * as repo from './group-import.repo.ts';
import type { GroupImportBody, GroupImportPreview, GroupImportResult } from './group-import.schemas.ts';

/*
 * A group's history from Splitwise or Spliit, recorded in a group here: each record with its payer
 * and each person's exact share, each payment as a confirmed settlement, so that the group's
 * balances move by what the file says each person is owed. People of the file become members of
 * the group (matched to members by nickname or as the caller says) or placeholder members. The
 * records are the caller's (they recorded them) and move none of their accounts: the money was
 * paid long ago, and a payer's own books keep their own payments.
 */

const SOURCE: Record<GroupFile['format'], string> = {
  splitwise: 'splitwise',
  'spliit-json': 'spliit',
  'spliit-csv': 'spliit',
};
const DEFAULT_NAME: Record<GroupFile['format'], string> = {
  splitwise: 'Splitwise',
  'spliit-json': 'Spliit',
  'spliit-csv': 'Spliit',
};
/** the category a record falls back to when the file's is none of the caller's */
const FALLBACK_CATEGORY: Record<CategoryKind, string[]> = {
  expense: ['其他', 'other'],
  income: ['其他收入', 'other income'],
};

interface Target {
  group: GroupRow | null;
  name: string;
  currency: CurrencyInfo;
}

interface Plan {
  file: GroupFile;
  target: Target;
  /** per person of the file: the user they are, or null (a placeholder) */
  users: (number | null)[];
  nicknames: (string | null)[];
  /** entries not yet in the group */
  fresh: GroupEntry[];
  already: number;
  categoryOf: (e: GroupEntry) => number | null;
  problems: GroupFileProblem[];
}

const lower = (s: string) => s.trim().toLowerCase();

function fileRefusal(code: string, message: string): AppError {
  return Errors.importRejected([{ row: 0, code, params: {}, message } as { row: number; message: string }]);
}

async function targetOf(ex: Executor, userId: number, body: GroupImportBody, file: GroupFile): Promise<Target> {
  if (body.group_id !== undefined) {
    const group = await requireLiveGroupOwner(ex, body.group_id, userId);
    return { group, name: group.name, currency: currencyInfo(group.currency) ?? currencyInfo('CNY')! };
  }
  const currency = currencyInfo(file.currency ?? '') ?? currencyInfo('CNY')!;
  // a file imported before goes back to the group it went to
  const seen = await repo.importedIds(
    ex,
    userId,
    SOURCE[file.format],
    file.entries.filter((e) => e.kind !== 'payment').map((e) => e.externalId),
  );
  for (const s of seen) {
    const group = s.groupId === null ? null : await repo.liveGroupOf(ex, userId, s.groupId);
    if (group) return { group, name: group.name, currency: currencyInfo(group.currency) ?? currency };
  }
  return { group: null, name: body.group_name?.trim() || file.name || DEFAULT_NAME[file.format], currency };
}

/** Who each person of the file is: as the body says, else the member of that nickname, else a placeholder. */
async function peopleOf(
  ex: Executor,
  userId: number,
  body: GroupImportBody,
  file: GroupFile,
  group: GroupRow | null,
): Promise<{ users: (number | null)[]; nicknames: (string | null)[] }> {
  const candidates = group
    ? await repo.membersOf(ex, group.id)
    : [{ userId, nickname: await repo.nicknameOf(ex, userId) }];
  const said = new Map<string, number | null>();
  (body.members ?? []).forEach((m, i) => {
    if (!file.people.some((p) => lower(p) === lower(m.name)))
      throw Errors.field(`members[${i}].name`, 'is not a person of the file');
    if (m.user_id !== null && !candidates.some((c) => c.userId === m.user_id))
      throw Errors.field(
        `members[${i}].user_id`,
        group ? 'must be a member of the group' : 'must be you (the group is new: you are its only member)',
      );
    said.set(lower(m.name), m.user_id);
  });
  const taken = new Set([...said.values()].filter((v): v is number => v !== null));
  const users = file.people.map((name) => {
    const key = lower(name);
    if (said.has(key)) return said.get(key)!;
    const match = candidates.find((c) => lower(c.nickname) === key && !taken.has(c.userId));
    if (!match) return null;
    taken.add(match.userId);
    return match.userId;
  });
  const ids = users.filter((u): u is number => u !== null);
  if (new Set(ids).size !== ids.length) throw Errors.field('members', 'must name each member for one person only');
  const nick = new Map(candidates.map((c) => [c.userId, c.nickname]));
  return { users, nicknames: users.map((u) => (u === null ? null : (nick.get(u) ?? null))) };
}

async function categoryPicker(ex: Executor, userId: number): Promise<(e: GroupEntry) => number | null> {
  const lists = {
    expense: await repo.categoriesOf(ex, userId, 'expense'),
    income: await repo.categoriesOf(ex, userId, 'income'),
  };
  const pick = (kind: CategoryKind, name: string) => {
    const list = lists[kind];
    const named = list.find((c) => lower(c.name) === lower(name));
    const fallback = FALLBACK_CATEGORY[kind].map((f) => list.find((c) => lower(c.name) === f)).find(Boolean);
    return (named ?? fallback ?? list[0])?.id ?? null;
  };
  return (e) => (e.kind === 'payment' ? null : pick(e.kind, e.category));
}

/** Per person: paid, share and net over every record and payment of the file. */
function totalsOf(file: GroupFile): { paid: number[]; share: number[]; net: number[] } {
  const paid = file.people.map(() => 0);
  const share = file.people.map(() => 0);
  const moved = file.people.map(() => 0);
  for (const e of file.entries) {
    const sign = e.kind === 'income' ? -1 : 1;
    if (e.kind === 'payment') {
      moved[e.payer]! += e.amount;
      for (const s of e.shares) moved[s.person]! -= s.amount;
      continue;
    }
    paid[e.payer]! += sign * e.amount;
    for (const s of e.shares) share[s.person]! += sign * s.amount;
  }
  return { paid, share, net: paid.map((p, i) => p - share[i]! + moved[i]!) };
}

async function planOf(ex: Executor, userId: number, body: GroupImportBody): Promise<Plan> {
  const hint = body.currency ?? null;
  let file = readGroupFile(body.content, hint);
  if (!file) throw fileRefusal('group_format', 'the file is not a Splitwise or Spliit export');
  const target = await targetOf(ex, userId, body, file);
  if (target.group && hint === null && file.currency !== target.currency.code)
    file = readGroupFile(body.content, target.currency.code)!;
  const problems = [...file.problems];
  if (file.currency !== null && file.currency !== target.currency.code && !problems.length)
    problems.push({
      row: 1,
      code: 'group_currency_differs',
      params: { currency: file.currency, group: target.currency.code },
      message: `the file is in ${file.currency}, the group keeps ${target.currency.code}`,
    });
  const { users, nicknames } = await peopleOf(ex, userId, body, file, target.group);
  const seen = target.group
    ? new Set(
        (
          await repo.importedIds(
            ex,
            userId,
            SOURCE[file.format],
            file.entries.map((e) => e.externalId),
          )
        ).map((s) => s.externalId),
      )
    : new Set<string>();
  const payments = target.group ? await repo.settlementKeys(ex, target.group.id) : new Map<string, number>();
  const fresh = file.entries.filter((e) => {
    if (e.kind !== 'payment') return !seen.has(e.externalId);
    const from = users[e.payer];
    const to = users[e.shares[0]!.person];
    if (from === null || to === null) return true;
    const key = repo.settlementKey(from!, to!, e.amount, e.date, e.title);
    const n = payments.get(key) ?? 0;
    if (n === 0) return true;
    payments.set(key, n - 1);
    return false;
  });
  const categoryOf = await categoryPicker(ex, userId);
  const uncategorised = fresh.find((e) => e.kind !== 'payment' && categoryOf(e) === null);
  if (uncategorised)
    problems.push({
      row: uncategorised.row,
      code: 'group_no_category',
      params: { kind: uncategorised.kind },
      message: `you have no ${uncategorised.kind} category to record the row in`,
    });
  if (file.stated && !file.problems.length) {
    const { net } = totalsOf(file);
    file.people.forEach((person, i) => {
      if (net[i] !== file.stated![i])
        problems.push({
          row: 0,
          code: 'group_total',
          params: {
            person,
            rows: formatMinor(net[i]!, target.currency),
            total: formatMinor(file.stated![i]!, target.currency),
          },
          message: `the rows give ${person} ${formatMinor(net[i]!, target.currency)}, the file's total balance ${formatMinor(file.stated![i]!, target.currency)}`,
        });
    });
  }
  return {
    file,
    target,
    users,
    nicknames,
    fresh,
    already: file.entries.length - fresh.length,
    categoryOf,
    problems,
  };
}

function previewOf(plan: Plan): GroupImportPreview {
  const c = plan.target.currency;
  const t = totalsOf(plan.file);
  const major = (n: number) => toMajorUnits(n, c);
  return {
    format: plan.file.format,
    currency: c.code,
    group: { id: plan.target.group?.id ?? null, name: plan.target.name, existing: plan.target.group !== null },
    members: plan.file.people.map((name, i) => ({
      name,
      user_id: plan.users[i] ?? null,
      nickname: plan.nicknames[i] ?? null,
      placeholder: plan.users[i] === null,
      paid: major(t.paid[i]!),
      share: major(t.share[i]!),
      net: major(t.net[i]!),
      stated: plan.file.stated ? major(plan.file.stated[i]!) : null,
    })),
    expenses: plan.fresh.filter((e) => e.kind !== 'payment').length,
    payments: plan.fresh.filter((e) => e.kind === 'payment').length,
    already_imported: plan.already,
    ignored: plan.file.ignored,
    total: major(plan.fresh.reduce((s, e) => s + (e.kind === 'payment' ? 0 : e.amount), 0)),
    errors: plan.problems.sort((a, b) => a.row - b.row),
  };
}

/** The group the records go to: the target, locked, or a new one with the caller as its owner. */
async function groupFor(tx: Executor, userId: number, target: Target): Promise<{ group: GroupRow; created: boolean }> {
  if (target.group) {
    const group = await repo.liveGroupOf(tx, userId, target.group.id, { lock: true });
    if (!group) throw Errors.dissolved();
    return { group, created: false };
  }
  for (let i = 0; i < 5; i++) {
    const group = await insertGroup(tx, userId, target.name, randomInviteCode(), target.currency.code, true);
    if (group) {
      await insertMember(tx, group.id, userId, 'owner');
      return { group, created: true };
    }
  }
  throw Errors.inviteCollision();
}

async function writeEntries(tx: Executor, userId: number, plan: Plan, group: GroupRow, users: number[]): Promise<void> {
  const c = plan.target.currency;
  const source = SOURCE[plan.file.format];
  const notAnAccount = { id: 0, currency: c.code, archived: false };
  for (const e of plan.fresh) {
    if (e.kind === 'payment') {
      await insertSettlement(tx, {
        groupId: group.id,
        fromUserId: users[e.payer]!,
        toUserId: users[e.shares[0]!.person]!,
        amountMinor: e.amount,
        note: e.title,
        date: e.date,
        createdBy: userId,
        // both sides stated it in the app the file comes from
        confirmedAt: new Date(),
      });
      continue;
    }
    let booking;
    try {
      booking = await bookIn(tx, userId, notAnAccount, e.amount, e.date);
    } catch (err) {
      const missing =
        err instanceof AppError ? (err.extra as { missing_rate?: { date: string } } | undefined) : undefined;
      if (!missing?.missing_rate) throw err;
      const base = (await baseCurrencyOf(tx, userId)).code;
      throw Errors.importRejected([
        {
          row: e.row,
          code: 'group_rate',
          params: { currency: c.code, base, date: e.date },
          message: `there is no ${c.code} to ${base} rate on or before ${e.date}; add it to your rates`,
        } as { row: number; message: string },
      ]);
    }
    await books.write(tx, userId, {
      type: 'group',
      row: {
        kind: e.kind,
        amount: e.amount,
        categoryId: plan.categoryOf(e),
        note: e.title,
        date: e.date,
        groupId: group.id,
        paidBy: users[e.payer]!,
        source,
        externalId: e.externalId,
        ...booking,
        accountId: null,
      },
      tagIds: [],
      split: {
        mode: 'exact',
        shares: e.shares.map((s) => ({
          userId: users[s.person]!,
          amountMinor: s.amount,
          value: formatMinor(s.amount, c),
        })),
      },
    });
  }
}

export function createGroupImportService({ db }: { db: Db }) {
  return {
    async preview(userId: number, body: GroupImportBody): Promise<GroupImportPreview> {
      return previewOf(await planOf(db, userId, body));
    },

    /** All or nothing: the group, its placeholder members, the records and the payments in one transaction. */
    async commit(userId: number, body: GroupImportBody): Promise<GroupImportResult> {
      return db.transaction(async (tx) => {
        const plan = await planOf(tx, userId, body);
        if (plan.problems.length) throw Errors.importRejected(plan.problems.sort((a, b) => a.row - b.row));
        const { group, created } = await groupFor(tx, userId, plan.target);
        // only the people who take part in a record to add need to be in the group
        const involved = new Set(plan.fresh.flatMap((e) => [e.payer, ...e.shares.map((s) => s.person)]));
        const members = new Set((await repo.membersOf(tx, group.id)).map((m) => m.userId));
        const base = (await baseCurrencyOf(tx, userId)).code;
        const users: number[] = [];
        let placeholders = 0;
        for (const [i, name] of plan.file.people.entries()) {
          let id = plan.users[i] ?? null;
          if (id === null && involved.has(i)) {
            id = await repo.insertPlaceholder(tx, name.slice(0, 30) || '?', base);
            placeholders++;
          }
          if (id !== null && !members.has(id)) {
            await insertMember(tx, group.id, id, 'member');
            members.add(id);
          }
          users.push(id ?? 0);
        }
        if (members.size > GROUP_MEMBER_CAP)
          throw Errors.rule(`a group has at most ${GROUP_MEMBER_CAP} members; the file would make ${members.size}`);
        await writeEntries(tx, userId, plan, group, users);
        const expenses = plan.fresh.filter((e) => e.kind !== 'payment').length;
        return {
          group_id: group.id,
          created,
          expenses,
          payments: plan.fresh.length - expenses,
          already_imported: plan.already,
          placeholders,
        };
      });
    },
  };
}

export type GroupImportService = ReturnType<typeof createGroupImportService>;
