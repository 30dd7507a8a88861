import { describe, expect, test } from 'vitest'
import { japanDayNumber, STORAGE_WARNING_DAYS, storageCountdown } from './storage.ts'

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
})
