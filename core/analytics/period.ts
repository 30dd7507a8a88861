import { AppError } from '#core/shared/errors.ts'

/**
 * The analytics' periods (docs/decisions/025-admin-analytics.md): presets or custom first and last
 * days, in Japan time, and their buckets. Pure (no database), so the analytics page's form can use
 * them in the browser; the figures themselves are read by core/analytics/analytics.ts.
 */

export const ANALYTICS_PRESETS = [
  'this_month',
  'last_month',
  'last_30_days',
  'this_year',
  'last_year',
  'custom',
] as const
export type AnalyticsPreset = (typeof ANALYTICS_PRESETS)[number]

/** The longest custom period: five years of days. */
export const MAX_PERIOD_DAYS = 5 * 366

const JAPAN_OFFSET_MS = 9 * 3_600_000
const DAY_MS = 86_400_000
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** A Japan calendar day as `YYYY-MM-DD`, from an instant. */
export function japanDay(at: Date): string {
  return new Date(at.getTime() + JAPAN_OFFSET_MS).toISOString().slice(0, 10)
}

/** The instant a Japan calendar day starts (Japan has no daylight saving time). */
function japanMidnight(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - JAPAN_OFFSET_MS)
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

function validDay(value: string): boolean {
  if (!ISO_DATE.test(value)) return false
  const parsed = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value
}

export type Period = {
  preset: AnalyticsPreset
  /** First and last Japan day, inclusive. */
  fromDay: string
  toDay: string
  /** The instants: [from, to). */
  from: Date
  to: Date
  /** How the series is bucketed: days up to two months, months beyond. */
  bucket: 'day' | 'month'
}

/** What `parsePeriod` reads from an address: `preset`, `from`, `to`, `shown_from`, `shown_to`. */
export function periodInput(search: URLSearchParams) {
  return {
    preset: search.get('preset'),
    from: search.get('from'),
    to: search.get('to'),
    shownFrom: search.get('shown_from'),
    shownTo: search.get('shown_to'),
  }
}

/**
 * The period a URL asks for: a preset (this month by default), or custom first and last days.
 * @throws AppError `invalid` (`periodInvalid`: a date that is not one, first after last;
 *   `periodTooLong`: over five years).
 */
export function parsePeriod(
  input: {
    preset?: string | null
    from?: string | null
    to?: string | null
    /** The dates the form showed before the reader touched it (hidden fields). */
    shownFrom?: string | null
    shownTo?: string | null
  },
  now: Date = new Date(),
): Period {
  const today = japanDay(now)
  const [year, month] = today.split('-').map(Number) as [number, number]
  const pad = (value: number) => String(value).padStart(2, '0')
  const monthStart = (y: number, m: number) => `${y}-${pad(m)}-01`
  const preset: AnalyticsPreset = ANALYTICS_PRESETS.includes(input.preset as AnalyticsPreset)
    ? (input.preset as AnalyticsPreset)
    : input.from || input.to
      ? 'custom'
      : 'this_month'
  let fromDay: string
  let toDay: string
  switch (preset) {
    case 'this_month':
      ;[fromDay, toDay] = [monthStart(year, month), today]
      break
    case 'last_month': {
      const [y, m] = month === 1 ? [year - 1, 12] : [year, month - 1]
      ;[fromDay, toDay] = [monthStart(y, m), addDays(monthStart(year, month), -1)]
      break
    }
    case 'last_30_days':
      ;[fromDay, toDay] = [addDays(today, -29), today]
      break
    case 'this_year':
      ;[fromDay, toDay] = [`${year}-01-01`, today]
      break
    case 'last_year':
      ;[fromDay, toDay] = [`${year - 1}-01-01`, `${year - 1}-12-31`]
      break
    default: {
      const from = (input.from ?? '').trim()
      const to = (input.to ?? '').trim()
      if (!validDay(from) || !validDay(to) || from > to) {
        throw new AppError('invalid', `Bad period ${from.slice(0, 20)}..${to.slice(0, 20)}`, {
          reason: 'periodInvalid',
        })
      }
      if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_PERIOD_DAYS) {
        throw new AppError('invalid', `Period ${from}..${to} too long`, { reason: 'periodTooLong' })
      }
      ;[fromDay, toDay] = [from, to]
    }
  }
  // The form sends the preset, the dates and, hidden, the dates it showed: a date changed by hand
  // wins over the preset. Without the hidden ones (a hand-made address), a date is changed when it
  // is not the preset's own.
  const edited = (sent: string | null | undefined, shown: string | null | undefined, own: string) => {
    const value = sent?.trim()
    return Boolean(value) && value !== (shown?.trim() || own)
  }
  const editedFrom = edited(input.from, input.shownFrom, fromDay)
  const editedTo = edited(input.to, input.shownTo, toDay)
  if (preset !== 'custom' && (editedFrom || editedTo)) {
    return parsePeriod({ preset: 'custom', from: input.from ?? fromDay, to: input.to ?? toDay }, now)
  }
  const days = (Date.parse(toDay) - Date.parse(fromDay)) / DAY_MS + 1
  return {
    preset,
    fromDay,
    toDay,
    from: japanMidnight(fromDay),
    to: japanMidnight(addDays(toDay, 1)),
    bucket: days <= 62 ? 'day' : 'month',
  }
}

/** Every bucket of the period, in order: its Japan days, or its months. */
export function buckets(period: Pick<Period, 'fromDay' | 'toDay' | 'bucket'>): string[] {
  const out: string[] = []
  if (period.bucket === 'day') {
    for (let day = period.fromDay; day <= period.toDay; day = addDays(day, 1)) out.push(day)
    return out
  }
  let [year, month] = period.fromDay.split('-').map(Number) as [number, number]
  const last = period.toDay.slice(0, 7)
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`
    if (key > last) break
    out.push(key)
    if (month === 12) {
      year += 1
      month = 1
    } else month += 1
  }
  return out
}
