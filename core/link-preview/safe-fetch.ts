import type { LookupAddress } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { isPublicAddress } from './ip-ranges.ts'
import { checkShopUrl } from './shop-url.ts'

/**
 * Fetches one shop page a customer pasted, safely (server-side request forgery is the risk).
 * Safety rules: only https URLs on the default port, without user:password, whose host is an
 * allow-listed shop or a subdomain of one; never an IP-literal host. These checks run before
 * any network call, for the first URL and for every redirect (followed by hand, a few at most).
 * The name is resolved at connect time by our own lookup, which refuses the connection when any
 * address is not public, so DNS rebinding cannot slip in between a check and the connect. No
 * cookies; one total deadline; the body is capped in bytes; only HTML is read.
 */

export type FetchRefusal =
  | 'invalidUrl'
  | 'scheme'
  | 'hostNotAllowed'
  | 'privateAddress'
  | 'tooManyRedirects'
  | 'timeout'
  | 'tooLarge'
  | 'notHtml'
  | 'notImage'
  | 'httpStatus'
  | 'network'

export type FetchOutcome = { ok: true; html: string; finalUrl: string } | { ok: false; reason: FetchRefusal }

export type ImageOutcome =
  | { ok: true; bytes: Uint8Array; finalUrl: string }
  | { ok: false; reason: FetchRefusal }

export type FetchPolicy = {
  allowedHosts: readonly string[]
  /** Total time for the fetch, redirects included (default 4000 ms). */
  timeoutMs?: number
  /** Largest body read (default 2 MiB). */
  maxBytes?: number
  /** Redirects followed at most (default 3). */
  maxRedirects?: number
  userAgent?: string
  /** Tests only: send every request over plain http to this local server instead. */
  standIn?: { host: string; port: number }
}

/** Resolves a host name to all of its addresses (dns.lookup with all: true by default). */
export type LookupFn = (hostname: string) => Promise<readonly LookupAddress[]>

export type FetchDeps = { lookup?: LookupFn }

export const DEFAULT_USER_AGENT =
  "JapanProxyStorefront-LinkPreview/1.0 (+item preview for a customer's request)"
const DEFAULT_TIMEOUT_MS = 4000
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024
const DEFAULT_MAX_REDIRECTS = 3
const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** What is read of each kind of answer: its media types, what it asks for, why another is refused. */
const PAGE = {
  types: new Set(['text/html', 'application/xhtml+xml']),
  accept: 'text/html,application/xhtml+xml',
  refusal: 'notHtml',
} as const
const IMAGE = {
  types: new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  accept: 'image/webp,image/png,image/jpeg,image/gif',
  refusal: 'notImage',
} as const
type Wanted = typeof PAGE | typeof IMAGE
/** A shop's photo may be larger than a page (the uploads' limit, core/uploads/photo-rules.ts). */
const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024

const defaultLookup: LookupFn = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

class Refused extends Error {
  readonly reason: FetchRefusal
  constructor(reason: FetchRefusal) {
    super(reason)
    this.reason = reason
  }
}

/** Fetches the page at the URL under the policy: its HTML and the URL it ended on, or why not. */
export async function fetchShopPage(
  url: string,
  policy: FetchPolicy,
  deps: FetchDeps = {},
): Promise<FetchOutcome> {
  const fetched = await fetchGuarded(url, policy, deps, PAGE)
  if (!fetched.ok) return fetched
  return { ok: true, html: decodeHtml(fetched.body, fetched.contentType), finalUrl: fetched.finalUrl }
}

/**
 * Fetches a photo a read page named (its host is the policy's one allowed host), under the same
 * rules: https, public addresses, redirects re-checked, a deadline, at most 5 MiB by default, and
 * only JPEG, PNG, WebP or GIF by its Content-Type (its bytes are checked again when decoded).
 */
export async function fetchShopImage(
  url: string,
  policy: FetchPolicy,
  deps: FetchDeps = {},
): Promise<ImageOutcome> {
  const fetched = await fetchGuarded(url, { maxBytes: DEFAULT_MAX_IMAGE_BYTES, ...policy }, deps, IMAGE)
  if (!fetched.ok) return fetched
  return { ok: true, bytes: new Uint8Array(fetched.body), finalUrl: fetched.finalUrl }
}

type Fetched =
  | { ok: true; body: Buffer; contentType: string; finalUrl: string }
  | { ok: false; reason: FetchRefusal }

async function fetchGuarded(
  url: string,
  policy: FetchPolicy,
  deps: FetchDeps,
  wanted: Wanted,
): Promise<Fetched> {
  const checked = checkShopUrl(url, policy.allowedHosts)
  if (!checked.ok) return checked
  const deadline = AbortSignal.timeout(policy.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  let current = checked
  try {
    for (let hop = 0; ; hop++) {
      const answer = await requestOnce(
        current.url,
        current.host,
        policy,
        deps.lookup ?? defaultLookup,
        deadline,
        wanted,
      )
      if (answer.kind === 'body')
        return { ok: true, body: answer.body, contentType: answer.contentType, finalUrl: current.url.href }
      if (hop >= maxRedirects) return { ok: false, reason: 'tooManyRedirects' }
      const next = URL.parse(answer.location, current.url)
      if (next === null) return { ok: false, reason: 'invalidUrl' }
      const nextChecked = checkShopUrl(next, policy.allowedHosts)
      if (!nextChecked.ok) return nextChecked
      current = nextChecked
    }
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason }
    if (deadline.aborted) return { ok: false, reason: 'timeout' }
    return { ok: false, reason: 'network' }
  }
}

type Answer = { kind: 'body'; body: Buffer; contentType: string } | { kind: 'redirect'; location: string }

/** One request; resolves with the page or the redirect's Location, rejects with Refused or an error. */
function requestOnce(
  url: URL,
  host: string,
  policy: FetchPolicy,
  lookup: LookupFn,
  deadline: AbortSignal,
  wanted: Wanted,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    if (deadline.aborted) return reject(new Refused('timeout'))
    const headers = {
      Host: host,
      'User-Agent': policy.userAgent ?? DEFAULT_USER_AGENT,
      Accept: wanted.accept,
      'Accept-Language': 'ja,en;q=0.8',
      'Accept-Encoding': 'identity',
    }
    const path = `${url.pathname}${url.search}`
    const options = { method: 'GET', path, headers, agent: false as const }
    const request = policy.standIn
      ? http.request({ ...options, host: policy.standIn.host, port: policy.standIn.port })
      : https.request({ ...options, host, servername: host, port: 443, lookup: connectLookup(lookup) })
    const onAbort = () => request.destroy(new Refused('timeout'))
    deadline.addEventListener('abort', onAbort, { once: true })
    const settle = () => deadline.removeEventListener('abort', onAbort)
    request.on('error', (error) => {
      settle()
      reject(error)
    })
    request.on('response', (response) => {
      readAnswer(response, policy.maxBytes ?? DEFAULT_MAX_BYTES, wanted).then(
        (answer) => {
          settle()
          resolve(answer)
        },
        (error: unknown) => {
          settle()
          request.destroy()
          reject(error)
        },
      )
    })
    request.end()
  })
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void

/** A net.connect lookup that resolves the name and refuses if any address is not public. */
function connectLookup(lookup: LookupFn) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookup(hostname).then(
      (addresses) => {
        const first = addresses[0]
        if (!first) return callback(new Refused('network'), '')
        if (addresses.some((entry) => !isPublicAddress(entry.address))) {
          return callback(new Refused('privateAddress'), '')
        }
        if (options.all) return callback(null, [...addresses])
        callback(null, first.address, first.family)
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    )
  }
}

/** Reads a response: a redirect's Location, or a body of the wanted kind within the byte limit. */
async function readAnswer(response: http.IncomingMessage, maxBytes: number, wanted: Wanted): Promise<Answer> {
  const status = response.statusCode ?? 0
  if (REDIRECTS.has(status)) {
    response.resume()
    const location = response.headers.location
    if (!location) throw new Refused('httpStatus')
    return { kind: 'redirect', location }
  }
  if (status < 200 || status > 299) throw new Refused('httpStatus')
  const contentType = response.headers['content-type'] ?? ''
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (!wanted.types.has(mediaType)) throw new Refused(wanted.refusal)
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) throw new Refused('tooLarge')
  return { kind: 'body', body: await readBody(response, maxBytes), contentType }
}

/** The body, or Refused('tooLarge') as soon as it passes maxBytes. */
async function readBody(response: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    const bytes = chunk as Buffer
    size += bytes.length
    if (size > maxBytes) {
      response.destroy()
      throw new Refused('tooLarge')
    }
    chunks.push(bytes)
  }
  return Buffer.concat(chunks)
}

/** UTF-8 unless the Content-Type (or the page's own meta charset) says Shift_JIS or EUC-JP. */
export function decodeHtml(body: Uint8Array, contentType: string): string {
  const declared = charsetOf(contentType) ?? charsetOf(metaCharset(body))
  return new TextDecoder(declared ?? 'utf-8').decode(body)
}

function charsetOf(text: string): 'shift_jis' | 'euc-jp' | null {
  const charset = /charset\s*=\s*["']?([\w-]+)/i.exec(text)?.[1]?.toLowerCase()
  if (charset === undefined) return null
  if (['shift_jis', 'shift-jis', 'sjis', 'x-sjis', 'windows-31j', 'cp932', 'ms_kanji'].includes(charset)) {
    return 'shift_jis'
  }
  if (['euc-jp', 'x-euc-jp', 'eucjp'].includes(charset)) return 'euc-jp'
  return null
}

/** The charset declaration in the first 1024 bytes (the HTML prescan), as text, else ''. */
function metaCharset(body: Uint8Array): string {
  const head = Buffer.from(body.subarray(0, 1024)).toString('latin1')
  return /<meta[^>]+charset\s*=\s*["']?[\w-]+/i.exec(head)?.[0] ?? ''
}
