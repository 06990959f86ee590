// The add form, the same on every screen: what is being recorded, what a line of text gave, the
// category suggestions (only a confident one is preselected), and saving, correcting or deleting.
import { defineStore } from 'pinia';
import { idempotencyKey, ClientError } from '../../api/client';
import type { Category, Suggestion, Transaction } from '../../api/types';
import { amountText, currencyDigits, requireAmount, validAmount } from '../../lib/amounts';
import { emptySplit, splitBody, splitCheck, type SplitDraft } from '../transactions';
import type { ReceiptDraft } from '../receipts';
import * as api from './api';
import { categoryForConcept, conceptByKey, conceptOf, parseQuickEntry } from './parser';

export type EntryKind = 'expense' | 'income' | 'transfer' | 'refund';

export interface Draft {
  kind: EntryKind;
  amount: string;
  date: string;
  category_id: number | null;
  /** true once the person chose the category; a preselected suggestion left as it is stays false */
  category_picked: boolean;
  account_id: number | null;
  to_account_id: number | null;
  to_amount: string;
  note: string;
  tag_ids: number[];
  group_id: number | null;
  refund_of: number | null;
  /** the currency `amount` was paid in, when not the account's own (45 EUR on a pound card); null: the account's */
  currency: string | null;
  /** paid in another currency: what the account was charged (the bank's figure); '' takes the day's rate */
  charged: string;
}

/** What a line of text gave, part by part, for the preview before saving. */
export interface Understood {
  kind: EntryKind | null;
  amount: string | null;
  currency: string | null;
  date: string | null;
  category_id: number | null;
  account_id: number | null;
  to_account_id: number | null;
  note: string;
}

interface AccountRef {
  id: number;
  name: string;
  type: string;
  currency: string;
  archived: boolean;
}

/** The fields a receipt's draft fills; those read with less confidence than this are marked for checking. */
export type ReceiptField = 'kind' | 'amount' | 'currency' | 'date' | 'note' | 'account_id' | 'category_id';
const SURE = 0.8;

/** What a recognised receipt gave the draft beyond its fields. */
export interface ReceiptFill {
  /** the image it came from (the receipts queue's key) */
  key: number;
  /** the bill and order id the entry keeps, when the screenshot showed them */
  source: 'wechat' | 'alipay' | null;
  external_id: string | null;
  /** when it was paid, as printed */
  time: string | null;
  category_id: number | null;
  /** fields to check: read with little confidence, or not read at all */
  low: ReceiptField[];
}

const categoryKind = (k: EntryKind): 'expense' | 'income' => (k === 'income' ? 'income' : 'expense');

/** The currency a draft was paid in when it is not its account's; null when it is (or none is said). */
export function paidIn(d: Pick<Draft, 'currency'>, accountCurrency: string | undefined): string | null {
  return d.currency && accountCurrency && d.currency !== accountCurrency ? d.currency : null;
}

function blank(date: string, groupId: number | null, accountId: number | null): Draft {
  return {
    kind: 'expense',
    amount: '',
    date,
    category_id: null,
    category_picked: false,
    account_id: accountId,
    to_account_id: null,
    to_amount: '',
    note: '',
    tag_ids: [],
    group_id: groupId,
    refund_of: null,
    currency: null,
    charged: '',
  };
}

/** The draft of an existing row: a refund is an expense with a negative amount, shown by its size. */
function draftOf(tx: Transaction): Draft {
  const refund = tx.kind === 'expense' && tx.amount < 0;
  const paid = tx.original_amount !== null && tx.original_currency !== null;
  return {
    kind: refund ? 'refund' : tx.kind === 'adjustment' ? 'expense' : tx.kind,
    // paid in another currency: the amount paid, and what the account was charged beside it
    amount: amountText(Math.abs(paid ? tx.original_amount! : tx.amount)),
    currency: paid ? tx.original_currency : null,
    charged: paid ? amountText(Math.abs(tx.amount)) : '',
    date: tx.date,
    category_id: tx.category_id,
    category_picked: tx.category_picked,
    account_id: tx.account_id,
    to_account_id: tx.to_account_id,
    to_amount: tx.to_amount === null ? '' : amountText(tx.to_amount),
    note: tx.note,
    tag_ids: tx.tags.map((x) => x.id),
    group_id: tx.group_id,
    refund_of: tx.refund_of,
  };
}

export const useEntryStore = defineStore('entry', {
  state: () => ({
    editing: null as Transaction | null,
    draft: blank('', null, null),
    split: emptySplit() as SplitDraft,
    line: '',
    understood: null as Understood | null,
    suggestions: [] as Suggestion[],
    purchases: [] as Transaction[],
    busy: false,
    error: '',
    key: idempotencyKey(),
    /** answers to older questions are dropped: one counter per kind of question */
    seq: 0,
    lineSeq: 0,
    purchaseSeq: 0,
    /** imported entries the new one would count twice: shown once, then saving goes ahead */
    duplicates: [] as Transaction[],
    duplicatesShown: false,
    /** the receipt the draft was filled from */
    receipt: null as ReceiptFill | null,
    /** the entry the last save created */
    lastSaved: null as Transaction | null,
  }),
  getters: {
    isRefundRow: (s) => s.editing !== null && s.editing.kind === 'expense' && s.editing.amount < 0,
    /** the kinds a row may become: a new one any; a saved one stays what it is (a transfer, a refund) */
    kinds: (s): EntryKind[] => {
      const e = s.editing;
      if (!e) return ['expense', 'income', 'transfer', 'refund'];
      if (e.kind === 'transfer') return ['transfer'];
      if (e.kind === 'expense' && e.amount < 0) return ['refund'];
      return ['expense', 'income'];
    },
  },
  actions: {
    start(tx: Transaction | null, today: string, groupId: number | null, accountId: number | null) {
      this.editing = tx;
      this.draft = tx ? draftOf(tx) : blank(today, groupId, accountId);
      this.split = tx?.split
        ? {
            paid_by: tx.paid_by,
            mode: tx.split.mode,
            included: tx.split.members.map((m) => m.user_id),
            values: Object.fromEntries(tx.split.members.map((m) => [m.user_id, m.value ?? '1'])),
          }
        : emptySplit();
      this.line = '';
      this.understood = null;
      this.suggestions = [];
      this.purchases = [];
      this.error = '';
      this.busy = false;
      this.key = idempotencyKey();
      this.receipt = null;
      this.lastSaved = null;
      this.forgetDuplicates();
    },

    /** Fills the draft from a recognised receipt; `currencyOf` gives an account's currency. */
    applyReceipt(r: ReceiptDraft, key: number, currencyOf: (id: number | null) => string | undefined) {
      const d = this.draft;
      this.setKind(r.kind);
      if (r.amount) d.amount = r.amount;
      if (r.date) d.date = r.date;
      if (r.account_id) d.account_id = r.account_id;
      d.currency = r.currency && r.currency !== currencyOf(d.account_id) ? r.currency : null;
      d.charged = '';
      d.note = (r.counterparty ?? '').slice(0, 200);
      if (r.category_id) {
        d.category_id = r.category_id;
        d.category_picked = false;
      }
      const c = r.confidence;
      const read: [ReceiptField, unknown, number][] = [
        ['kind', r.kind, c.kind],
        ['amount', r.amount, c.amount],
        ['currency', r.currency, c.currency],
        ['date', r.date, c.date],
        ['note', r.counterparty, c.counterparty],
        ['account_id', r.account_id, c.account_id],
        ['category_id', r.category_id, c.category_id],
      ];
      this.receipt = {
        key,
        source: r.order_id ? r.source : null,
        external_id: r.source ? r.order_id : null,
        time: r.time,
        category_id: r.category_id,
        low: read.filter(([, value, sure]) => value === null || sure < SURE).map(([field]) => field),
      };
    },

    /** A field the person looked at (changed): no longer marked. */
    checked(field: ReceiptField) {
      if (this.receipt) this.receipt.low = this.receipt.low.filter((f) => f !== field);
    },

    /** The draft changed: a warning about duplicates no longer holds. */
    forgetDuplicates() {
      this.duplicates = [];
      this.duplicatesShown = false;
    },

    setKind(kind: EntryKind) {
      if (this.draft.kind === kind) return;
      const before = categoryKind(this.draft.kind);
      this.draft.kind = kind;
      if (categoryKind(kind) !== before || kind === 'transfer') {
        this.draft.category_id = null;
        this.draft.category_picked = false;
        this.suggestions = [];
      }
      if (kind !== 'refund') this.draft.refund_of = null;
      if (kind === 'transfer' || kind === 'refund') this.draft.group_id = null;
    },

    pickCategory(id: number | null) {
      this.draft.category_id = id;
      this.draft.category_picked = id !== null;
    },

    /**
     * Reads a line at once with the shared parser (so it works offline) and fills the form; the
     * server's reading then adds the category the suggester is confident of, from the history.
     */
    async applyLine(
      text: string,
      ctx: { today: string; categories: Category[]; accounts: AccountRef[]; online: boolean },
    ) {
      this.line = text;
      const mine = ++this.lineSeq;
      if (!text.trim()) {
        this.understood = null;
        return;
      }
      const p = parseQuickEntry(text, { today: ctx.today, accounts: ctx.accounts });
      const kind: EntryKind | null = this.editing ? null : p.kind;
      const concept = p.concept ? conceptByKey(p.concept) : undefined;
      const wantKind = categoryKind(kind ?? this.draft.kind);
      const local = concept && concept.kind === wantKind ? categoryForConcept(concept, ctx.categories) : null;
      const u: Understood = {
        kind,
        amount: p.amount === null ? null : amountText(p.amount),
        currency: p.currency,
        date: p.date_given ? p.date : null,
        category_id: local?.id ?? null,
        account_id: p.account_id,
        to_account_id: p.to_account_id,
        note: p.note,
      };
      this.fill(u);
      if (!ctx.online) return;
      try {
        const server = await api.parseLine(text);
        if (mine !== this.lineSeq) return;
        // only what the server adds: fields corrected since the local reading keep the correction
        const kind = u.kind === null && server.kind !== null ? server.kind : u.kind;
        this.understood = { ...u, kind, category_id: server.kind === 'transfer' ? null : server.category_id };
        if (kind !== u.kind && kind) this.setKind(kind);
        this.suggestions = server.suggestions.map((s) => ({ ...s }));
        if (!this.draft.category_picked && this.draft.kind !== 'transfer')
          this.draft.category_id = this.understood.category_id;
      } catch {
        // offline or refused: the local reading stands
      }
    },

    fill(u: Understood) {
      this.understood = u;
      const d = this.draft;
      if (u.kind) this.setKind(u.kind);
      if (u.amount !== null) d.amount = u.amount;
      // the line's currency, kept as what was paid; none: the account's own
      d.currency = u.currency;
      d.charged = '';
      if (u.date) d.date = u.date;
      if (u.account_id !== null) d.account_id = u.account_id;
      if (u.to_account_id !== null) d.to_account_id = u.to_account_id;
      d.note = u.note;
      // the person's own choice stands; a guess only when there is one to make
      if (!d.category_picked && d.kind !== 'transfer') d.category_id = u.category_id;
    },

    /** Suggestions for what is typed; the suggester's confident choice is preselected, else nothing. */
    async refreshSuggestions() {
      const d = this.draft;
      if (d.kind === 'transfer' || (d.kind === 'refund' && d.refund_of !== null)) return;
      const amount = validAmount(d.amount) ? d.amount.trim() : undefined;
      if (!d.note.trim() && !amount) {
        this.suggestions = [];
        return;
      }
      const mine = ++this.seq;
      try {
        const res = await api.suggest(categoryKind(d.kind), d.note.trim(), amount);
        if (mine !== this.seq) return;
        this.suggestions = res.list;
        // no confident guess for what is typed: a receipt's own guess stays
        if (!d.category_picked) d.category_id = res.preselect ?? this.receipt?.category_id ?? null;
      } catch {
        this.suggestions = [];
      }
    },

    async loadPurchases(keyword: string) {
      const mine = ++this.purchaseSeq;
      const list = await api.recentPurchases(keyword.trim()).catch(() => [] as Transaction[]);
      if (mine === this.purchaseSeq) this.purchases = list;
    },

    pickPurchase(tx: Transaction | null) {
      this.draft.refund_of = tx?.id ?? null;
      if (tx) {
        // a refund goes back where the money came from, in the purchase's category
        this.draft.category_id = tx.category_id;
        this.draft.category_picked = true;
        this.draft.account_id = tx.account_id;
        if (!this.draft.note) this.draft.note = tx.note;
      }
    },

    /** Saves the draft; true when it was saved. */
    async save(ctx: {
      me: number | null;
      currencyOf: (id: number | null) => string | undefined;
      groupCurrency?: (id: number) => string | undefined;
      categories: Category[];
    }): Promise<boolean> {
      this.error = '';
      const d = this.draft;
      // the amount is in the group's currency for a group record, else in the account's
      const accountCurrency = ctx.currencyOf(d.account_id);
      const currency = d.group_id && d.kind !== 'transfer' ? ctx.groupCurrency?.(d.group_id) : accountCurrency;
      const foreign = paidIn(d, accountCurrency);
      if (foreign && (d.group_id || d.kind === 'transfer' || d.kind === 'refund'))
        throw new ClientError('entry.errors.foreignOwnOnly');
      requireAmount(d.amount, foreign ?? currency);
      if (foreign && d.charged.trim()) requireAmount(d.charged, accountCurrency);
      // saved before the suggester answered: a word of the lexicon in the note still names the category
      if (d.category_id === null && d.kind !== 'transfer' && d.refund_of === null) {
        const concept = conceptOf(d.note);
        if (concept && concept.kind === categoryKind(d.kind))
          d.category_id = categoryForConcept(concept, ctx.categories)?.id ?? null;
      }
      // paid in another currency: the amount paid is the original, and the account's amount the bank's figure or the
      // day's rate
      const money = foreign
        ? {
            original_amount: d.amount.trim(),
            original_currency: foreign,
            ...(d.charged.trim() ? { amount: d.charged.trim() } : {}),
          }
        : { amount: d.amount.trim() };
      const common = { ...money, date: d.date, note: d.note.trim(), tag_ids: d.tag_ids };
      const account = d.account_id ? { account_id: d.account_id } : {};
      let body: api.CreateBody;
      if (d.kind === 'transfer') {
        if (!d.account_id || !d.to_account_id) throw new ClientError('entry.errors.twoAccounts');
        const cross = ctx.currencyOf(d.account_id) !== ctx.currencyOf(d.to_account_id);
        if (cross) requireAmount(d.to_amount, ctx.currencyOf(d.to_account_id));
        body = {
          kind: 'transfer',
          ...common,
          account_id: d.account_id,
          to_account_id: d.to_account_id,
          ...(cross ? { to_amount: d.to_amount.trim() } : {}),
        };
      } else if (d.kind === 'refund') {
        if (!d.refund_of && !d.category_id) throw new ClientError('errors.chooseCategory');
        body = {
          kind: 'refund',
          ...common,
          ...account,
          ...(d.refund_of
            ? { refund_of: d.refund_of }
            : { category_id: d.category_id!, category_picked: d.category_picked }),
        };
      } else {
        if (!d.category_id) throw new ClientError('errors.chooseCategory');
        if (d.group_id && !splitCheck(this.split, d.amount, currencyDigits(currency)).ok)
          throw new ClientError('errors.splitOff');
        const shared = d.group_id ? splitBody(this.split) : {};
        // a group record another member paid moves none of my accounts
        const paidByOther = Boolean(d.group_id && this.split.paid_by && this.split.paid_by !== ctx.me);
        // a payment screenshot's order id: the bill that later brings it finds this entry
        const r = this.receipt;
        const order = r?.source && r.external_id && !d.group_id ? { source: r.source, external_id: r.external_id } : {};
        body = {
          kind: d.kind,
          ...common,
          category_id: d.category_id,
          category_picked: d.category_picked,
          ...(paidByOther ? {} : account),
          ...shared,
          ...(d.group_id ? { group_id: d.group_id } : {}),
          ...order,
        };
      }
      this.busy = true;
      try {
        const tx = this.editing;
        if (tx) {
          const { kind, refund_of: _r, ...rest } = body as api.CreateBody & { refund_of?: number };
          const update: api.UpdateBody = { ...rest, ...(kind === 'expense' || kind === 'income' ? { kind } : {}) };
          // no longer paid in another currency: the row keeps its amount alone
          if (!foreign && tx.original_currency !== null)
            Object.assign(update, { original_amount: null, original_currency: null });
          if (kind === 'transfer' || kind === 'refund')
            delete (update as { category_picked?: boolean }).category_picked;
          if (tx.kind === 'transfer') delete (update as { tag_ids?: number[] }).tag_ids;
          if ((kind === 'expense' || kind === 'income') && d.group_id !== (tx.group_id ?? null))
            update.group_id = d.group_id;
          await api.updateTransaction(tx.id, update);
        } else {
          if (await this.warnsOfDuplicates(body, foreign ?? accountCurrency)) return false;
          this.lastSaved = await api.createTransaction(body, this.key);
          this.key = idempotencyKey();
        }
        return true;
      } finally {
        this.busy = false;
      }
    },

    /**
     * Before a new entry of one's own is saved: the entries imported from a bill it would count a
     * second time, shown once; saving again goes ahead. Offline or refused, nothing is shown.
     */
    async warnsOfDuplicates(body: api.CreateBody, paidCurrency: string | undefined): Promise<boolean> {
      if (this.duplicatesShown || !paidCurrency || !body.account_id) return false;
      if (body.kind !== 'expense' && body.kind !== 'income') return false;
      if ('group_id' in body && body.group_id) return false;
      if (typeof navigator !== 'undefined' && !navigator.onLine) return false;
      const list = await api
        .possibleDuplicates({
          kind: body.kind,
          amount: this.draft.amount.trim(),
          currency: paidCurrency,
          account_id: body.account_id,
          date: body.date,
        })
        .catch(() => [] as Transaction[]);
      this.duplicatesShown = true;
      this.duplicates = list;
      return list.length > 0;
    },

    async remove(): Promise<void> {
      if (!this.editing) return;
      this.busy = true;
      try {
        await api.deleteTransaction(this.editing.id);
      } finally {
        this.busy = false;
      }
    },
  },
});
