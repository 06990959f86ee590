// Light or dark: as the system says (the default), or chosen in the profile and remembered on this
// device (outside the session keys, so signing out keeps it). <html data-theme> carries the choice.
import { computed, ref } from 'vue';

export type Theme = 'system' | 'light' | 'dark';
export const THEMES: Theme[] = ['system', 'light', 'dark'];
const STORED = 'ledger-theme';

function stored(): Theme {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORED);
  return v === 'light' || v === 'dark' ? v : 'system';
}

const media = typeof window === 'undefined' ? null : window.matchMedia('(prefers-color-scheme: dark)');
const systemDark = ref(media?.matches ?? false);
media?.addEventListener('change', (e) => (systemDark.value = e.matches));

export const theme = ref<Theme>(stored());
/** whether the screen is dark now, whichever way it was chosen */
export const isDark = computed(() => theme.value === 'dark' || (theme.value === 'system' && systemDark.value));

export function applyTheme(): void {
  if (theme.value === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme.value;
}

export function setTheme(t: Theme): void {
  theme.value = t;
  if (t === 'system') localStorage.removeItem(STORED);
  else localStorage.setItem(STORED, t);
  applyTheme();
}
