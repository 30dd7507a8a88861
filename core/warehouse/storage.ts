import { BUSINESS_TIME_ZONE } from '#core/shared/business-time.ts'

/**
 * Free storage at the Osaka office (spec section 4): it runs from an item's arrival for the
 * free-storage-days setting, counted in Japan calendar days (an item booked at 23:50 and one at
 * 00:10 the next day differ by one day, as the office's calendar does). Pure.
 */

/** Below this many days left, the customer's list makes an item stand out. */
export const STORAGE_WARNING_DAYS = 7

const japanDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})

/** Whole days since 1970-01-01 of the date this instant has in Japan. */
export function japanDayNumber(at: Date): number {
  const [year, month, day] = japanDay.format(at).split('-').map(Number)
  return Math.round(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1) / 86_400_000)
}

export type StorageCountdown = {
  /** Days of free storage left today (0 on the last free day's end, negative once over). */
  daysLeft: number
  /** The last free day, as `YYYY-MM-DD` in Japan. */
  freeUntil: string
  /** Fewer than `STORAGE_WARNING_DAYS` left (over included). */
  endingSoon: boolean
  expired: boolean
}

/**
 * Where an item's free storage stands on `now`: it arrived on day A (Japan), its free days are
 * A … A + freeDays − 1, so on day A it has `freeDays` days left and on A + freeDays none. Days
 * spent waiting in a shipment request do not count: `reservedAt` (waiting now) stops the clock
 * at that day, `pausedDays` (earlier requests, since cancelled) are given back.
 */

/** Whole Japan days from `from` to `to` (a reservation's pause when it is released). */
export function japanDaysBetween(from: Date, to: Date): number {
  return Math.max(0, japanDayNumber(to) - japanDayNumber(from))
}
export function storageCountdown(
  receivedAt: Date,
  now: Date,
  freeDays: number,
  pause: { reservedAt?: Date | null; pausedDays?: number } = {},
): StorageCountdown {
  const arrived = japanDayNumber(receivedAt)
  const paused = pause.pausedDays ?? 0
  // While the item waits in a shipment request the clock stands at the day it was reserved.
  const today = japanDayNumber(pause.reservedAt ?? now)
  const daysLeft = arrived + freeDays + paused - today
  // The last free day as of today; a paused item's moves on by each day it stays paused.
  const lastFreeDay =
    arrived + Math.max(freeDays, 1) - 1 + paused + (pause.reservedAt ? japanDayNumber(now) - today : 0)
  const lastFree = new Date(lastFreeDay * 86_400_000).toISOString().slice(0, 10)
  return {
    daysLeft,
    freeUntil: lastFree,
    endingSoon: daysLeft < STORAGE_WARNING_DAYS,
    expired: daysLeft <= 0,
  }
}

/**
 * Days of storage an item pays: each Japan day from the first day after its free period (the day
 * `storage_ended` says "from today") until it waited in a shipment request (its clock stops
 * there), or today. Zero while it is within its free days.
 */
export function storageFeeDays(
  receivedAt: Date,
  now: Date,
  freeDays: number,
  pause: { reservedAt?: Date | null; pausedDays?: number } = {},
): number {
  const { daysLeft } = storageCountdown(receivedAt, now, freeDays, pause)
  return daysLeft <= 0 ? 1 - daysLeft : 0
}

/**
 * What one item's storage costs on `now` (before tax): the days it pays (`storageFeeDays`) at the
 * daily fee in force. An item not received yet pays nothing.
 */
export function storageFeeOf(
  item: { receivedAt: Date | null; reservedAt?: Date | null; pausedDays?: number },
  now: Date,
  settings: { freeStorageDays: number; storageFeePerDayJpy: number },
): { days: number; feePerDayJpy: number; feeJpy: number } {
  const days = item.receivedAt
    ? storageFeeDays(item.receivedAt, now, settings.freeStorageDays, {
        reservedAt: item.reservedAt ?? null,
        pausedDays: item.pausedDays ?? 0,
      })
    : 0
  const feePerDayJpy = settings.storageFeePerDayJpy
  return { days, feePerDayJpy, feeJpy: days * feePerDayJpy }
}
