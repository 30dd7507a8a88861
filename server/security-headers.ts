import { randomBytes } from 'node:crypto'
import type { RequestHandler } from 'express'

/**
 * The security baseline's headers on every response, and a fresh CSP nonce per request in
 * `res.locals.nonce` (the HTML renderer stamps it on every script it emits).
 */
export function securityHeaders({ isProduction }: { isProduction: boolean }): RequestHandler {
  return (_req, res, next) => {
    // Development's CSP allows inline scripts and uses no nonce; an empty one keeps the server's
    // HTML identical to what the client renders.
    const nonce = isProduction ? randomBytes(18).toString('base64url') : ''
    res.locals.nonce = nonce
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce, isProduction))
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
    res.setHeader('X-Frame-Options', 'DENY')
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()')
    if (isProduction) res.setHeader('Strict-Transport-Security', 'max-age=63072000; includeSubDomains')
    next()
  }
}

export function contentSecurityPolicy(nonce: string, isProduction: boolean): string {
  const directives = isProduction
    ? [
        "default-src 'self'",
        `script-src 'nonce-${nonce}' 'strict-dynamic'`,
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
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
