import zlib from 'node:zlib'

/**
 * Rendered HTML of anonymous public pages, per path, query, language, currency and consent, so
 * that serving them costs close to serving a file. A bounded LRU with a TTL; cleared whenever
 * settings change (in every process, through PostgreSQL NOTIFY).
 *
 * Every response needs its own CSP nonce. An entry keeps the page split at the nonce's places,
 * plain and deflated once; a response joins the pieces around the request's fresh nonce. For
 * gzip, each piece was compressed with a sync flush (byte-aligned, not final), the nonce goes in
 * as a stored block, and an empty final block and the CRC-32 trailer close one valid gzip
 * member: a cache hit compresses nothing (docs/decisions/003-page-cache-and-nonces.md).
 */
export type CachedPage = { status: number; headers: [string, string][]; body: string }

export type CacheHit = {
  status: number
  headers: [string, string][]
  /** The page as text, with this nonce. */
  plain(nonce: string): string
  /** The page gzip-encoded, with this nonce. */
  gzip(nonce: string): Buffer
}

export type PageCache = {
  /**
   * The fresh entry, or null. Counted as a hit or a miss (`hits`, `misses`: the metrics); a
   * caller that will ask again on a miss (the fast path, before Express) says `countMiss: false`.
   */
  get(key: string, options?: { countMiss?: boolean }): CacheHit | null
  /**
   * An entry past its TTL but within `staleMs` of it, for when the page cannot be rendered now
   * (the database is unreachable: docs/decisions/015-database-outage.md). Null otherwise.
   */
  getStale(key: string): CacheHit | null
  set(key: string, page: CachedPage, nonce: string): void
  clear(): void
  readonly size: number
  /** Fresh entries served by `get`, since the start. */
  readonly hits: number
  /** `get` calls that found no fresh entry (and counted it), since the start. */
  readonly misses: number
}

// Set-Cookie would leak one visitor's cookie to the next; per-request headers are set again.
const UNCACHEABLE_HEADERS = new Set([
  'set-cookie',
  'content-length',
  'date',
  'x-request-id',
  'content-security-policy',
])

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff])
// BFINAL=1, fixed Huffman, end-of-block: the last block of every response.
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00])

type Entry = {
  status: number
  headers: [string, string][]
  pieces: string[]
  /** Each piece deflated once (sync flush), its CRC-32 and length, and the CRC operator for it. */
  deflatedPieces: Buffer[]
  crcs: number[]
  lengths: number[]
  crcOps: number[]
  expiresAt: number
}

export function createPageCache({
  maxEntries = 1_000,
  ttlMs = 60_000,
  staleMs = 10 * 60_000,
  now = Date.now,
} = {}): PageCache {
  const entries = new Map<string, Entry>()
  let hits = 0
  let misses = 0

  /** The entry if it is fresh (or, with `stale`, expired less than `staleMs` ago); drops older ones. */
  function lookUp(key: string, stale: boolean): CacheHit | null {
    const entry = entries.get(key)
    if (!entry) return null
    const age = now() - entry.expiresAt
    if (age >= staleMs) {
      entries.delete(key)
      return null
    }
    // Expired but kept a while: a fresh render replaces it; an outage may still serve it.
    if (age >= 0 && !stale) return null
    // Refresh recency: Map keeps insertion order, so the first key is the least recent.
    entries.delete(key)
    entries.set(key, entry)
    return {
      status: entry.status,
      headers: entry.headers,
      plain: (nonce) => entry.pieces.join(nonce),
      gzip: (nonce) => joinGzip(entry, nonce),
    }
  }

  return {
    get(key, options) {
      const hit = lookUp(key, false)
      if (hit) hits++
      else if (options?.countMiss !== false) misses++
      return hit
    },
    getStale: (key) => lookUp(key, true),
    set(key, page, nonce) {
      // Without a nonce to find, a stored page would leak one response's nonce to the next.
      if (!nonce) return
      const pieces = page.body.split(nonce)
      const rawPieces = pieces.map((piece) => Buffer.from(piece, 'utf8'))
      // An empty piece (the nonce at either end, or twice in a row) contributes no bytes.
      const deflatedPieces = rawPieces.map((piece) =>
        piece.length === 0
          ? Buffer.alloc(0)
          : zlib.deflateRawSync(piece, { level: 6, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      )
      const headers = page.headers.filter(([name]) => !UNCACHEABLE_HEADERS.has(name.toLowerCase()))
      entries.delete(key)
      entries.set(key, {
        status: page.status,
        headers,
        pieces,
        deflatedPieces,
        crcs: rawPieces.map((piece) => zlib.crc32(piece)),
        lengths: rawPieces.map((piece) => piece.length),
        crcOps: rawPieces.map((piece) => crc32CombineOp(piece.length)),
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
    get hits() {
      return hits
    },
    get misses() {
      return misses
    },
  }
}

function joinGzip(entry: Entry, nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce, 'utf8')
  const nonceBlock = storedBlock(nonceBytes)
  // The pieces' CRCs were computed once at storage; only the nonce's is computed here, and the
  // CRCs are chained with zlib's crc32_combine (no pass over the page's bytes per response).
  const nonceCrc = zlib.crc32(nonceBytes)
  const nonceOp = crc32CombineOp(nonceBytes.length)
  const parts: Buffer[] = [GZIP_HEADER]
  let crc = 0
  let length = 0
  entry.deflatedPieces.forEach((deflated, index) => {
    if (index > 0) {
      parts.push(nonceBlock)
      crc = crc32Combine(crc, nonceCrc, nonceOp)
      length += nonceBytes.length
    }
    parts.push(deflated)
    crc = crc32Combine(crc, entry.crcs[index] ?? 0, entry.crcOps[index] ?? CRC_ONE)
    length += entry.lengths[index] ?? 0
  })
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE(length % 2 ** 32, 4)
  parts.push(FINAL_EMPTY_BLOCK, trailer)
  return Buffer.concat(parts)
}

// CRC-32 combination, as zlib's crc32_combine_gen/crc32_combine_op: polynomials over GF(2) in
// reflected bit order, where 1 << 31 is x^0.
const CRC_POLY = 0xedb88320
const CRC_ONE = 0x80000000

function multModP(a: number, b: number): number {
  let m = CRC_ONE
  let p = 0
  let x = b >>> 0
  for (;;) {
    if (a & m) {
      p ^= x
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    x = x & 1 ? (x >>> 1) ^ CRC_POLY : x >>> 1
  }
  return p >>> 0
}

// X2N[k] = x^(2^k) mod P.
const X2N: number[] = [CRC_ONE >>> 1]
for (let k = 1; k < 32; k++) X2N.push(multModP(X2N[k - 1] ?? 0, X2N[k - 1] ?? 0))

/** The operator that appends `bytes` bytes to a CRC: x^(8·bytes) mod P. */
export function crc32CombineOp(bytes: number): number {
  let p = CRC_ONE
  let n = bytes
  let k = 3
  while (n > 0) {
    if (n & 1) p = multModP(X2N[k & 31] ?? 0, p)
    n = Math.floor(n / 2)
    k++
  }
  return p
}

/** CRC-32 of A followed by B, from crc(A), crc(B) and the operator for B's length. */
export function crc32Combine(crcA: number, crcB: number, opB: number): number {
  return (multModP(opB, crcA) ^ crcB) >>> 0
}

/** A non-final stored (uncompressed) deflate block; the previous block ended byte-aligned. */
function storedBlock(data: Buffer): Buffer {
  const header = Buffer.alloc(5)
  header[0] = 0x00
  header.writeUInt16LE(data.length, 1)
  header.writeUInt16LE(~data.length & 0xffff, 3)
  return Buffer.concat([header, data])
}

/** The cache key: path and the remaining query (sorted), with the resolved preferences and consent. */
export function pageCacheKey(url: URL, language: string, currency: string, consent = 'unset'): string {
  const params = [...url.searchParams].filter(([name]) => name !== 'lang' && name !== 'currency')
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `${language}|${currency}|${consent}|${url.pathname}?${new URLSearchParams(params).toString()}`
}
