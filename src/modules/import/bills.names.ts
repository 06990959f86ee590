import type { Executor } from '../../db/client.ts';
import type { AccountType } from '../../lib/domain.ts';
import { Errors } from '../../lib/errors.ts';
import * as books from '../books/index.ts';
import * as names from './bills.names.repo.ts';
import * as repo from './bills.repo.ts';
import { isAppFormat } from './formats/apps.ts';
import { insertAccounts } from './import.repo.ts';
import type { PatchBody } from './import.schemas.ts';

/*
 * The categories and accounts a file names, mapped to the person's own or created: an app's export
 * and a QIF file name real accounts, so one that matches none of the person's (by name, exactly,
 * then but for case and spaces) is created on commit, in the same transaction as the rows, and
 * never before. The person may map any name to an existing one, or have it created, in the review.
 */

/** a format whose payment methods are accounts of the person's (an app's accounts, QIF's accounts) */
export const namesAccounts = (format: string) => format === 'qif' || isAppFormat(format);

/** A name's account in the same loose form names are matched in (case, spaces and width set aside). */
export const looseName = (name: string) => name.normalize('NFKC').replace(/\s+/g, '').toLowerCase();

const TYPE_HINTS: [RegExp, AccountType][] = [
  [/信用卡|花呗|白条|credit|visa|master|amex/i, 'credit_card'],
  [/现金|cash|wallet|钱包/i, 'cash'],
  [/支付宝|微信|零钱|余额宝|paypal|alipay|wechat/i, 'e_wallet'],
  [/贷款|借款|loan|mortgage/i, 'loan'],
  [/基金|股票|证券|理财|invest|broker|stock|fund/i, 'investment'],
  [/银行|储蓄|借记|工资卡|bank|checking|saving|debit|giro|konto|account/i, 'debit_card'],
];

/** The type an account created for a file's name gets, guessed from the name. */
export function guessAccountType(name: string): AccountType {
  return TYPE_HINTS.find(([re]) => re.test(name))?.[1] ?? 'other';
}

/** The accounts a session creates on commit: method -> type. */
export function creatingOf(s: repo.SessionRow): Record<string, AccountType> {
  return { ...((s.result?.create_accounts as Record<string, AccountType> | undefined) ?? {}) };
}

/** Once a file is read: each account it names that none of the person's stands for is to be created. */
export async function proposeAccounts(db: Executor, sessionId: number, format: string): Promise<void> {
  if (!namesAccounts(format)) return;
  const methods = await names.unmappedMethods(db, sessionId);
  if (methods.length)
    await names.setCreating(db, sessionId, Object.fromEntries(methods.map((m) => [m, guessAccountType(m)])));
}

type Mappings = NonNullable<PatchBody['mappings']>;

/** The person's mappings of the file's names, in the review's transaction; answers how many rows changed. */
export async function applyMappings(tx: Executor, userId: number, s: repo.SessionRow, m: Mappings): Promise<number> {
  let updated = 0;
  const cats = await repo.userCategories(tx, userId);
  for (const [i, c] of (m.categories ?? []).entries()) {
    const at = `mappings.categories.${i}`;
    if ((c.category_id === undefined) === (c.create === undefined))
      throw Errors.field(at, 'needs exactly one of category_id and create');
    if (c.category_id !== undefined && !cats.some((x) => x.id === c.category_id && x.kind === c.kind))
      throw Errors.field(`${at}.category_id`, `must be one of your categories of kind ${c.kind}`);
    if (c.create && cats.some((x) => x.kind === c.kind && x.name === c.name))
      throw Errors.field(`${at}.create`, 'a category of this name and kind exists: map the name to it (category_id)');
    const n = await names.mapCategoryName(tx, s.id, { ...c, categoryId: c.category_id ?? null });
    if (!n) throw Errors.field(`${at}.name`, `is not a category of kind ${c.kind} this file names`);
    updated += n;
  }
  if (m.accounts?.length) updated += await mapAccounts(tx, userId, s, m.accounts);
  return updated;
}

async function mapAccounts(
  tx: Executor,
  userId: number,
  s: repo.SessionRow,
  list: NonNullable<Mappings['accounts']>,
): Promise<number> {
  const live = (await repo.userAccounts(tx, userId)).filter((a) => !a.archived);
  const creating = creatingOf(s);
  let updated = 0;
  for (const [i, a] of list.entries()) {
    const at = `mappings.accounts.${i}`;
    if ((a.account_id === undefined) === (a.create === undefined))
      throw Errors.field(at, 'needs exactly one of account_id and create');
    if (a.type !== undefined && !a.create) throw Errors.field(`${at}.type`, 'goes with create');
    if (a.account_id !== undefined && !live.some((x) => x.id === a.account_id))
      throw Errors.field(`${at}.account_id`, 'must be one of your accounts');
    if (a.create && live.some((x) => x.name === a.method))
      throw Errors.field(`${at}.create`, 'an account of this name exists: map the method to it (account_id)');
    if (a.create) creating[a.method] = a.type ?? guessAccountType(a.method);
    else delete creating[a.method];
    await names.setCreating(tx, s.id, creating);
    const n = await names.mapMethodName(tx, s.id, a.method, a.account_id ?? null);
    if (!n) throw Errors.field(`${at}.method`, 'is not an account or payment method this file names');
    // an account chosen is remembered for the next bills, as a method mapped in bulk is
    if (a.account_id !== undefined)
      await repo.saveAccountMaps(tx, userId, [{ method: a.method, accountId: a.account_id }]);
    updated += n;
  }
  return updated;
}

/** At commit: the accounts chosen to be created that rows to book still need, created and given to their rows. */
export async function createChosenAccounts(tx: Executor, userId: number, s: repo.SessionRow): Promise<string[]> {
  const wanted = await names.methodsToCreate(tx, s.id);
  if (!wanted.length) return [];
  const creating = creatingOf(s);
  const base = await books.baseCurrencyOf(tx, userId);
  const made = wanted.map((w) => ({
    name: w.method.slice(0, 30),
    type: creating[w.method] ?? 'other',
    currency: base.code,
    openingDate: w.first,
  }));
  const ids = await insertAccounts(tx, userId, made);
  await names.assignCreated(
    tx,
    s.id,
    wanted.map((w) => w.method),
    ids,
  );
  return made.map((a) => a.name);
}
