import type { Executor } from '../../db/client.ts';
import type { TransactionKind } from '../../lib/domain.ts';
import { categories } from '../../db/schema/index.ts';

export const DEFAULT_CATEGORIES: { kind: TransactionKind; name: string; color: string; icon: string }[] = [
  { kind: 'expense', name: 'Food', color: '#F5A623', icon: 'food' },
  { kind: 'expense', name: 'Transport', color: '#4A90E2', icon: 'transport' },
  { kind: 'expense', name: 'Shopping', color: '#D0021B', icon: 'shopping' },
  { kind: 'expense', name: 'Housing', color: '#8B572A', icon: 'housing' },
  { kind: 'expense', name: 'Utilities', color: '#417505', icon: 'utilities' },
  { kind: 'expense', name: 'Entertainment', color: '#BD10E0', icon: 'entertainment' },
  { kind: 'expense', name: 'Health', color: '#50E3C2', icon: 'health' },
  { kind: 'expense', name: 'Education', color: '#9013FE', icon: 'education' },
  { kind: 'expense', name: 'Travel', color: '#B8E986', icon: 'travel' },
  { kind: 'expense', name: 'Other', color: '#9B9B9B', icon: 'other' },
  { kind: 'income', name: 'Salary', color: '#7ED321', icon: 'salary' },
  { kind: 'income', name: 'Bonus', color: '#F8E71C', icon: 'bonus' },
  { kind: 'income', name: 'Investment', color: '#4A4A4A', icon: 'investment' },
  { kind: 'income', name: 'Part-time', color: '#FF6F61', icon: 'parttime' },
  { kind: 'income', name: 'Other income', color: '#9B9B9B', icon: 'other' },
];

/** Gives a new user the default category set; returns the created rows. */
export async function createDefaultCategories(db: Executor, userId: number) {
  let expenseSort = 0;
  let incomeSort = 0;
  return db
    .insert(categories)
    .values(DEFAULT_CATEGORIES.map((c) => ({ ...c, userId, sort: c.kind === 'expense' ? expenseSort++ : incomeSort++ })))
    .returning();
}
