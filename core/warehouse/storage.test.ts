import { describe, expect, test } from 'vitest'
import {
  japanDayNumber,
  japanDaysBetween,
  STORAGE_WARNING_DAYS,
  storageCountdown,
  storageFeeOf,
} from './storage.ts'

describe('free storage counted in Japan days', () => {
  // 2026-03-01 00:10 in Japan is 2026-02-28 15:10 UTC.
  const arrived = new Date('2026-02-28T15:10:00Z')

  test('the arrival day has every free day left; the last free day has one', () => {
    expect(storageCountdown(arrived, arrived, 30)).toMatchObject({
      daysLeft: 30,
      freeUntil: '2026-03-30',
      expired: false,
    })
    expect(storageCountdown(arrived, new Date('2026-03-30T14:59:00Z'), 30)).toMatchObject({
      daysLeft: 1,
      expired: false,
    })
    expect(storageCountdown(arrived, new Date('2026-03-30T15:00:00Z'), 30)).toMatchObject({
      daysLeft: 0,
      expired: true,
    })
    expect(storageCountdown(arrived, new Date('2026-04-09T03:00:00Z'), 30).daysLeft).toBe(-9)
  })

  test('the day changes at midnight in Japan, not in UTC', () => {
    const lateEvening = new Date('2026-03-01T14:50:00Z') // 23:50 on 1 March in Japan
    const afterMidnight = new Date('2026-03-01T15:10:00Z') // 00:10 on 2 March in Japan
    expect(japanDayNumber(afterMidnight) - japanDayNumber(lateEvening)).toBe(1)
    expect(storageCountdown(lateEvening, afterMidnight, 30).daysLeft).toBe(29)
  })

  test(`an item stands out below ${STORAGE_WARNING_DAYS} days left`, () => {
    const day = (n: number) => new Date(arrived.getTime() + n * 86_400_000)
    expect(storageCountdown(arrived, day(23), 30)).toMatchObject({ daysLeft: 7, endingSoon: false })
    expect(storageCountdown(arrived, day(24), 30)).toMatchObject({ daysLeft: 6, endingSoon: true })
  })

  test('no free days: over on the day it arrives', () => {
    expect(storageCountdown(arrived, arrived, 0)).toMatchObject({
      daysLeft: 0,
      expired: true,
      endingSoon: true,
    })
  })

  test('waiting in a shipment request pauses the count; a cancelled request gives the days back', () => {
    const reserved = new Date(arrived.getTime() + 10 * 86_400_000)
    const later = new Date(arrived.getTime() + 40 * 86_400_000)
    // Reserved on day 10 with 20 left: 40 days on, still 20 left, and the last free day moved on.
    expect(storageCountdown(arrived, later, 30, { reservedAt: reserved })).toMatchObject({
      daysLeft: 20,
      expired: false,
      freeUntil: '2026-04-29',
    })
    // Released on day 40 after 30 paused days: 30 given back, 20 days left again.
    const paused = japanDaysBetween(reserved, later)
    expect(paused).toBe(30)
    expect(storageCountdown(arrived, later, 30, { pausedDays: paused }).daysLeft).toBe(20)
  })
})

describe('the storage fee an item has run up (docs/decisions/037)', () => {
  const arrived = new Date('2026-02-28T15:10:00Z') // 1 March in Japan
  const settings = { freeStorageDays: 30, storageFeePerDayJpy: 100 }
  const day = (n: number) => new Date(arrived.getTime() + n * 86_400_000)

  test('nothing within the free days; from the first day after them, one day’s fee each day', () => {
    expect(storageFeeOf({ receivedAt: arrived }, day(29), settings)).toEqual({
      days: 0,
      feePerDayJpy: 100,
      feeJpy: 0,
    })
    expect(storageFeeOf({ receivedAt: arrived }, day(30), settings)).toMatchObject({ days: 1, feeJpy: 100 })
    expect(storageFeeOf({ receivedAt: arrived }, day(40), settings)).toMatchObject({ days: 11, feeJpy: 1100 })
  })

  test('the fee stops growing while the item waits in a shipment request; not received: nothing', () => {
    expect(storageFeeOf({ receivedAt: arrived, reservedAt: day(35) }, day(60), settings)).toMatchObject({
      days: 6,
      feeJpy: 600,
    })
    expect(storageFeeOf({ receivedAt: null }, day(60), settings)).toMatchObject({ days: 0, feeJpy: 0 })
  })
})
