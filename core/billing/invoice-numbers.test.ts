import { expect, test } from 'vitest'
import { formatInvoiceNumber, japanYear } from './invoice-service.ts'

test('invoice numbers: the Japan year and six digits', () => {
  expect(formatInvoiceNumber(2026, 123)).toBe('2026-000123')
  expect(formatInvoiceNumber(2026, 1)).toBe('2026-000001')
  expect(formatInvoiceNumber(2027, 1_234_567)).toBe('2027-1234567')
})

test('the year is Japan’s: 15:00 UTC on 31 December is already the next year there', () => {
  expect(japanYear(new Date('2026-12-31T14:59:59Z'))).toBe(2026)
  expect(japanYear(new Date('2026-12-31T15:00:00Z'))).toBe(2027)
  expect(japanYear(new Date('2027-01-01T00:00:00+09:00'))).toBe(2027)
})
