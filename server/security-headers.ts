import { randomBytes } from 'node:crypto'
import type { RequestHandler, Response } from 'express'

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
    const nonce = isProduction ? randomBytes(18).toString('base64url') : ''
    res.locals.nonce = nonce
    res.setHeader(
      'Content-Security-Policy',
      contentSecurityPolicy(nonce, isProduction, allowsThirdParty(res)),
    )
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
    res.setHeader('X-Frame-Options', 'DENY')
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()')
    // HSTS means something only over TLS; on a plain-http site it would pin a browser to an https
    // that does not exist (for localhost: every local port).
    if (isProduction && (httpsSite || req.secure))
      res.setHeader('Strict-Transport-Security', 'max-age=63072000; includeSubDomains')
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
        thirdParty ? "style-src 'self' 'unsafe-inline' https:" : "style-src 'self'",
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
