/**
 * A link a client may follow: http(s) URLs, or an in-app path starting with a single "/".
 * Parsed with the WHATWG URL parser, which strips tabs/newlines and lower-cases the scheme the way
 * browsers do, so "JaVaScRiPt:", " \tjavascript:" and "java\tscript:" all come out as javascript:.
 */
export function isSafeLink(value: string): boolean {
  if (value !== value.trim() || value.length === 0 || value.length > 2048) return false;
  // control characters have no business in a link and are how scheme checks get bypassed
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (value.startsWith('/')) {
    if (value.startsWith('//')) return false;
    try {
      const url = new URL(value, 'http://in-app.invalid');
      return url.host === 'in-app.invalid';
    } catch {
      return false;
    }
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
}
