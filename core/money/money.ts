import type { Currency, Language } from '#core/preferences/preferences.ts'

/** Yen per one unit is how staff think of rates: 1 JPY = rate × foreign currency. */
export type YenRates = Record<Exclude<Currency, 'JPY'>, number>

// The spec shows every converted amount with two decimals, CLP included; yen has no minor unit.
const FRACTION_DIGITS: Record<Currency, number> = { JPY: 0, USD: 2, MXN: 2, CLP: 2 }

// Intl locale per UI language. Plain `es` keeps Spanish conventions neutral across Spain and
// Latin America.
const INTL_LOCALE: Record<Language, string> = { es: 'es', en: 'en' }

/**
 * Each currency is written the way the people who pay in it write it (ADR 013): dollars as in the
 * USA, pesos as in Mexico and Chile. Yen, which every visitor reads, follows the page's language.
 */
const CURRENCY_LOCALE: Record<Exclude<Currency, 'JPY'>, string> = {
  USD: 'en-US',
  MXN: 'es-MX',
  CLP: 'es-CL',
}

export function intlLocale(language: Language): string {
  return INTL_LOCALE[language]
}

/** The Intl locale an amount of `currency` is written in on a page in `language`. */
export function moneyLocale(currency: Currency, language: Language): string {
  return currency === 'JPY' ? intlLocale(language) : CURRENCY_LOCALE[currency]
}

/** Converts a yen amount into `currency`. Exact arithmetic is left to display rounding. */
export function convertFromYen(amountJpy: number, currency: Currency, rates: YenRates): number {
  if (currency === 'JPY') return amountJpy
  return amountJpy * rates[currency]
}

export function formatMoney(amount: number, currency: Currency, language: Language): string {
  const digits = FRACTION_DIGITS[currency]
  return new Intl.NumberFormat(moneyLocale(currency, language), {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    // Spanish CLDR data leaves four-digit amounts ungrouped ("1500" beside "36.000"): group all.
    useGrouping: 'always',
  }).format(amount)
}

export function formatPercent(rate: number, language: Language): string {
  return new Intl.NumberFormat(intlLocale(language), { style: 'percent', maximumFractionDigits: 2 }).format(
    rate,
  )
}

export function formatNumber(value: number, language: Language): string {
  return new Intl.NumberFormat(intlLocale(language), { useGrouping: 'always' }).format(value)
}

/**
 * An amount a payment provider reported, in whatever currency it names (ISO 4217): written once
 * with its currency ("JPY 18,719", "USD 12.50"), never the amount and its code twice. A code
 * Intl does not know is written after the number.
 */
export function formatReportedAmount(amount: number, currency: string, language: Language): string {
  if (currency === 'JPY' || currency === 'USD' || currency === 'MXN' || currency === 'CLP')
    return formatMoney(amount, currency, language)
  try {
    return new Intl.NumberFormat(intlLocale(language), {
      style: 'currency',
      currency,
      currencyDisplay: 'code',
      useGrouping: 'always',
    }).format(amount)
  } catch {
    return `${formatNumber(amount, language)} ${currency}`
  }
}
