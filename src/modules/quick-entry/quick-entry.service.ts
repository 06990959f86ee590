import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import { parseQuickEntry } from '../../lib/quick-entry/index.ts';
import { currencyInfo } from '../../lib/currency.ts';
import { parseAmountIn } from '../books/index.ts';
import { importedLike } from '../import/index.ts';
import { loadTransactionViews } from '../transactions/index.ts';
import { accountNames } from '../accounts/index.ts';
import { userTimezone } from '../books/index.ts';
import type { CategoryService } from '../categories/index.ts';
import type { DuplicatesList, DuplicatesQuery, QuickEntryParse } from './quick-entry.schemas.ts';

export interface QuickEntryServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appTimezone'>;
  categories: Pick<CategoryService, 'suggestFor'>;
}

export function createQuickEntryService({ db, clock, config, categories }: QuickEntryServiceDeps) {
  return {
    /**
     * One line read as a record: the pure parser with the caller's today (in their time zone) and
     * accounts, and the category from the suggester, chosen only when it is confident.
     */
    async parse(userId: number, text: string): Promise<QuickEntryParse> {
      const line = text.trim();
      if (!line) throw Errors.field('text', 'must not be empty');
      const [timezone, accounts] = await Promise.all([
        userTimezone(db, userId, config.appTimezone),
        accountNames(db, userId),
      ]);
      const parsed = parseQuickEntry(line, { today: todayIn(timezone, clock.now()), accounts });
      let kind = parsed.kind;
      let categoryId: number | null = null;
      let suggestions: QuickEntryParse['suggestions'] = [];
      if (kind !== 'transfer') {
        // a refund is an expense in its purchase's category
        const categoryKind = kind === 'income' ? 'income' : 'expense';
        const s = await categories.suggestFor(userId, {
          kind: categoryKind,
          amountMinor: parsed.amount_cents ?? undefined,
          note: parsed.note,
        });
        suggestions = s.list;
        categoryId = s.preselect;
        // a line with no kind word whose note the history knows well is that kind
        if (kind === null && categoryId !== null) kind = 'expense';
      }
      return {
        kind,
        amount: parsed.amount,
        currency: parsed.currency,
        date: parsed.date,
        date_given: parsed.date_given,
        category_id: categoryId,
        account_id: parsed.account_id,
        to_account_id: parsed.to_account_id,
        note: parsed.note,
        suggestions,
      };
    },

    /**
     * The imported entries a new one would count twice: asked before saving an entry typed by hand,
     * so that the person is warned of the bill's row already in the books.
     */
    async possibleDuplicates(userId: number, q: DuplicatesQuery): Promise<DuplicatesList> {
      const currency = currencyInfo(q.currency);
      if (!currency) throw Errors.field('currency', 'must be a currency one can keep books in');
      const minor = parseAmountIn(q.amount, currency);
      const at = q.time === undefined ? undefined : new Date(q.time);
      if (at && Number.isNaN(at.getTime())) throw Errors.field('time', 'must be a date and time');
      const ids = await importedLike(db, userId, {
        kind: q.kind,
        minor,
        currency: currency.code,
        accountId: q.account_id,
        date: q.date,
        at,
      });
      return { list: await loadTransactionViews(db, ids) };
    },
  };
}

export type QuickEntryService = ReturnType<typeof createQuickEntryService>;
