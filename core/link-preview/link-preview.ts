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
  if (nestedTooDeep(fetched.html)) return { ok: false, reason: 'unreadable' }
  let facts: ItemFacts | null
  try {
    facts = readItem(fetched.html, fetched.finalUrl)
  } catch {
    return { ok: false, reason: 'unreadable' }
  }
  if (facts === null) return { ok: false, reason: 'unreadable' }
  const host = new URL(fetched.finalUrl).hostname.toLowerCase().replace(/\.$/, '')
  return { ok: true, preview: { ...facts, url: url.trim(), finalUrl: fetched.finalUrl, host } }
}

/**
 * Real product pages nest a few dozen elements deep; a page nested deeper than this is not read.
 * The parser's open-element stack costs time quadratic in the depth (a hostile page of 200,000
 * nested tags held the process 8.6 s; security review, 2026-11-28), so the depth is measured
 * first, in one pass that only counts tags.
 */
export const MAX_NESTING = 1500

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
])

export function nestedTooDeep(html: string): boolean {
  let depth = 0
  for (const tag of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name = '', selfClosing] = tag
    if (closing) depth = Math.max(0, depth - 1)
    else if (!selfClosing && !VOID.has(name.toLowerCase()) && ++depth > MAX_NESTING) return true
  }
  return false
}
