import type { RequestHandler } from 'express'
import { siteCookies } from '#app/lib/cookies.server.ts'
import {
  CURRENCY_PARAM,
  LANGUAGE_PARAM,
  type Preferences,
  resolvePreferences,
} from '#core/preferences/preferences.ts'

/**
 * Resolves language and currency for every request into `res.locals.preferences`, before the
 * page cache and the renderer see it, and persists a choice made through `?lang=` / `?currency=`.
 * The cookies themselves are defined in app/lib/cookies.server.ts.
 */
export function preferences({ appUrl }: { appUrl: string }): RequestHandler {
  const cookies = siteCookies(appUrl)
  return async (req, res, next) => {
    try {
      const query = new URL(req.originalUrl, 'http://localhost').searchParams
      const sent = await cookies.read(req.headers.cookie)
      const resolved = resolvePreferences({
        query: { language: query.get(LANGUAGE_PARAM), currency: query.get(CURRENCY_PARAM) },
        cookies: { language: sent.language, currency: sent.currency },
      })
      if (resolved.changed.language)
        res.append('Set-Cookie', await cookies.language.serialize(resolved.changed.language))
      if (resolved.changed.currency)
        res.append('Set-Cookie', await cookies.currency.serialize(resolved.changed.currency))
      res.locals.preferences = {
        language: resolved.language,
        currency: resolved.currency,
      } satisfies Preferences
      res.locals.consent = sent.consent
      // Only a request that renders loaders (a document, or React Router's .data) may consume the
      // one-shot message: route discovery (/__manifest), assets and the API would swallow it.
      if (sent.flash !== undefined && consumesFlash(req.method, req.path)) {
        res.locals.flash = sent.flash
        res.append('Set-Cookie', await cookies.expire(cookies.flash))
      }
      next()
    } catch (error) {
      next(error)
    }
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
