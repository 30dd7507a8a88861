import { expect, test } from 'vitest'
import { convertFromYen, formatMoney, formatNumber, formatPercent, moneyLocale } from './money.ts'

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
  expect(formatMoney(3270, 'CLP', 'en')).toBe('CLP\u00a03.270,00')
})

test('each currency is written as the people who pay in it write it, whatever the page language', () => {
  for (const language of ['es', 'en'] as const) {
    expect(formatMoney(1015.3, 'USD', language)).toBe('USD\u00a01,015.30')
    expect(formatMoney(1015.3, 'MXN', language)).toBe('MXN\u00a01,015.30')
    expect(formatMoney(12345.5, 'MXN', language)).toBe('MXN\u00a012,345.50')
    expect(formatMoney(10791, 'CLP', language)).toBe('CLP\u00a010.791,00')
  }
  expect(moneyLocale('USD', 'es')).toBe('en-US')
  expect(moneyLocale('MXN', 'en')).toBe('es-MX')
  expect(moneyLocale('CLP', 'en')).toBe('es-CL')
  expect(moneyLocale('JPY', 'es')).toBe('es')
})

test('yen follows the page language, and four-digit amounts group like five-digit ones', () => {
  expect(formatMoney(1500, 'JPY', 'es')).toBe('1.500\u00a0JPY')
  expect(formatMoney(36000, 'JPY', 'es')).toBe('36.000\u00a0JPY')
  expect(formatMoney(1500, 'JPY', 'en')).toBe('JPY\u00a01,500')
  expect(formatMoney(36000, 'JPY', 'en')).toBe('JPY\u00a036,000')
  expect(formatMoney(999, 'JPY', 'es')).toBe('999\u00a0JPY')
  expect(formatMoney(1500, 'CLP', 'es')).toBe('CLP\u00a01.500,00')
  expect(formatNumber(1500, 'es')).toBe('1.500')
  expect(formatNumber(1500, 'en')).toBe('1,500')
})

test('percentages follow the language conventions', () => {
  expect(formatPercent(0.1, 'es')).toMatch(/^10\s%$/)
  expect(formatPercent(0.1, 'en')).toBe('10%')
})
