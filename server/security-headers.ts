import { randomFillSync } from 'node:crypto'
import type { RequestHandler, Response } from 'express'

const NONCE_BYTES = 18
const POOL_NONCES = 512
const pool = Buffer.alloc(NONCE_BYTES * POOL_NONCES)
let poolOffset = pool.length

/**
 * A fresh CSP nonce: 18 bytes from the CSPRNG, base64url. The bytes are drawn 512 nonces at a
 * time (one randomFillSync call instead of one per response); every slice is used once.
 */
export function freshNonce(): string {
  if (poolOffset + NONCE_BYTES > pool.length) {
    randomFillSync(pool)
    poolOffset = 0
  }
  const nonce = pool.toString('base64url', poolOffset, poolOffset + NONCE_BYTES)
  poolOffset += NONCE_BYTES
  return nonce
}

/**
 * The baseline's headers for one response with this nonce, in order. `hsts`: the site or this
 * request is https (and production). Shared by the middleware below and the page cache's fast
 * path (server/page-cache-fast-path.ts), which writes them in one writeHead.
 */
export function securityHeaderList(
  nonce: string,
  isProduction: boolean,
  thirdParty: boolean,
  hsts: boolean,
): [string, string][] {
  const headers: [string, string][] = [
    ['Content-Security-Policy', contentSecurityPolicy(nonce, isProduction, thirdParty)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
  ]
  // HSTS means something only over TLS; on a plain-http site it would pin a browser to an https
  // that does not exist (for localhost: every local port).
  if (hsts) headers.push(['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'])
  return headers
}

/**
 * The security baseline's headers on every response, and a fresh CSP nonce per request in
 * `res.locals.nonce` (the HTML renderer stamps it on every script it emits).
 */
export function securityHeaders({
  isProduction,
  httpsSite,
  allowsThirdParty,
}: {
  isProduction: boolean
  /** APP_URL is https: the site is served over TLS (behind a proxy, the request may not say so). */
  httpsSite: boolean
  /** Whether this response may show third-party widgets (configured, and the visitor consented). */
  allowsThirdParty: (res: Response) => boolean
}): RequestHandler {
  return (req, res, next) => {
    // Development's CSP allows inline scripts and uses no nonce; an empty one keeps the server's
    // HTML identical to what the client renders.
    const nonce = isProduction ? freshNonce() : ''
    res.locals.nonce = nonce
    const hsts = isProduction && (httpsSite || req.secure)
    for (const [name, value] of securityHeaderList(nonce, isProduction, allowsThirdParty(res), hsts))
      res.setHeader(name, value)
    next()
  }
}

/**
 * Strict by default. Only for a visitor who accepted third-party content on a site that has
 * widgets configured, the policy opens to https: sources for what widgets need (images, styles,
 * frames, requests); their loader script is trusted through 'strict-dynamic' because our own
 * nonce-bearing code inserts it.
 */
export function contentSecurityPolicy(nonce: string, isProduction: boolean, thirdParty = false): string {
  const directives = isProduction
    ? [
        "default-src 'self'",
        `script-src 'nonce-${nonce}' 'strict-dynamic'`,
        // The document pages inline the stylesheet under the nonce (app/lib/page-kind.ts). With
        // widgets, 'unsafe-inline' covers it (a nonce beside it would switch 'unsafe-inline' off).
        thirdParty ? "style-src 'self' 'unsafe-inline' https:" : `style-src 'self' 'nonce-${nonce}'`,
        thirdParty ? "img-src 'self' data: https:" : "img-src 'self' data:",
        thirdParty ? "font-src 'self' data: https:" : "font-src 'self'",
        thirdParty ? "connect-src 'self' https:" : "connect-src 'self'",
        thirdParty ? 'frame-src https:' : "frame-src 'none'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ]
    : [
        // Vite's dev server injects styles and an HMR client; production stays strict.
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self' ws: wss:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ]
  return directives.join('; ')
}
