import { intlLocale } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'

/**
 * A moment as staff read it: date and time in Japan, in the page's language. Written out on the
 * server (in loaders), so server and browser never disagree.
 */
// The business's time zone (core/jobs/job-queue.ts's BUSINESS_TIME_ZONE, not imported here: that
// module brings the job queue with it).
const JAPAN = 'Asia/Tokyo'

export function japanTimeFormatter(language: Language): (moment: Date) => string {
  const format = new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: JAPAN,
  })
  return (moment) => format.format(moment)
}
