import { BUSINESS_TIME_ZONE } from '#core/jobs/job-queue.ts'
import { formatMoney, intlLocale } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import type { NotificationParams } from './notify.ts'

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/**
 * The texts of a notification's params as the reader writes them: a param whose name ends in
 * `Jpy` is an amount of yen (`JPY 12,345`, `12.345 JPY`… per language), one whose name ends in
 * `Date` an ISO timestamp written as a date and time in Japan time (the texts say so), the rest
 * as given. Params are stored once and read in any language: the same for the e-mail
 * (server/order-emails.ts) and the in-app list (the notifications tab).
 */
export function notificationValues(params: NotificationParams, language: Language): Record<string, string> {
  const dateTime = new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: BUSINESS_TIME_ZONE,
  })
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      if (name.endsWith('Jpy') && typeof value === 'number')
        return [name, formatMoney(value, 'JPY', language)]
      if (name.endsWith('Date') && typeof value === 'string' && ISO_TIMESTAMP.test(value)) {
        return [name, dateTime.format(new Date(value))]
      }
      return [name, String(value)]
    }),
  )
}
