// The balances a bank statement states, offered once its rows are booked: for each account the
// statement's rows went to, its balance in the books on the statement's date beside the statement's,
// and reconciling the account to the statement (the accounts' own reconcile call: the difference
// is booked as an adjustment).
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { client, ok } from '../../api/client';
import { accountById, invalidateAccounts, loadAccounts, type Account } from '../../stores/accounts';
import { onSessionEnd } from '../../lib/session-end';
import type { Preview } from './types';

export type StatementBalance = Preview['balances'][number];

export interface BalanceOffer {
  balance: StatementBalance;
  account: Account;
  /** the account's balance in the books at the end of the statement's date, in major units */
  books: number;
  /** statement minus books, in major units (0: they agree) */
  difference: number;
  state: 'offered' | 'confirming' | 'done';
  /** once reconciled: the adjustment booked, in major units (null: none was needed) */
  adjustment: number | null;
}

/** The minor digits of a decimal as the statement writes it ("-88.80": 2, "1200": 0). */
function digitsOf(amount: string): number {
  return amount.split('.')[1]?.length ?? 0;
}

/** Statement minus books, computed in minor units so that 5600.50 - 5572 is 28.5 and not 28.499999. */
export function differenceOf(statement: string, books: number): number {
  const scale = 10 ** digitsOf(statement);
  return (Math.round(Number(statement) * scale) - Math.round(books * scale)) / scale;
}

function balanceOn(id: number, date: string): Promise<number> {
  return ok(client.GET('/api/accounts/{id}', { params: { path: { id }, query: { date } } })).then((a) => a.balance);
}

function reconcile(id: number, balance: string, date: string) {
  return ok(client.POST('/api/accounts/{id}/reconcile', { params: { path: { id } }, body: { balance, date } }));
}

export const useStatementBalancesStore = defineStore('statement-balances', () => {
  const offers = ref<BalanceOffer[]>([]);
  onSessionEnd(() => {
    offers.value = [];
  });

  /**
   * The offers of a committed statement: each balance whose method went to an open account of the
   * statement's currency, with that account's balance in the books on the statement's date.
   */
  async function load(balances: StatementBalance[]): Promise<void> {
    offers.value = [];
    await loadAccounts();
    const found: BalanceOffer[] = [];
    for (const balance of balances) {
      const account = accountById(balance.account_id);
      if (!account || account.archived || account.currency !== balance.currency) continue;
      const books = await balanceOn(account.id, balance.date);
      const difference = differenceOf(balance.amount, books);
      found.push({ balance, account, books, difference, state: 'offered', adjustment: null });
    }
    offers.value = found;
  }

  function ask(offer: BalanceOffer, yes: boolean): void {
    offer.state = yes ? 'confirming' : 'offered';
  }

  /** Reconciles the account to the statement, then reads its balance on that date again. */
  async function confirm(offer: BalanceOffer): Promise<void> {
    const res = await reconcile(offer.account.id, offer.balance.amount, offer.balance.date);
    offer.adjustment = res.adjustment?.amount ?? null;
    offer.books = await balanceOn(offer.account.id, offer.balance.date);
    offer.difference = differenceOf(offer.balance.amount, offer.books);
    offer.state = 'done';
    invalidateAccounts();
  }

  return { offers, load, ask, confirm };
});
