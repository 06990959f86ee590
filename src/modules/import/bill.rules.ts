/*
 * Import rules: "交易对方 contains 美团 -> Food". Ordered; the first rule that matches a row wins.
 * Matching ignores case and full-width forms.
 */

export const RULE_FIELDS = ['counterparty', 'note', 'method', 'any'] as const;
export const RULE_MATCHES = ['contains', 'equals', 'starts_with'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];
export type RuleMatch = (typeof RULE_MATCHES)[number];

export interface Rule {
  id: number;
  field: RuleField;
  match: RuleMatch;
  value: string;
  kind: 'expense' | 'income' | null;
  categoryId: number;
}

export interface RuleSubject {
  kind: string;
  counterparty: string;
  note: string;
  method: string;
}

export const fold = (s: string) => s.normalize('NFKC').toLowerCase().trim();

function test(text: string, match: RuleMatch, value: string): boolean {
  const t = fold(text);
  if (match === 'equals') return t === value;
  if (match === 'starts_with') return t.startsWith(value);
  return t.includes(value);
}

/** Compiles rules once (values folded) into a matcher answering the first matching rule. */
export function ruleMatcher(rules: Rule[]): (row: RuleSubject) => Rule | undefined {
  const compiled = rules.map((r) => ({ rule: r, value: fold(r.value) })).filter((r) => r.value !== '');
  return (row) => {
    for (const { rule, value } of compiled) {
      if (rule.kind && rule.kind !== row.kind) continue;
      const texts = rule.field === 'any' ? [row.counterparty, row.note, row.method] : [row[rule.field]];
      if (texts.some((t) => test(t, rule.match, value))) return rule;
    }
    return undefined;
  };
}
