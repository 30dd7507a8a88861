/**
 * Visitor preferences that every page honours: language and display currency, and the answer
 * about third-party content. Isomorphic and free of web concerns: the server reads the query and
 * its cookies (app/lib/cookies.server.ts) and resolves them here; the UI lists them.
 */
export const LANGUAGES = ['es', 'en'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'es'

export const CURRENCIES = ['JPY', 'USD', 'MXN', 'CLP'] as const
export type Currency = (typeof CURRENCIES)[number]
export const DEFAULT_CURRENCY: Currency = 'JPY'

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

export const CONSENT_CHOICES = ['granted', 'denied'] as const
/** The visitor's answer about third-party content; null until they answer. */
export type Consent = (typeof CONSENT_CHOICES)[number] | null

export function parseConsent(value: string | null | undefined): Consent {
  return CONSENT_CHOICES.find((choice) => choice === value) ?? null
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
