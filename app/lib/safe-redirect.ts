const BASE = 'http://same-origin.invalid'
const MAX_LENGTH = 1000
// Controls (browsers strip tab, CR and LF from URLs, so `/\t/evil` becomes `//evil`), DEL and
// backslashes (`/\evil` is `//evil` to a browser).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const UNSAFE = /[\u0000-\u001f\u007f\\]/

/**
 * The one check for every return path a visitor can send (`redirectTo`, `returnTo`): a path on
 * this site, or the fallback. The value is resolved by the URL parser itself, must stay on our
 * origin and is returned as the parser wrote it (path, query, fragment; percent-encoded ASCII,
 * safe in a Location header), so what the browser follows is what was checked.
 */
export function safeRedirect(value: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return fallback
  if (!value.startsWith('/') || UNSAFE.test(value)) return fallback
  let url: URL
  try {
    url = new URL(value, BASE)
  } catch {
    return fallback
  }
  if (url.origin !== BASE) return fallback
  // Dot segments can leave an empty first segment: `/.//evil` resolves to the path `//evil`.
  if (url.pathname.startsWith('//')) return fallback
  return `${url.pathname}${url.search}${url.hash}`
}
