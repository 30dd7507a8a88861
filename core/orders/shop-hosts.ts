/**
 * Which shop a link is from, by its host (pure: the request form runs it in the browser, the
 * service when it stores a request). A store of the guide matches its own host and its subdomains
 * ("jp.mercari.com" is Mercari's "mercari.com"). ADR 038.
 */

/** The host as staff read it: lower case, without "www.". */
export function shopHostOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '')
}

export type KnownShop = { name: string; host: string }

/** The guide's shop a link is from; null for another shop (or no readable link). */
export function shopOf<Shop extends { host: string }>(url: string, shops: readonly Shop[]): Shop | null {
  let host: string
  try {
    host = shopHostOf(url)
  } catch {
    return null
  }
  return shops.find((shop) => host === shop.host || host.endsWith(`.${shop.host}`)) ?? null
}
