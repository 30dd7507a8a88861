import { expect, test } from 'vitest'
import { createPageCache, pageCacheKey } from './page-cache.ts'

const page = (body: string) => ({
  status: 200,
  headers: [
    ['content-type', 'text/html'],
    ['set-cookie', 'x=1'],
  ] as [string, string][],
  body,
})

test('a cached page is served with the nonce of the request that reads it', () => {
  const cache = createPageCache()
  cache.set('k', page('<script nonce="AAA">1</script><link nonce="AAA">'), 'AAA')
  const hit = cache.get('k', 'BBB')
  expect(hit?.body).toBe('<script nonce="BBB">1</script><link nonce="BBB">')
  expect(cache.get('k', 'CCC')?.body).not.toContain('BBB')
})

test('per-visitor headers are never stored', () => {
  const cache = createPageCache()
  cache.set('k', page('x'), 'n')
  expect(cache.get('k', 'n')?.headers).toEqual([['content-type', 'text/html']])
})

test('entries expire after the TTL', () => {
  let now = 1_000
  const cache = createPageCache({ ttlMs: 100, now: () => now })
  cache.set('k', page('x'), 'n')
  now += 99
  expect(cache.get('k', 'n')).not.toBeNull()
  now += 2
  expect(cache.get('k', 'n')).toBeNull()
})

test('the least recently used entry is evicted beyond the bound', () => {
  const cache = createPageCache({ maxEntries: 2 })
  cache.set('a', page('a'), 'n')
  cache.set('b', page('b'), 'n')
  cache.get('a', 'n')
  cache.set('c', page('c'), 'n')
  expect(cache.get('b', 'n')).toBeNull()
  expect(cache.get('a', 'n')?.body).toBe('a')
  expect(cache.size).toBe(2)
  cache.clear()
  expect(cache.size).toBe(0)
})

test('the key ignores preference parameters and the order of the others', () => {
  const a = pageCacheKey(new URL('http://x/store-guide?b=2&lang=en&a=1&currency=USD'), 'en', 'USD')
  const b = pageCacheKey(new URL('http://x/store-guide?a=1&b=2'), 'en', 'USD')
  expect(a).toBe(b)
  expect(pageCacheKey(new URL('http://x/'), 'es', 'USD')).not.toBe(
    pageCacheKey(new URL('http://x/'), 'en', 'USD'),
  )
})

test('a page rendered without a nonce is not stored', () => {
  const cache = createPageCache()
  cache.set('k', page('x'), '')
  expect(cache.size).toBe(0)
})
