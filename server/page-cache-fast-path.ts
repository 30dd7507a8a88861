import type { IncomingMessage, ServerResponse } from 'node:http'
import { COOKIE_NAMES } from '#app/lib/cookies.server.ts'
import {
  CURRENCY_PARAM,
  LANGUAGE_PARAM,
  parseConsent,
  parseCurrency,
  parseLanguage,
  resolvePreferences,
} from '#core/preferences/preferences.ts'
import { type Logger, redactUrl } from './logger.ts'
import { type PageCache, pageCacheKey } from './page-cache.ts'
import { parseCookies } from './preferences.ts'
import { SESSION_COOKIE } from './react-router-handler.ts'
import { freshNonce, securityHeaderList } from './security-headers.ts'

type Options = {
  pageCache: PageCache
  isProduction: boolean
  /** APP_URL is https (HSTS on every answer). */
  httpsSite: boolean
  /** Third-party widgets are configured (the CSP opens to them for a visitor who consented). */
  widgetsConfigured: boolean
  /** Express's `trust proxy` hop count: with one, X-Forwarded-Proto may make a request https. */
  trustProxy: number
  logger: Logger
}

/** Answers the request and returns true, or returns false and touches nothing. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean

// A cookie value the fast path reads itself: a plain token, as the site writes them. Anything
// else (quoted, encoded, empty) takes the full path, whose cookie parser decides.
const PLAIN_TOKEN = /^[A-Za-z]+$/
const UNCOUNTED_MISS = { countMiss: false }

/**
 * A cache hit for an anonymous visitor, answered in front of Express: before the request log,
 * the preferences, the compression and the router (docs/decisions/016-cached-page-fast-path.md).
 * It gives the answer the full path gives: the security headers with a fresh nonce, the request
 * id, the stored page gzip-joined around that nonce, `Vary: Cookie, Accept-Encoding`, and the
 * request log's line. Whatever it is not sure of (a session or flash cookie, a preference in the
 * query, an unusual cookie value or Accept-Encoding, a forwarded protocol, a miss) goes to
 * Express unchanged.
 */
export function pageCacheFastPath({
  pageCache,
  isProduction,
  httpsSite,
  widgetsConfigured,
  trustProxy,
  logger,
}: Options): FastPath {
  return (req, res) => {
    if (req.method !== 'GET' || !acceptsGzip(req)) return false
    // HSTS goes on every answer of an https site. Otherwise, behind a trusted proxy, whether this
    // request was https (and so gets HSTS) is the proxy's header to say: Express decides.
    if (!httpsSite && trustProxy > 0 && req.headers['x-forwarded-proto'] !== undefined) return false
    const key = anonymousCacheKey(req)
    // A miss is counted once, by the full path, which looks again.
    const hit = key === null ? null : pageCache.get(key.key, UNCOUNTED_MISS)
    if (!key || !hit) return false

    const started = performance.now()
    const id = requestId(req)
    const nonce = freshNonce()
    const hsts = isProduction && (httpsSite || Boolean((req.socket as { encrypted?: boolean }).encrypted))
    const body = hit.gzip(nonce)
    const headers: [string, string][] = [
      ['X-Request-Id', id],
      ...securityHeaderList(nonce, isProduction, widgetsConfigured && key.consent === 'granted', hsts),
      ...hit.headers.filter(([name]) => name.toLowerCase() !== 'vary'),
      ['Vary', withVary(hit.headers, ['Cookie', 'Accept-Encoding'])],
      ['X-Page-Cache', 'HIT'],
      ['Content-Encoding', 'gzip'],
      ['Content-Length', String(body.length)],
    ]
    res.writeHead(hit.status, headers.flat())
    res.end(body)
    if (logger.isLevelEnabled('info')) {
      // The request log's line (pino-http's shape), without a child logger per request.
      logger.info(
        {
          req: { method: req.method, url: redactUrl(req.url ?? ''), id },
          res: { statusCode: hit.status },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      )
    }
    return true
  }
}

/** The page's own Vary (entry.server.tsx says Cookie) with these added, as Express's res.vary does. */
function withVary(headers: [string, string][], fields: string[]): string {
  const values: string[] = []
  for (const [name, value] of headers)
    if (name.toLowerCase() === 'vary')
      values.push(
        ...value
          .split(',')
          .map((field) => field.trim())
          .filter(Boolean),
      )
  for (const field of fields)
    if (!values.some((value) => value.toLowerCase() === field.toLowerCase())) values.push(field)
  return values.join(', ')
}

/** The request's id: a well-formed X-Request-Id from the client, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id']
  return typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID()
}

/**
 * Accept-Encoding names gzip with a non-zero quality. Anything else (no header, identity, `*`
 * only, gzip;q=0) goes down the full path, which negotiates it.
 */
function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding']
  if (typeof header !== 'string') return false
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';')
    if (name.trim().toLowerCase() !== 'gzip') continue
    for (const param of params) {
      const [attribute = '', value = ''] = param.split('=')
      if (attribute.trim().toLowerCase() === 'q') return Number(value.trim()) > 0
    }
    return true
  }
  return false
}

/**
 * The page cache's key for an anonymous visitor whose preferences come from plain cookies alone,
 * resolved as server/preferences.ts does; null when the full path must decide.
 */
function anonymousCacheKey(req: IncomingMessage): { key: string; consent: string | null } | null {
  const raw = req.url ?? ''
  // Parsed as the full path does (server/react-router-handler.ts): after a host. Only the path and
  // the query make the key; a URL that starts "//" or "/\\" is left to the full path.
  const second = raw.charCodeAt(1)
  if (raw.charCodeAt(0) !== 47 || second === 47 || second === 92) return null
  let url: URL
  try {
    url = new URL(`http://localhost${raw}`)
  } catch {
    return null
  }
  if (url.pathname.endsWith('.data')) return null
  // A preference in the query sets a cookie: the full path answers it.
  if (url.searchParams.has(LANGUAGE_PARAM) || url.searchParams.has(CURRENCY_PARAM)) return null
  const cookies = parseCookies(req.headers.cookie)
  const values: Record<'language' | 'currency' | 'consent', string | null> = {
    language: null,
    currency: null,
    consent: null,
  }
  for (const [name, value] of cookies) {
    if (SESSION_COOKIE.test(name) || name === COOKIE_NAMES.flash) return null
    const field =
      name === COOKIE_NAMES.language
        ? 'language'
        : name === COOKIE_NAMES.currency
          ? 'currency'
          : name === COOKIE_NAMES.consent
            ? 'consent'
            : null
    if (field === null) continue
    if (!PLAIN_TOKEN.test(value)) return null
    values[field] = value
  }
  const resolved = resolvePreferences({
    query: { language: null, currency: null },
    cookies: { language: parseLanguage(values.language), currency: parseCurrency(values.currency) },
  })
  if (resolved.changed.language || resolved.changed.currency) return null
  const consent = parseConsent(values.consent)
  return {
    key: pageCacheKey(url, resolved.language, resolved.currency, consent ?? 'unset'),
    consent,
  }
}
