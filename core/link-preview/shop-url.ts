import type { FetchRefusal } from './safe-fetch.ts'

/**
 * The checks a link passes before anything is fetched (issue 31), pure so the request form runs
 * them in the browser too (it asks the server only then; the server checks again): `https:`, no
 * user or password, the default port, and a host that is an allow-listed shop or under one
 * ("jp.mercari.com" under "mercari.com"); never an address (the URL parser writes every IPv4
 * form, "2130706433" or "0x7f.0.0.1", as dotted decimals, and IPv6 in brackets).
 */

/** The URL when it passes every pre-network check, else why not. */
export function checkShopUrl(
  input: string | URL,
  allowedHosts: readonly string[],
): { ok: true; url: URL; host: string } | { ok: false; reason: FetchRefusal } {
  const url = typeof input === 'string' ? URL.parse(input.trim()) : input
  if (url === null) return { ok: false, reason: 'invalidUrl' }
  if (url.protocol !== 'https:') return { ok: false, reason: 'scheme' }
  if (url.username !== '' || url.password !== '' || url.port !== '')
    return { ok: false, reason: 'invalidUrl' }
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  if (host === '' || host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host))
    return { ok: false, reason: 'hostNotAllowed' }
  if (!isAllowedHost(host, allowedHosts)) return { ok: false, reason: 'hostNotAllowed' }
  return { ok: true, url, host }
}

/** The host is an allowed host or a subdomain of one. */
export function isAllowedHost(host: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((allowed) => {
    const shop = allowed.toLowerCase().replace(/\.$/, '')
    return shop !== '' && (host === shop || host.endsWith(`.${shop}`))
  })
}

/** Whether a link may be read at all: every check above. */
export function isPreviewable(url: string, allowedHosts: readonly string[]): boolean {
  return checkShopUrl(url, allowedHosts).ok
}
