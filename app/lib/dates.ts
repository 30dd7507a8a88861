import { intlLocale } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'

/**
 * Dates of orders, written out on the server in Japan time (where the service works), so the
 * server and the browser never disagree and staff and customers read the same clock; pages say so.
 */
export function japanDateTime(language: Language) {
  const format = new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Asia/Tokyo',
  })
  return (date: Date) => format.format(date)
}
