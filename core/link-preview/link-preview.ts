import { type ItemFacts, readItem } from './readers.ts'
import { type FetchDeps, type FetchPolicy, type FetchRefusal, fetchShopPage } from './safe-fetch.ts'

/**
 * "Paste a link, see the item" (issue 31): fetches a shop page a customer pasted and reads the
 * item on it. Safety rules are those of safe-fetch.ts (https only, allow-listed shop hosts,
 * public addresses checked at connect time, redirects re-checked, bounded time and size) and of
 * readers.ts (the page is untrusted; every value is cleaned). isPreviewable is the pure check a
 * route can run before doing anything.
 */

export { DEFAULT_PREVIEW_HOSTS } from '#core/settings/settings-schema.ts'
export type { ItemFacts } from './readers.ts'
export type { FetchDeps, FetchPolicy, FetchRefusal, LookupFn } from './safe-fetch.ts'
export { isPreviewable } from './shop-url.ts'

export type ItemPreview = ItemFacts & { url: string; finalUrl: string; host: string }

export type PreviewOutcome =
  | { ok: true; preview: ItemPreview }
  | { ok: false; reason: FetchRefusal | 'unreadable' }

/** Fetches the page and reads its item, or says why there is no preview. */
export async function previewLink(
  url: string,
  policy: FetchPolicy,
  deps: FetchDeps = {},
): Promise<PreviewOutcome> {
  const fetched = await fetchShopPage(url, policy, deps)
  if (!fetched.ok) return fetched
  const facts = readItem(fetched.html, fetched.finalUrl)
  if (facts === null) return { ok: false, reason: 'unreadable' }
  const host = new URL(fetched.finalUrl).hostname.toLowerCase().replace(/\.$/, '')
  return { ok: true, preview: { ...facts, url: url.trim(), finalUrl: fetched.finalUrl, host } }
}
