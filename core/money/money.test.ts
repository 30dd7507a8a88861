import { expect, test } from 'vitest'
import { convertFromYen, formatMoney, formatPercent } from './money.ts'

const rates = { USD: 0.0068, MXN: 0.13, CLP: 6.54 }

test('converts yen with the configured rates', () => {
  expect(convertFromYen(500, 'JPY', rates)).toBe(500)
  expect(convertFromYen(500, 'USD', rates)).toBeCloseTo(3.4)
  expect(convertFromYen(500, 'MXN', rates)).toBeCloseTo(65)
  expect(convertFromYen(500, 'CLP', rates)).toBeCloseTo(3270)
})

test('yen has no decimals; every other currency shows two, CLP included', () => {
  // Intl separates the code with a no-break space.
  expect(formatMoney(1234, 'JPY', 'en')).toBe('JPY\u00a01,234')
  expect(formatMoney(3.4, 'USD', 'en')).toBe('USD\u00a03.40')
  expect(formatMoney(3270, 'CLP', 'en')).toBe('CLP\u00a03,270.00')
})

test('money and percentages follow the language conventions', () => {
  expect(formatMoney(12345.5, 'MXN', 'es')).toMatch(/^12\.345,50\sMXN$/)
  expect(formatPercent(0.1, 'es')).toMatch(/^10\s%$/)
  expect(formatPercent(0.1, 'en')).toBe('10%')
})
