/**
 * Rendered HTML of anonymous public pages, per path, query, language and currency, so that
 * serving them costs close to serving a file. A bounded LRU with a TTL; cleared whenever
 * settings change (in every process, through PostgreSQL NOTIFY).
 *
 * Every response needs its own CSP nonce, so the nonce of the render that filled an entry is
 * replaced by a marker on the way in, and by the request's fresh nonce on the way out.
 */
export type CachedPage = { status: number; headers: [string, string][]; body: string }

export type PageCache = {
  get(key: string, nonce: string): CachedPage | null
  set(key: string, page: CachedPage, nonce: string): void
  clear(): void
  readonly size: number
}

// Set-Cookie would leak one visitor's cookie to the next; per-request headers are set again.
const UNCACHEABLE_HEADERS = new Set([
  'set-cookie',
  'content-length',
  'date',
  'x-request-id',
  'content-security-policy',
])

export function createPageCache({ maxEntries = 1_000, ttlMs = 60_000, now = Date.now } = {}): PageCache {
  const entries = new Map<string, { page: CachedPage; expiresAt: number }>()
  const marker = `__nonce_${crypto.randomUUID().replaceAll('-', '')}__`

  return {
    get(key, nonce) {
      const entry = entries.get(key)
      if (!entry) return null
      if (entry.expiresAt <= now()) {
        entries.delete(key)
        return null
      }
      // Refresh recency: Map keeps insertion order, so the first key is the least recent.
      entries.delete(key)
      entries.set(key, entry)
      return { ...entry.page, body: entry.page.body.replaceAll(marker, nonce) }
    },
    set(key, page, nonce) {
      // Without a nonce to swap, a stored page would leak one response's nonce to the next.
      if (!nonce) return
      const headers = page.headers.filter(([name]) => !UNCACHEABLE_HEADERS.has(name.toLowerCase()))
      entries.delete(key)
      entries.set(key, {
        page: { ...page, headers, body: page.body.replaceAll(nonce, marker) },
        expiresAt: now() + ttlMs,
      })
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value
        if (oldest === undefined) break
        entries.delete(oldest)
      }
    },
    clear() {
      entries.clear()
    },
    get size() {
      return entries.size
    },
  }
}

/** The cache key: path and the remaining query (sorted), with the resolved preferences and consent. */
export function pageCacheKey(url: URL, language: string, currency: string, consent = 'unset'): string {
  const params = [...url.searchParams].filter(([name]) => name !== 'lang' && name !== 'currency')
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `${language}|${currency}|${consent}|${url.pathname}?${new URLSearchParams(params).toString()}`
}
