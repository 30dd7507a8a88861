import { type Cookie, type CookieOptions, createCookie, type RouterContextProvider } from 'react-router'
import { requestContext } from '#app/context.ts'
import {
  type Consent,
  type Currency,
  type Language,
  parseConsent,
  parseCurrency,
  parseLanguage,
} from '#core/preferences/preferences.ts'
import { type Notice, type NoticeName, parseNotice, serializeNotice } from './notice.ts'

/**
 * Every cookie the site sets itself, defined once (better-auth names and sets its own). The names
 * are stable: the page cache treats `flash` (and any *session* cookie) as a sign of a visitor whose
 * page must not be cached. All are `HttpOnly` (no script reads them: the server resolves them
 * into each request's context), `SameSite=Lax`, `Path=/`, and `Secure` when APP_URL is https.
 */
export const COOKIE_NAMES = {
  language: 'lang',
  currency: 'currency',
  consent: 'consent',
  flash: 'flash',
} as const

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60
const FLASH_SECONDS = 60

/**
 * React Router's cookies store base64 JSON. Ours hold one plain token (`lang=en`), as visitors'
 * browsers already keep them: `encode` turns React Router's encoding back into the token, and
 * `decode` wraps a received token the way React Router's parser expects it.
 */
const plainValue: Pick<CookieOptions, 'encode' | 'decode'> = {
  encode: (encoded) => (encoded === '' ? '' : String(JSON.parse(atob(encoded)))),
  decode: (raw) => {
    try {
      return btoa(JSON.stringify(raw))
    } catch {
      return ''
    }
  },
}

/**
 * The flash cookie's value, percent-encoded: a notice's name reads as itself (`flash=signedIn`),
 * one with parameters as its JSON (app/lib/notice.ts), any language's letters included.
 * React Router hands `encode` its own encoding (base64 of the UTF-8 JSON) and expects it back.
 */
const percentValue: Pick<CookieOptions, 'encode' | 'decode'> = {
  encode: (encoded) => {
    if (encoded === '') return ''
    const utf8 = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0))
    return encodeURIComponent(String(JSON.parse(new TextDecoder().decode(utf8))))
  },
  decode: (raw) => {
    try {
      const utf8 = new TextEncoder().encode(JSON.stringify(decodeURIComponent(raw)))
      return btoa(String.fromCharCode(...utf8))
    } catch {
      return ''
    }
  },
}

export type SiteCookies = {
  language: Cookie
  currency: Cookie
  consent: Cookie
  flash: Cookie
  /** The `Set-Cookie` line that removes a cookie. */
  expire(cookie: Cookie): Promise<string>
  /** What a request's Cookie header says; `flash` is undefined when there is no flash cookie. */
  read(header: string | null | undefined): Promise<{
    language: Language | null
    currency: Currency | null
    consent: Consent
    flash: Notice | null | undefined
  }>
}

const defined = new Map<boolean, SiteCookies>()

/** The site's cookies for this APP_URL (`Secure` when it is https). */
export function siteCookies(appUrl: string): SiteCookies {
  const secure = new URL(appUrl).protocol === 'https:'
  let cookies = defined.get(secure)
  if (!cookies) {
    cookies = defineCookies(secure)
    defined.set(secure, cookies)
  }
  return cookies
}

function defineCookies(secure: boolean): SiteCookies {
  const options: CookieOptions = { path: '/', sameSite: 'lax', httpOnly: true, secure, ...plainValue }
  const language = createCookie(COOKIE_NAMES.language, { ...options, maxAge: ONE_YEAR_SECONDS })
  const currency = createCookie(COOKIE_NAMES.currency, { ...options, maxAge: ONE_YEAR_SECONDS })
  const consent = createCookie(COOKIE_NAMES.consent, { ...options, maxAge: ONE_YEAR_SECONDS })
  const flash = createCookie(COOKIE_NAMES.flash, { ...options, ...percentValue, maxAge: FLASH_SECONDS })
  const text = async (cookie: Cookie, header: string) => {
    const value: unknown = await cookie.parse(header)
    return typeof value === 'string' ? value : null
  }
  return {
    language,
    currency,
    consent,
    flash,
    expire: (cookie) => cookie.serialize('', { maxAge: 0 }),
    async read(header) {
      if (!header) return { language: null, currency: null, consent: null, flash: undefined }
      const flashValue = await text(flash, header)
      return {
        language: parseLanguage(await text(language, header)),
        currency: parseCurrency(await text(currency, header)),
        consent: parseConsent(await text(consent, header)),
        flash: flashValue === null ? undefined : parseNotice(flashValue),
      }
    },
  }
}

const SENT_TO_SECONDS = 15 * 60

/**
 * The address a verification link just went to, for the check-your-email screen (shown there,
 * and where "send it again" sends): in a short-lived cookie rather than in the address bar, so it
 * stays out of history and access logs. Path `/`: the page's data requests go to `/auth.data`.
 */
export function sentToCookie(context: Readonly<RouterContextProvider>): Cookie {
  const secure = new URL(context.get(requestContext).appUrl).protocol === 'https:'
  return secure ? sentToCookies.secure : sentToCookies.plain
}

const sentToOptions = { path: '/', sameSite: 'lax', httpOnly: true, maxAge: SENT_TO_SECONDS } as const
const sentToCookies = {
  secure: createCookie('sent_to', { ...sentToOptions, secure: true }),
  plain: createCookie('sent_to', { ...sentToOptions, secure: false }),
}

/** The `Set-Cookie` line of a one-shot notice after a redirect (see app/lib/notice.ts). */
export function flashCookie(
  context: Readonly<RouterContextProvider>,
  notice: Notice | NoticeName,
): Promise<string> {
  return siteCookies(context.get(requestContext).appUrl).flash.serialize(serializeNotice(notice))
}
