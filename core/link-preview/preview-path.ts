/**
 * Where this site serves a link preview's photo (server/link-preview-api.ts): the shop's photo,
 * read by the server, so a visitor's browser never loads it from the shop. Null without one.
 */
export function previewImagePath(imageUrl: string | null): string | null {
  return imageUrl ? `/api/v1/link-preview/image?url=${encodeURIComponent(imageUrl)}` : null
}

/**
 * Whether a link may be read at all (pure, no network; the request form asks the server only
 * then, and the server checks again): `https:`, no user or password, the default port, and a
 * host that is one of `hosts` or under one ("jp.mercari.com" under "mercari.com"); never an
 * address written as numbers.
 */
export function isPreviewable(url: string, hosts: readonly string[]): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password || parsed.port) return false
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '')
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) return false
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))
}
