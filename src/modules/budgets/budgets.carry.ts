/**
 * Carry-over of a budget: when a month's budget is marked `carry_over`, what remains of it at the
 * month's end (its amount, plus what it carried in, minus what was spent) is added to the next
 * month's budget. Only a positive remainder carries (overspending is not taken from the next
 * month), and the chain runs back through consecutive months whose budgets are each marked to
 * carry over. Pure functions of the figures, in minor units.
 */

/** How far back a chain is followed: ten years of monthly budgets. */
export const CARRY_MONTHS = 120;

export interface BudgetLine {
  amount: number;
  carryOver: boolean;
}

/** The month before `month` (YYYY-MM). */
export function previousMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 1 ? `${String(y - 1).padStart(4, '0')}-12` : `${month.slice(0, 4)}-${String(m - 1).padStart(2, '0')}`;
}

/** The month after `month` (YYYY-MM). */
export function nextMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01` : `${month.slice(0, 4)}-${String(m + 1).padStart(2, '0')}`;
}

/** `month` minus `n` months. */
export function monthsBefore(month: string, n: number): string {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 - n;
  if (total < 12) return '0001-01';
  return `${String(Math.floor(total / 12)).padStart(4, '0')}-${String((total % 12) + 1).padStart(2, '0')}`;
}

/**
 * What carries into `month`: the earlier months' lines (`lineOf`) and expense (`spentOf`) decide.
 * 0 when the month before has no line or does not carry over.
 */
export function carriedInto(
  month: string,
  lineOf: (month: string) => BudgetLine | undefined,
  spentOf: (month: string) => number,
): number {
  const chain: string[] = [];
  let m = previousMonth(month);
  for (let i = 0; i < CARRY_MONTHS && m >= '0001-01'; i++) {
    const line = lineOf(m);
    if (!line || !line.carryOver) break;
    chain.push(m);
    if (m === '0001-01') break;
    m = previousMonth(m);
  }
  let carry = 0;
  for (let i = chain.length - 1; i >= 0; i--) {
    const at = chain[i]!;
    carry = Math.max(0, lineOf(at)!.amount + carry - spentOf(at));
  }
  return carry;
}
