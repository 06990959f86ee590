/** Links from data are used only when they are http(s) or an in-app path with a single slash. */
export function safeLink(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  if (/^https?:\/\//i.test(url)) return url;
  if (/^\/(?![/\\])/.test(url)) return url;
  return null;
}
