/**
 * Splitting an amount among group members, balances and settling up: pure integer arithmetic on
 * minor units, no database. Every function is deterministic: the same input gives the same output,
 * whatever order members were listed in.
 */

export const SPLIT_MODES = ['equal', 'shares', 'exact', 'percent'] as const;
export type SplitMode = (typeof SPLIT_MODES)[number];

/** One member's part of a split, already checked and scaled to integers. */
export interface Part {
  userId: number;
  /** a weight (equal: 1; shares: hundredths of a share; percent: hundredths of a percent) or, for exact, minor units */
  value: bigint;
}

export interface Share {
  userId: number;
  amount: number;
}

/** Percent values are hundredths of a percent: they must sum to exactly this. */
export const PERCENT_TOTAL = 10_000n;

/**
 * Largest-remainder apportionment of `amount` (minor units, >= 0) by non-negative `weights`
 * (not all zero). Each part first gets floor(amount * w / W); the minor units left over (fewer than the
 * number of parts) go one each to the parts with the largest remainders, ties to the lower
 * user id. The parts sum exactly to `amount`.
 */
export function apportion(amount: number, parts: readonly Part[]): Share[] {
  const sorted = [...parts].sort((a, b) => a.userId - b.userId);
  const total = sorted.reduce((s, p) => s + p.value, 0n);
  if (total <= 0n) throw new RangeError('weights must not all be zero');
  const a = BigInt(amount);
  const rows = sorted.map((p) => {
    const num = a * p.value;
    return { userId: p.userId, base: num / total, rem: num % total };
  });
  let left = a - rows.reduce((s, r) => s + r.base, 0n);
  const order = rows
    .map((r, i) => i)
    .sort((i, j) =>
      rows[j]!.rem > rows[i]!.rem ? 1 : rows[j]!.rem < rows[i]!.rem ? -1 : rows[i]!.userId - rows[j]!.userId,
    );
  for (const i of order) {
    if (left <= 0n) break;
    rows[i]!.base += 1n;
    left -= 1n;
  }
  return rows.map((r) => ({ userId: r.userId, amount: Number(r.base) }));
}

export type SplitProblem = { field: string; message: string };

/**
 * The shares of `amount` under `mode`, or the reason the split does not add up. Parts must name
 * distinct users (checked by the caller). exact: the values are the shares and must sum to the
 * amount; percent: hundredths of a percent summing to 100%; shares: weights, not all zero;
 * equal: one share each.
 */
export function computeShares(amount: number, mode: SplitMode, parts: readonly Part[]): Share[] | SplitProblem {
  if (!parts.length) return { field: 'split.members', message: 'must name at least one member' };
  if (parts.some((p) => p.value < 0n)) return { field: 'split.members', message: 'values must not be negative' };
  switch (mode) {
    case 'equal':
      return apportion(
        amount,
        parts.map((p) => ({ userId: p.userId, value: 1n })),
      );
    case 'shares':
      if (parts.every((p) => p.value === 0n)) return { field: 'split.members', message: 'shares must not all be zero' };
      return apportion(amount, parts);
    case 'percent': {
      const sum = parts.reduce((s, p) => s + p.value, 0n);
      if (sum !== PERCENT_TOTAL)
        return {
          field: 'split.members',
          message: `percentages must add up to 100 (they add up to ${Number(sum) / 100})`,
        };
      return apportion(amount, parts);
    }
    case 'exact': {
      const sum = parts.reduce((s, p) => s + p.value, 0n);
      if (sum !== BigInt(amount)) return { field: 'split.members', message: 'exact amounts must add up to the amount' };
      return [...parts].sort((a, b) => a.userId - b.userId).map((p) => ({ userId: p.userId, amount: Number(p.value) }));
    }
  }
}

// ---- balances ----

/** What a balance is computed from: records (expense or income) and settlements, in minor units. */
export interface LedgerRecord {
  kind: 'expense' | 'income';
  paidBy: number;
  amount: number;
  shares: readonly Share[];
}
export interface LedgerSettlement {
  from: number;
  to: number;
  amount: number;
}

export interface Balance {
  userId: number;
  /** paid for expenses minus received for incomes */
  paid: number;
  /** share of expenses minus share of incomes */
  share: number;
  /** settlements paid to others */
  sent: number;
  /** settlements received from others */
  received: number;
  /** paid - share + sent - received: > 0 the others owe them, < 0 they owe */
  net: number;
}

export function emptyBalance(userId: number): Balance {
  return { userId, paid: 0, share: 0, sent: 0, received: 0, net: 0 };
}

/** Balances of everyone appearing in the records and settlements, by user id. */
export function computeBalances(records: readonly LedgerRecord[], settlements: readonly LedgerSettlement[]): Balance[] {
  const by = new Map<number, Balance>();
  const of = (id: number) => {
    let b = by.get(id);
    if (!b) by.set(id, (b = emptyBalance(id)));
    return b;
  };
  for (const r of records) {
    const sign = r.kind === 'expense' ? 1 : -1;
    of(r.paidBy).paid += sign * r.amount;
    for (const s of r.shares) of(s.userId).share += sign * s.amount;
  }
  for (const s of settlements) {
    of(s.from).sent += s.amount;
    of(s.to).received += s.amount;
  }
  const out = [...by.values()];
  for (const b of out) b.net = b.paid - b.share + b.sent - b.received;
  return out.sort((a, b) => a.userId - b.userId);
}

export interface Transfer {
  from: number;
  to: number;
  amount: number;
}

/**
 * Transfers that bring every net to zero: repeatedly the largest debtor pays the largest creditor
 * the smaller of the two amounts (ties to the lower user id). Each transfer clears at least one
 * person, and the last one clears two, so n people with a non-zero net need at most n - 1.
 * The nets must sum to zero.
 */
export function suggestSettlements(nets: readonly { userId: number; net: number }[]): Transfer[] {
  const creditors = nets.filter((n) => n.net > 0).map((n) => ({ ...n }));
  const debtors = nets.filter((n) => n.net < 0).map((n) => ({ userId: n.userId, net: -n.net }));
  const pick = (list: { userId: number; net: number }[]) => {
    let best = -1;
    for (let i = 0; i < list.length; i++) {
      const c = list[i]!;
      if (c.net <= 0) continue;
      if (best < 0 || c.net > list[best]!.net || (c.net === list[best]!.net && c.userId < list[best]!.userId)) best = i;
    }
    return best < 0 ? null : list[best]!;
  };
  const out: Transfer[] = [];
  for (;;) {
    const d = pick(debtors);
    const c = pick(creditors);
    if (!d || !c) break;
    const amount = Math.min(d.net, c.net);
    out.push({ from: d.userId, to: c.userId, amount });
    d.net -= amount;
    c.net -= amount;
  }
  return out;
}

/** How much `from` still owes `to` that a new settlement may clear: at most what `from` owes and `to` is owed. */
export function outstanding(nets: readonly { userId: number; net: number }[], from: number, to: number): number {
  const f = nets.find((n) => n.userId === from)?.net ?? 0;
  const t = nets.find((n) => n.userId === to)?.net ?? 0;
  return Math.max(0, Math.min(-f, t));
}
