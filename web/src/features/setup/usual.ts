// The accounts most people here keep, by the words they write them with: the first-run setup offers
// them, and a quick-entry line naming one that is not there yet offers to open it.
import type { components } from '../../api/schema';

export type AccountType = components['schemas']['Account']['type'];

export interface UsualAccount {
  name: string;
  type: AccountType;
}

/** What the setup offers, in the person's language. */
export const USUAL_ACCOUNTS: Record<'zh-CN' | 'en', UsualAccount[]> = {
  'zh-CN': [
    { name: '微信', type: 'e_wallet' },
    { name: '支付宝', type: 'e_wallet' },
    { name: '银行卡', type: 'debit_card' },
    { name: '现金', type: 'cash' },
  ],
  en: [
    { name: 'Cash', type: 'cash' },
    { name: 'Bank account', type: 'debit_card' },
    { name: 'Credit card', type: 'credit_card' },
  ],
};

/** Words that name an account in a typed line, whatever the app's language. */
const KNOWN_WORDS: UsualAccount[] = [
  { name: '微信', type: 'e_wallet' },
  { name: '支付宝', type: 'e_wallet' },
  { name: '余额宝', type: 'e_wallet' },
  { name: '云闪付', type: 'e_wallet' },
  { name: '银行卡', type: 'debit_card' },
  { name: '信用卡', type: 'credit_card' },
  { name: '花呗', type: 'credit_card' },
  { name: '现金', type: 'cash' },
  { name: 'WeChat', type: 'e_wallet' },
  { name: 'Alipay', type: 'e_wallet' },
  { name: 'PayPal', type: 'e_wallet' },
  { name: 'Revolut', type: 'debit_card' },
  { name: 'Monzo', type: 'debit_card' },
  { name: 'Visa', type: 'credit_card' },
  { name: 'Mastercard', type: 'credit_card' },
  { name: 'Amex', type: 'credit_card' },
  { name: 'Cash', type: 'cash' },
];

/**
 * An account a line's leftover words name that the person does not have (the reader could not
 * place it, so it would end in the note): the first such word, as the list writes it, else null.
 */
export function unknownAccountIn(note: string, accounts: readonly { name: string }[]): UsualAccount | null {
  const have = new Set(accounts.map((a) => a.name.toLocaleLowerCase()));
  for (const word of note.split(/[\s,，、;；]+/)) {
    const w = word.toLocaleLowerCase();
    if (!w) continue;
    const known = KNOWN_WORDS.find((k) => k.name.toLocaleLowerCase() === w);
    if (known && !have.has(w)) return known;
  }
  return null;
}
