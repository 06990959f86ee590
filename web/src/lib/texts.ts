// The service's display texts start as English defaults that administrators may edit; while
// they are the untouched defaults, the client shows its own text in the reader's language.
const DEFAULT_TAGLINE = 'Keep your books together';
const DEFAULT_DESCRIPTION = 'A bookkeeping service for personal books and shared groups.';

type T = (key: string) => string;

export function localTagline(value: string | undefined, t: T): string {
  return !value || value === DEFAULT_TAGLINE ? t('app.tagline') : value;
}

export function localDescription(value: string | undefined, t: T): string {
  return !value || value === DEFAULT_DESCRIPTION ? t('app.description') : value;
}
