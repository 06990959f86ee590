import { Param, sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import type { CurrencyInfo } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import type { AccountRef } from './books.access.ts';
import { accountCurrency, baseCurrencyOf, bookIn, priceIn, rateOn, type Booking } from './books.money.ts';
import { insertRow, replaceTags } from './books.writer.ts';
import type { CategoryKind } from '../../lib/domain.ts';

/*
 * Entries paid in another currency than their account's ("dinner 45 EUR" on a pound card): the
 * books keep what was paid (the original amount and currency) beside what the account was charged,
 * and the base amount follows the account's figure. And entries typed by hand that a bill later
 * shows: the typed row takes the bill's id, time and counterparty instead of a second row.
 */

/** What was paid, in the currency it was paid in. */
export interface Original {
  minor: number;
  currency: CurrencyInfo;
}

/**
 * The booking of `original` in `account` on `date`. With `chargedMinor` (the bank's real figure,
 * in the account's currency) the account is charged that and the base amount follows it; without,
 * the charge is the original converted at the day's rates (priceIn). A rate that is needed and
 * missing is 40001 on `rate` naming it (missing_rate), so that a client can ask for it.
 */
export async function priceOriginal(
  ex: Executor,
  userId: number,
  account: AccountRef,
  original: Original,
  date: string,
  chargedMinor?: number,
): Promise<Booking & { amountMinor: number }> {
  if (chargedMinor !== undefined)
    return { ...(await bookIn(ex, userId, account, chargedMinor, date)), amountMinor: chargedMinor };
  // paid in the account's own currency: the original is the amount
  if (original.currency.code === account.currency)
    return { ...(await bookIn(ex, userId, account, original.minor, date)), amountMinor: original.minor };
  const base = await baseCurrencyOf(ex, userId);
  const inAccount = accountCurrency(account);
  // each rate asked for by name first, so that a missing one is answered as such
  const rates = new Map<string, string>();
  for (const code of new Set([inAccount.code, original.currency.code])) {
    if (code === base.code) continue;
    const rate = await rateOn(ex, userId, code, date);
    if (rate === null) throw Errors.missingRate(code, base.code, date);
    rates.set(code, rate);
  }
  const out = await priceIn(original.minor, original.currency, inAccount, base, date, (c) => rates.get(c) ?? null);
  if (!out.ok) throw Errors.field('original_amount', out.reason);
  return {
    accountId: account.id,
    currency: account.currency,
    baseAmount: out.priced.baseAmount,
    rate: out.priced.rate,
    amountMinor: out.priced.minor,
  };
}

/** Sets (or with null clears) what a row of the owner was paid in another currency. */
export async function writeOriginal(
  ex: Executor,
  userId: number,
  id: number,
  original: { minor: number; currency: string } | null,
): Promise<void> {
  await query(
    ex,
    sql`update transactions set original_amount_cents = ${original?.minor ?? null}::bigint,
               original_currency = ${original?.currency ?? null}::text
        where id = ${id} and user_id = ${userId}`,
  );
}

/** An expense or income of one's own paid in another currency than its account's. */
export interface ForeignDraft {
  kind: CategoryKind;
  account: AccountRef;
  original: Original;
  /** what the account was charged (the bank's figure); else the original at the day's rates */
  chargedMinor?: number;
  categoryId: number;
  tagIds: readonly number[];
  note: string;
  date: string;
  categoryAuto: boolean;
}

/** Writes a foreign draft with its original amount and its tags; answers its id. */
export async function writeForeign(ex: Executor, userId: number, d: ForeignDraft): Promise<number> {
  const { amountMinor, ...booking } = await priceOriginal(ex, userId, d.account, d.original, d.date, d.chargedMinor);
  const id = await insertRow(ex, userId, {
    kind: d.kind,
    amount: amountMinor,
    categoryId: d.categoryId,
    note: d.note,
    date: d.date,
    groupId: null,
    categoryAuto: d.categoryAuto,
    ...booking,
  });
  if (d.original.currency.code !== d.account.currency)
    await writeOriginal(ex, userId, id, { minor: d.original.minor, currency: d.original.currency.code });
  if (d.tagIds.length) await replaceTags(ex, id, d.tagIds);
  return id;
}

/** A typed row that a bill's row turned out to be: what the bill adds to it. */
export interface Adoption {
  id: number;
  /** the bill's source and its id of the payment; null when the bill gives none (the row then stays without one) */
  source: string | null;
  externalId: string | null;
  /** when the payment was made, as the bill says; null keeps the row's own */
  at: Date | string | null;
  /** the bill's counterparty, added to the note when the note does not say it already */
  counterparty: string;
}

/**
 * Gives typed rows the id, time and counterparty of the bill rows they are, in one statement: a
 * later upload of the bill then finds them by id. Only rows of the owner still without an id, or
 * already under this very id (an entry confirmed from a payment screenshot), are changed; answers
 * the ids that were.
 */
export async function adoptImported(ex: Executor, userId: number, rows: readonly Adoption[]): Promise<number[]> {
  if (!rows.length) return [];
  const col = <T>(f: (r: Adoption) => T) => new Param(rows.map(f));
  const at = (r: Adoption) => (r.at instanceof Date ? r.at.toISOString() : r.at);
  const out = await query<{ id: number }>(
    ex,
    sql`update transactions t set source = k.source, external_id = k.external_id,
               created_at = coalesce(k.at, t.created_at),
               note = case when k.counterparty = '' or strpos(t.note, k.counterparty) > 0 then t.note
                           when t.note = '' then left(k.counterparty, 200)
                           else left(t.note || ' · ' || k.counterparty, 200) end,
               updated_at = now()
        from unnest(${col((r) => r.id)}::int[], ${col((r) => r.source)}::text[], ${col((r) => r.externalId)}::text[],
                    ${col(at)}::timestamptz[], ${col((r) => r.counterparty.trim())}::text[])
             as k(id, source, external_id, at, counterparty)
        where t.id = k.id and t.user_id = ${userId}::int
          and (t.external_id is null or (t.source = k.source and t.external_id = k.external_id))
        returning t.id`,
  );
  return out.map((r) => Number(r.id));
}
