/**
 * The first-run setup, offered to a person whose books are still empty and who has neither finished
 * nor skipped it: a base currency, the usual accounts with what they hold today, and a monthly
 * budget that repeats. All of it is written in one transaction, or nothing is.
 */
import { Type, type Static } from 'typebox';
import { eq, sql } from 'drizzle-orm';
import { query, type Db } from '../../db/client.ts';
import { userSetups } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { parseBookedMinor, requireCurrency } from '../../lib/currency.ts';
import { todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { AmountInput, CurrencyCode } from '../../lib/schemas.ts';
import { cleanText } from '../../lib/text.ts';
import { parseAmountIn, userTimezone } from '../books/index.ts';
import { writeLine } from '../budgets/index.ts';
import { openUsualAccounts } from './accounts.booking.ts';
import { switchBaseCurrency } from './base-currency.ts';
import { AccountType } from './accounts.schemas.ts';

export const SetupState = Type.Object(
  {
    state: Type.Union(
      [Type.Literal('pending'), Type.Literal('finished'), Type.Literal('skipped'), Type.Literal('not_needed')],
      {
        description:
          '`pending`: offer the setup (books still empty, never finished or skipped); `not_needed`: the books have ' +
          'entries already',
      },
    ),
    base_currency: CurrencyCode,
  },
  { title: 'SetupState' },
);
export type SetupState = Static<typeof SetupState>;

export const SetupBody = Type.Object(
  {
    base_currency: Type.Optional(CurrencyCode),
    accounts: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({
            description: '1 to 30 characters; an account of that name already there takes the balance',
          }),
          type: AccountType,
          opening_balance: Type.Optional(
            Type.Union([Type.Number(), Type.String()], {
              description: 'what it holds today in the base currency, may be negative (a card debt); default 0',
            }),
          ),
        }),
        { maxItems: 20 },
      ),
    ),
    monthly_budget: Type.Optional(
      Type.Union([AmountInput, Type.Null()], {
        description: 'in the base currency, from this month on until changed; null or absent: none',
      }),
    ),
  },
  { title: 'SetupBody' },
);
export type SetupBody = Static<typeof SetupBody>;

export function createSetup({ db, clock, appTimezone }: { db: Db; clock: Clock; appTimezone: string }) {
  async function state(userId: number): Promise<SetupState> {
    const [row] = await query<{ outcome: string | null; base: string; used: boolean }>(
      db,
      sql`select (select s.outcome from user_setups s where s.user_id = u.id) as outcome, u.base_currency as base,
                 exists (select 1 from transactions t where t.user_id = u.id) as used
          from users u where u.id = ${userId}`,
    );
    if (!row) throw Errors.notFound('user');
    const s =
      row.outcome === 'finished' || row.outcome === 'skipped' ? row.outcome : row.used ? 'not_needed' : 'pending';
    return { state: s, base_currency: row.base };
  }

  return {
    state,

    async finish(userId: number, body: SetupBody): Promise<SetupState> {
      const code =
        body.base_currency === undefined ? undefined : requireCurrency(body.base_currency, 'base_currency').code;
      const names = new Set<string>();
      const list = (body.accounts ?? []).map((a, i) => {
        const name = cleanText(a.name, `accounts[${i}].name`, 1, 30);
        if (names.has(name.toLowerCase())) throw Errors.field(`accounts[${i}].name`, 'names an account twice');
        names.add(name.toLowerCase());
        return { name, type: a.type, opening: a.opening_balance ?? 0, field: `accounts[${i}].opening_balance` };
      });
      const today = todayIn(await userTimezone(db, userId, appTimezone), clock.now());
      await db.transaction(async (tx) => {
        const [done] = await tx.select().from(userSetups).where(eq(userSetups.userId, userId)).for('update');
        if (done) throw Errors.conflict(`the setup was already ${done.outcome}`);
        if (code !== undefined) await switchBaseCurrency(tx, userId, code, clock.now());
        const [{ base } = { base: code ?? 'CNY' }] = await query<{ base: string }>(
          tx,
          sql`select base_currency as base from users where id = ${userId}`,
        );
        const currency = requireCurrency(base);
        await openUsualAccounts(
          tx,
          userId,
          list.map((a) => ({
            name: a.name,
            type: a.type,
            openingMinor: parseAmountIn(a.opening, currency, a.field, { allowNegative: true, allowZero: true }),
          })),
          currency.code,
          today,
        );
        if (body.monthly_budget !== undefined && body.monthly_budget !== null) {
          const amount = parseBookedMinor(body.monthly_budget, currency, 'monthly_budget');
          await writeLine(tx, { userId, groupId: null }, today.slice(0, 7), { amount, carryOver: false, repeat: true });
        }
        await tx.insert(userSetups).values({ userId, outcome: 'finished', at: clock.now() });
      });
      return state(userId);
    },

    /** Not now, and not again: a skipped setup is not offered any more (a finished one stays finished). */
    async skip(userId: number): Promise<SetupState> {
      await db.insert(userSetups).values({ userId, outcome: 'skipped', at: clock.now() }).onConflictDoNothing();
      return state(userId);
    },
  };
}
