import type { RequestHandler } from 'express'
import {
  CONSENT_COOKIE,
  CURRENCY_COOKIE,
  CURRENCY_PARAM,
  FLASH_COOKIE,
  LANGUAGE_COOKIE,
  LANGUAGE_PARAM,
  type Preferences,
  parseConsent,
  parseFlash,
  resolvePreferences,
} from '#core/preferences/preferences.ts'

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60

/**
 * Resolves language and currency for every request into `res.locals.preferences`, before the
 * page cache and the renderer see it, and persists a choice made through `?lang=` / `?currency=`.
 */
export function preferences({ secureCookies }: { secureCookies: boolean }): RequestHandler {
  return (req, res, next) => {
    const query = new URL(req.originalUrl, 'http://localhost').searchParams
    const cookies = parseCookies(req.headers.cookie)
    const resolved = resolvePreferences({
      query: { language: query.get(LANGUAGE_PARAM), currency: query.get(CURRENCY_PARAM) },
      cookies: { language: cookies.get(LANGUAGE_COOKIE), currency: cookies.get(CURRENCY_COOKIE) },
    })
    const flags = `Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax; HttpOnly${secureCookies ? '; Secure' : ''}`
    if (resolved.changed.language)
      res.append('Set-Cookie', `${LANGUAGE_COOKIE}=${resolved.changed.language}; ${flags}`)
    if (resolved.changed.currency)
      res.append('Set-Cookie', `${CURRENCY_COOKIE}=${resolved.changed.currency}; ${flags}`)
    res.locals.preferences = {
      language: resolved.language,
      currency: resolved.currency,
    } satisfies Preferences
    res.locals.consent = parseConsent(cookies.get(CONSENT_COOKIE))
    const flash = cookies.get(FLASH_COOKIE)
    // Only a request that renders loaders (a document, or React Router's .data) may consume the
    // one-shot message: route discovery (/__manifest), assets and the API would swallow it.
    if (flash !== undefined && consumesFlash(req.method, req.path)) {
      res.locals.flash = parseFlash(flash)
      res.append('Set-Cookie', `${FLASH_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly`)
    }
    next()
  }
}

function consumesFlash(method: string, pathname: string): boolean {
  if (method !== 'GET') return false
  return !/^\/(__manifest|assets\/|api\/|healthz|readyz|favicon|images\/)/.test(pathname)
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  if (!header) return cookies
  for (const raw of header.split(';')) {
    const part = raw.trim()
    const index = part.indexOf('=')
    if (index <= 0) continue
    const name = part.slice(0, index).trim()
    if (!cookies.has(name)) cookies.set(name, part.slice(index + 1).trim())
  }
  return cookies
}
