import { describe, expect, test } from 'vitest'
import { isAppError } from '#core/shared/errors.ts'
import { buckets, japanDay, parsePeriod } from './period.ts'

// Periods in Japan time: a preset or custom days; the instants they cover; their buckets.

// 2026-11-30 20:00 UTC is already 1 December in Japan.
const NOW = new Date('2026-11-30T20:00:00Z')

const reason = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (isAppError(error)) return `${error.code}:${error.details.reason}`
    throw error
  }
  return 'accepted'
}

describe('presets, from the Japan day', () => {
  test('today in Japan', () => expect(japanDay(NOW)).toBe('2026-12-01'))
  test.each([
    [undefined, 'this_month', '2026-12-01', '2026-12-01', 'day'],
    ['this_month', 'this_month', '2026-12-01', '2026-12-01', 'day'],
    ['last_month', 'last_month', '2026-11-01', '2026-11-30', 'day'],
    ['last_30_days', 'last_30_days', '2026-11-02', '2026-12-01', 'day'],
    ['this_year', 'this_year', '2026-01-01', '2026-12-01', 'month'],
    ['last_year', 'last_year', '2025-01-01', '2025-12-31', 'month'],
    ['nonsense', 'this_month', '2026-12-01', '2026-12-01', 'day'],
  ])('%s → %s %s..%s by %s', (preset, name, fromDay, toDay, bucket) => {
    expect(parsePeriod({ preset }, NOW)).toMatchObject({ preset: name, fromDay, toDay, bucket })
  })
  test('last month in January is December of the year before', () => {
    expect(parsePeriod({ preset: 'last_month' }, new Date('2027-01-15T00:00:00Z'))).toMatchObject({
      fromDay: '2026-12-01',
      toDay: '2026-12-31',
    })
  })
  test('the instants are Japan midnights, the last day included', () => {
    const period = parsePeriod({ preset: 'custom', from: '2026-03-01', to: '2026-03-31' }, NOW)
    expect(period.from.toISOString()).toBe('2026-02-28T15:00:00.000Z')
    expect(period.to.toISOString()).toBe('2026-03-31T15:00:00.000Z')
  })
})

describe('custom periods', () => {
  test('a preset sent with the dates it showed is that preset; with dates changed by hand, custom', () => {
    expect(parsePeriod({ preset: 'this_month', from: '2026-12-01', to: '2026-12-01' }, NOW)).toMatchObject({
      preset: 'this_month',
    })
    expect(parsePeriod({ preset: 'this_month', from: '2026-06-01', to: '2026-12-01' }, NOW)).toMatchObject({
      preset: 'custom',
      fromDay: '2026-06-01',
      toDay: '2026-12-01',
    })
    expect(() => parsePeriod({ preset: 'last_year', from: '2025-01-01', to: 'soon' }, NOW)).toThrow()
  })
  test('the form: another preset chosen over the dates shown is that preset; a date edited wins', () => {
    const shown = { shownFrom: '2026-12-01', shownTo: '2026-12-15' }
    expect(
      parsePeriod({ preset: 'last_year', from: '2026-12-01', to: '2026-12-15', ...shown }, NOW),
    ).toMatchObject({ preset: 'last_year', fromDay: '2025-01-01', toDay: '2025-12-31' })
    expect(
      parsePeriod({ preset: 'last_year', from: '2026-12-01', to: '2026-12-10', ...shown }, NOW),
    ).toMatchObject({ preset: 'custom', fromDay: '2026-12-01', toDay: '2026-12-10' })
    expect(
      parsePeriod({ preset: 'this_month', from: '2026-11-01', to: '2026-12-15', ...shown }, NOW),
    ).toMatchObject({ preset: 'custom', fromDay: '2026-11-01', toDay: '2026-12-15' })
  })
  test('dates alone mean custom', () => {
    expect(parsePeriod({ from: '2024-02-28', to: '2024-03-01' }, NOW)).toMatchObject({
      preset: 'custom',
      bucket: 'day',
    })
  })
  test.each([
    ['2026-02-30', '2026-03-01'],
    ['2026-13-01', '2026-12-31'],
    ['yesterday', '2026-01-01'],
    ['', '2026-01-01'],
    ['2026-05-02', '2026-05-01'],
    ["2026-01-01'; drop table users; --", '2026-01-02'],
  ])('%s..%s is refused', (from, to) => {
    expect(reason(() => parsePeriod({ preset: 'custom', from, to }, NOW))).toBe('invalid:periodInvalid')
  })
  test('five years fit; more do not', () => {
    expect(reason(() => parsePeriod({ preset: 'custom', from: '2021-01-01', to: '2025-12-31' }, NOW))).toBe(
      'accepted',
    )
    expect(reason(() => parsePeriod({ preset: 'custom', from: '2019-01-01', to: '2025-12-31' }, NOW))).toBe(
      'invalid:periodTooLong',
    )
  })
})

test('buckets: every day, or every month, of the period', () => {
  expect(buckets({ fromDay: '2026-02-27', toDay: '2026-03-02', bucket: 'day' })).toEqual([
    '2026-02-27',
    '2026-02-28',
    '2026-03-01',
    '2026-03-02',
  ])
  expect(buckets({ fromDay: '2025-11-15', toDay: '2026-02-03', bucket: 'month' })).toEqual([
    '2025-11',
    '2025-12',
    '2026-01',
    '2026-02',
  ])
})
