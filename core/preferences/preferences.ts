/**
 * Visitor preferences that every page honours: language and display currency.
 * Isomorphic: the server resolves them from the query string and cookies, the UI lists them.
 */
export const LANGUAGES = ['es', 'en'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'es'

export const CURRENCIES = ['JPY', 'USD', 'MXN', 'CLP'] as const
export type Currency = (typeof CURRENCIES)[number]
export const DEFAULT_CURRENCY: Currency = 'JPY'

export const LANGUAGE_COOKIE = 'lang'
export const CURRENCY_COOKIE = 'currency'
export const LANGUAGE_PARAM = 'lang'
export const CURRENCY_PARAM = 'currency'

export function parseLanguage(value: string | null | undefined): Language | null {
  const candidate = value?.trim().toLowerCase()
  return LANGUAGES.find((language) => language === candidate) ?? null
}

export function parseCurrency(value: string | null | undefined): Currency | null {
  const candidate = value?.trim().toUpperCase()
  return CURRENCIES.find((currency) => currency === candidate) ?? null
}

export const CONSENT_COOKIE = 'consent'
export const CONSENT_CHOICES = ['granted', 'denied'] as const
/** The visitor's answer about third-party content; null until they answer. */
export type Consent = (typeof CONSENT_CHOICES)[number] | null

export function parseConsent(value: string | null | undefined): Consent {
  return CONSENT_CHOICES.find((choice) => choice === value) ?? null
}

/** One-shot messages carried across a redirect (shown once as a toast). */
export const FLASH_COOKIE = 'flash'
export const FLASH_MESSAGES = ['signedIn', 'signedOut', 'signOutFailed', 'accountDeleted'] as const
export type FlashMessage = (typeof FLASH_MESSAGES)[number]

export function parseFlash(value: string | null | undefined): FlashMessage | null {
  return FLASH_MESSAGES.find((message) => message === value) ?? null
}

export type Preferences = { language: Language; currency: Currency }

/**
 * Resolves the preferences of one request. An explicit query parameter wins (so a shared link
 * `?lang=en` opens in English), then the cookie, then the default. `changed` lists what the
 * query asked for that the cookie does not yet hold, so the caller can persist it.
 */
export function resolvePreferences(input: {
  query: { language?: string | null; currency?: string | null }
  cookies: { language?: string | null; currency?: string | null }
}): Preferences & { changed: Partial<Preferences> } {
  const queryLanguage = parseLanguage(input.query.language)
  const cookieLanguage = parseLanguage(input.cookies.language)
  const queryCurrency = parseCurrency(input.query.currency)
  const cookieCurrency = parseCurrency(input.cookies.currency)

  const language = queryLanguage ?? cookieLanguage ?? DEFAULT_LANGUAGE
  const currency = queryCurrency ?? cookieCurrency ?? DEFAULT_CURRENCY
  const changed: Partial<Preferences> = {}
  if (queryLanguage && queryLanguage !== cookieLanguage) changed.language = queryLanguage
  if (queryCurrency && queryCurrency !== cookieCurrency) changed.currency = queryCurrency
  return { language, currency, changed }
}
