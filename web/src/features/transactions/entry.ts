// The fields shared by a transaction and a recurring rule, and the suggestion as one types.
import { ref, watch, type Ref } from 'vue';
import type { Kind, Suggestion } from '../../api/types';
import { validAmount } from '../../lib/amounts';
import { suggest } from '../entry';

export interface Entry {
  kind: Kind;
  amount: string;
  category_id: number | null;
  note: string;
  tag_ids: number[];
  group_id: number | null;
}

/**
 * Suggested categories for the note and amount typed so far (debounced). Until the person picks
 * a category themselves, the suggester's confident choice is made for them; when it is unsure,
 * the category stays as it is.
 */
export function useSuggestions(entry: Ref<Entry>, picked: Ref<boolean>) {
  const suggestions = ref<Suggestion[]>([]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;
  watch(
    () => [entry.value.note, entry.value.amount, entry.value.kind] as const,
    ([note, amount, kind]) => {
      clearTimeout(timer);
      const hasAmount = validAmount(amount);
      if (!note.trim() && !hasAmount) {
        suggestions.value = [];
        return;
      }
      timer = setTimeout(async () => {
        const mine = ++seq;
        try {
          const res = await suggest(kind, note.trim(), hasAmount ? amount.trim() : undefined);
          if (mine !== seq) return;
          suggestions.value = res.list;
          if (res.preselect !== null && !picked.value) entry.value.category_id = res.preselect;
        } catch {
          suggestions.value = [];
        }
      }, 250);
    },
  );
  return suggestions;
}
