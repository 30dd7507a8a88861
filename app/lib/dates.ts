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

/** A Japan calendar day (`YYYY-MM-DD`, as core/warehouse/storage.ts gives it), written as a date. */
export function japanDay(language: Language) {
  const format = new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'long', timeZone: 'UTC' })
  return (day: string) => format.format(new Date(`${day}T00:00:00Z`))
}

/** A weight in whole grams as the reader writes it: "1.250 g", "1,250 g". */
export function formatGrams(grams: number, language: Language): string {
  return new Intl.NumberFormat(intlLocale(language), { style: 'unit', unit: 'gram' }).format(grams)
}
