import { intlLocale } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { BUSINESS_TIME_ZONE } from '#core/shared/business-time.ts'

/**
 * A moment as staff read it: date and time in Japan, in the page's language. Written out on the
 * server (in loaders), so server and browser never disagree.
 */
export function japanTimeFormatter(language: Language): (moment: Date) => string {
  const format = new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: BUSINESS_TIME_ZONE,
  })
  return (moment) => format.format(moment)
}
