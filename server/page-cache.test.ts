import zlib from 'node:zlib'
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

const html = '<html lang="es"><script nonce="AAA">1</script><link nonce="AAA">¡Ups! 日本 </html>'

test('a cached page is served with the nonce of the request that reads it', () => {
  const cache = createPageCache()
  cache.set('k', page(html), 'AAA')
  const plain = cache.get('k')?.plain('BBB')
  expect(plain).toBe(html.replaceAll('AAA', 'BBB'))
  expect(cache.get('k')?.plain('CCC')).not.toContain('BBB')
})

test('the gzip form is a valid stream of exactly the page with the fresh nonce', () => {
  const cache = createPageCache()
  const big = `${html}${'<p>relleno con acentos: á é í ó ú ñ</p>'.repeat(2000)}<script nonce="AAA"></script>`
  cache.set('k', page(big), 'AAA')
  const hit = cache.get('k')
  for (const nonce of ['BBB', 'a-much-longer-nonce_1234567890']) {
    const gzipped = hit?.gzip(nonce) ?? Buffer.alloc(0)
    expect(zlib.gunzipSync(gzipped).toString('utf8')).toBe(big.replaceAll('AAA', nonce))
    expect(gzipped.length).toBeLessThan(Buffer.byteLength(big) / 5)
  }
})

test('a page that starts or ends with the nonce, or has it twice in a row, still round-trips', () => {
  const cache = createPageCache()
  const edge = 'AAAAAAxAAA'
  cache.set('k', page(edge), 'AAA')
  expect(zlib.gunzipSync(cache.get('k')?.gzip('n') ?? Buffer.alloc(0)).toString()).toBe('nnxn')
})

test('per-visitor headers are never stored', () => {
  const cache = createPageCache()
  cache.set('k', page('x AAA'), 'AAA')
  expect(cache.get('k')?.headers).toEqual([['content-type', 'text/html']])
})

test('entries expire after the TTL', () => {
  let now = 1_000
  const cache = createPageCache({ ttlMs: 100, now: () => now })
  cache.set('k', page('x AAA'), 'AAA')
  now += 99
  expect(cache.get('k')).not.toBeNull()
  now += 2
  expect(cache.get('k')).toBeNull()
})

test('an expired entry is kept a while for an outage, then dropped', () => {
  let now = 1_000
  const cache = createPageCache({ ttlMs: 100, staleMs: 1_000, now: () => now })
  cache.set('k', page('x AAA'), 'AAA')
  expect(cache.getStale('k')?.plain('n')).toBe('x n')
  now += 500
  expect(cache.get('k')).toBeNull()
  expect(cache.getStale('k')?.plain('n')).toBe('x n')
  now += 700
  expect(cache.getStale('k')).toBeNull()
  expect(cache.size).toBe(0)
})

test('the least recently used entry is evicted beyond the bound', () => {
  const cache = createPageCache({ maxEntries: 2 })
  cache.set('a', page('a AAA'), 'AAA')
  cache.set('b', page('b AAA'), 'AAA')
  cache.get('a')
  cache.set('c', page('c AAA'), 'AAA')
  expect(cache.get('b')).toBeNull()
  expect(cache.get('a')?.plain('n')).toBe('a n')
  expect(cache.size).toBe(2)
  cache.clear()
  expect(cache.size).toBe(0)
})

test('a page rendered without a nonce is not stored', () => {
  const cache = createPageCache()
  cache.set('k', page('x'), '')
  expect(cache.size).toBe(0)
})

test('the key ignores preference parameters and the order of the others', () => {
  const a = pageCacheKey(new URL('http://x/store-guide?b=2&lang=en&a=1&currency=USD'), 'en', 'USD')
  const b = pageCacheKey(new URL('http://x/store-guide?a=1&b=2'), 'en', 'USD')
  expect(a).toBe(b)
  expect(pageCacheKey(new URL('http://x/'), 'es', 'USD')).not.toBe(
    pageCacheKey(new URL('http://x/'), 'en', 'USD'),
  )
  expect(pageCacheKey(new URL('http://x/'), 'es', 'USD', 'granted')).not.toBe(
    pageCacheKey(new URL('http://x/'), 'es', 'USD'),
  )
})

test('CRC-32 combination matches the CRC of the joined bytes', async () => {
  const { crc32Combine, crc32CombineOp } = await import('./page-cache.ts')
  const parts = ['', 'a', 'nonce-abc_123', '¡Ups! 日本 '.repeat(500), 'x'.repeat(70_001)].map((text) =>
    Buffer.from(text),
  )
  for (const a of parts)
    for (const b of parts)
      expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), crc32CombineOp(b.length))).toBe(
        zlib.crc32(Buffer.concat([a, b])),
      )
})

test('hits and misses are counted for the metrics; a caller that looks again on a miss counts it once', () => {
  const cache = createPageCache()
  expect(cache.get('k')).toBeNull()
  cache.set('k', page(html), 'AAA')
  cache.get('k')
  cache.get('k', { countMiss: false })
  expect(cache.get('other', { countMiss: false })).toBeNull()
  expect({ hits: cache.hits, misses: cache.misses, size: cache.size }).toEqual({
    hits: 2,
    misses: 1,
    size: 1,
  })
})
