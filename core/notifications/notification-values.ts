import { countryName } from '#core/customers/countries.ts'
import { formatMoney, formatReportedAmount, intlLocale } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { BUSINESS_TIME_ZONE } from '#core/shared/business-time.ts'
import type { NotificationParams } from './notify.ts'

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/**
 * The texts of a notification's params as the reader writes them: a param whose name ends in
 * `Jpy` is an amount of yen (`JPY 12,345`, `12.345 JPY`… per language), one whose name ends in
 * `Date` an ISO timestamp written as a date and time in Japan time (the texts say so), one ending
 * in `Day` a Japan calendar day (`2026-04-29`) written as a date, `country` (an ISO code) the
 * country's name, the rest as given (a text may translate a code itself: `$t(…{{method}})`).
 * Params are stored once and read in any language: the same for the e-mail
 * (server/order-emails.ts) and the in-app list (the notifications tab).
 */
export function notificationValues(params: NotificationParams, language: Language): Record<string, string> {
  const dateTime = new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: BUSINESS_TIME_ZONE,
  })
  // A calendar day (`YYYY-MM-DD`, already a Japan date): written as it is, whatever the zone.
  const day = new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'long', timeZone: 'UTC' })
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      if (name.endsWith('Jpy') && typeof value === 'number')
        return [name, formatMoney(value, 'JPY', language)]
      // A provider's reported amount, with the currency it named: written once, with its code.
      if (name === 'amount' && typeof value === 'number' && typeof params.currency === 'string')
        return [name, formatReportedAmount(value, params.currency, language)]
      if (name.endsWith('Date') && typeof value === 'string' && ISO_TIMESTAMP.test(value)) {
        return [name, dateTime.format(new Date(value))]
      }
      if (name === 'country' && typeof value === 'string' && /^[A-Z]{2}$/.test(value)) {
        return [name, countryName(value, language)]
      }
      if (name.endsWith('Day') && typeof value === 'string' && ISO_DAY.test(value)) {
        return [name, day.format(new Date(`${value}T00:00:00Z`))]
      }
      return [name, String(value)]
    }),
  )
}
