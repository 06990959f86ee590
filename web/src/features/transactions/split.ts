// The split of a group record being edited, and the same arithmetic the server applies
// (largest remainder, leftover minor units to the lower user id), to show each share live.

export type SplitMode = 'equal' | 'shares' | 'exact' | 'percent';

export interface SplitDraft {
  paid_by: number | null;
  mode: SplitMode;
  /** members taking part */
  included: number[];
  /** entered values by user id (weights, percentages or amounts) */
  values: Record<number, string>;
}

export function emptySplit(): SplitDraft {
  return { paid_by: null, mode: 'equal', included: [], values: {} };
}

/** A decimal with at most `digits` decimals in units of 10^-digits (hundredths for 2), or null. */
function minorUnits(v: string, digits: number): number | null {
  const m = new RegExp(`^(\\d{1,12})(?:\\.(\\d{1,${Math.max(digits, 1)}}))?$`).exec(v.trim());
  if (!m || (digits === 0 && m[2] !== undefined)) return null;
  return Number(m[1]) * 10 ** digits + Number((m[2] ?? '').padEnd(digits, '0') || '0');
}
const hundredths = (v: string): number | null => minorUnits(v, 2);

export interface SplitCheck {
  ok: boolean;
  problem: 'none' | 'amount' | 'members' | 'value' | 'left' | 'over' | 'zero';
  /** minor units still to assign (negative: too much) */
  left: number;
  /** minor units each member bears, when it adds up */
  shares: Record<number, number>;
}

function apportion(amount: number, parts: { id: number; w: number }[]): Record<number, number> {
  const sorted = [...parts].sort((a, b) => a.id - b.id);
  const total = sorted.reduce((s, p) => s + p.w, 0);
  const rows = sorted.map((p) => ({ id: p.id, base: Math.floor((amount * p.w) / total), rem: (amount * p.w) % total }));
  let left = amount - rows.reduce((s, r) => s + r.base, 0);
  for (const r of [...rows].sort((a, b) => b.rem - a.rem || a.id - b.id)) {
    if (left <= 0) break;
    r.base++;
    left--;
  }
  return Object.fromEntries(rows.map((r) => [r.id, r.base]));
}

/**
 * Whether the split adds up, with each share in minor units of the group's currency (`digits`
 * decimals: 2 for CNY, 0 for JPY, 3 for KWD); weights and percentages have at most 2 decimals.
 */
export function splitCheck(d: SplitDraft, amountText: string, digits = 2): SplitCheck {
  const fail = (problem: SplitCheck['problem'], left = 0): SplitCheck => ({ ok: false, problem, left, shares: {} });
  const amount = minorUnits(amountText, digits);
  if (amount === null || amount <= 0) return fail('amount');
  const ids = [...d.included].sort((a, b) => a - b);
  if (!ids.length) return fail('members');
  if (d.mode === 'equal')
    return {
      ok: true,
      problem: 'none',
      left: 0,
      shares: apportion(
        amount,
        ids.map((id) => ({ id, w: 1 })),
      ),
    };
  const values = ids.map((id) => ({
    id,
    w: d.mode === 'exact' ? minorUnits(d.values[id] ?? '', digits) : hundredths(d.values[id] ?? ''),
  }));
  if (values.some((v) => v.w === null)) return fail('value');
  const parts = values as { id: number; w: number }[];
  const sum = parts.reduce((s, p) => s + p.w, 0);
  if (d.mode === 'shares')
    return sum > 0 ? { ok: true, problem: 'none', left: 0, shares: apportion(amount, parts) } : fail('zero');
  if (d.mode === 'percent') {
    if (sum !== 10000) return fail(sum < 10000 ? 'left' : 'over', Math.round((amount * (10000 - sum)) / 10000));
    return { ok: true, problem: 'none', left: 0, shares: apportion(amount, parts) };
  }
  if (sum !== amount) return fail(sum < amount ? 'left' : 'over', amount - sum);
  return { ok: true, problem: 'none', left: 0, shares: Object.fromEntries(parts.map((p) => [p.id, p.w])) };
}

/** The body fields of a split that adds up. */
export function splitBody(d: SplitDraft): {
  paid_by?: number;
  split: { mode: SplitMode; members: { user_id: number; value?: string }[] };
} {
  const members = [...d.included]
    .sort((a, b) => a - b)
    .map((user_id) => (d.mode === 'equal' ? { user_id } : { user_id, value: (d.values[user_id] ?? '').trim() }));
  return { ...(d.paid_by ? { paid_by: d.paid_by } : {}), split: { mode: d.mode, members } };
}
