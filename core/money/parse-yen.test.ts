import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseGrams, parseWholeNumber, parseYen } from './parse-yen.ts'

describe('parseYen accepts the common ways of writing a whole yen amount', () => {
  test.each([
    ['2500', 2500],
    ['2,500', 2500],
    ['2.500', 2500],
    ['2 500', 2500],
    ['2\u00a0500', 2500],
    ['2\u202f500', 2500],
    ["2'500", 2500],
    ['2_500', 2500],
    ['¥2,500', 2500],
    ['¥ 2.500', 2500],
    ['￥2,500', 2500],
    ['2,500円', 2500],
    ['2.500 円', 2500],
    ['¥2,500円', 2500],
    ['JPY 2500', 2500],
    ['jpy2,500', 2500],
    ['2500 JPY', 2500],
    ['2.500 yenes', 2500],
    ['2500 yen', 2500],
    [' 2500 ', 2500],
    ['\t2500\n', 2500],
    ['２５００', 2500],
    ['２，５００円', 2500],
    ['￥１２，８００', 12800],
    ['1.234.567', 1234567],
    ['1,234,567', 1234567],
    ['1 234 567', 1234567],
    ['2.500,00', 2500],
    ['2,500.00', 2500],
    ['2500.00', 2500],
    ['999', 999],
    ['0', 0],
    ['007', 7],
    ['+2500', 2500],
  ])('%j is %d', (input, value) => {
    expect(parseYen(input)).toEqual({ ok: true, value })
  })
})

describe('parseYen refuses, saying why', () => {
  test.each([
    // Decimals: a separator followed by anything but three digits is a decimal mark.
    ['2500.50', 'notWhole'],
    ['2,5', 'notWhole'],
    ['2.50', 'notWhole'],
    ['1,5', 'notWhole'],
    ['12.5', 'notWhole'],
    ['.5', 'notWhole'],
    ['0.500', 'notWhole'],
    ['0,500', 'notWhole'],
    ['2.500,50', 'notWhole'],
    ['2,500.50', 'notWhole'],
    ['1.234,567', 'notWhole'],
    ['1,2345', 'notWhole'],
    // Separators that no reading makes sense of.
    ['1,2,3', 'separators'],
    ['25 00', 'separators'],
    ['2.500.50', 'separators'],
    ['1,234,56', 'separators'],
    ['12,34,567', 'separators'],
    ['2500.', 'separators'],
    ['1.234.567,89.5', 'separators'],
    // Negative.
    ['-5', 'negative'],
    ['-2,500', 'negative'],
    ['−2500', 'negative'],
    ['¥-2500', 'negative'],
    ['-2.5', 'negative'],
    // Not a number at all.
    ['abc', 'notNumber'],
    ['NaN', 'notNumber'],
    ['Infinity', 'notNumber'],
    ['1e3', 'notNumber'],
    ['0x10', 'notNumber'],
    ['--1', 'notNumber'],
    ['1-1', 'notNumber'],
    ['$2500', 'notNumber'],
    ['2500 USD', 'notNumber'],
    ['¥', 'notNumber'],
    ['.', 'notNumber'],
    ['<script>alert(1)</script>', 'notNumber'],
    // Empty.
    ['', 'required'],
    ['   ', 'required'],
    // Too large to be meant.
    ['1234567890123456', 'tooLarge'],
  ])('%j is %s', (input, error) => {
    expect(parseYen(input)).toEqual({ ok: false, error })
  })

  test('null and undefined are empty', () => {
    expect(parseYen(null)).toEqual({ ok: false, error: 'required' })
    expect(parseYen(undefined)).toEqual({ ok: false, error: 'required' })
  })
})

test('grams take their own units, not yen', () => {
  expect(parseGrams('1.500 g')).toEqual({ ok: true, value: 1500 })
  expect(parseGrams('1,500g')).toEqual({ ok: true, value: 1500 })
  expect(parseGrams('500 gramos')).toEqual({ ok: true, value: 500 })
  expect(parseGrams('１５００ｇ')).toEqual({ ok: true, value: 1500 })
  expect(parseGrams('1,5 kg')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseGrams('500円')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseGrams('600.5')).toEqual({ ok: false, error: 'notWhole' })
  expect(parseWholeNumber('¥3', [])).toEqual({ ok: false, error: 'notNumber' })
})

const amount = fc.integer({ min: 0, max: 999_999_999_999 })

function grouped(value: number, separator: string): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, separator)
}

test('property: any whole amount, grouped with any separator and marked any way, reads back', () => {
  fc.assert(
    fc.property(
      amount,
      fc.constantFrom('', ',', '.', ' ', '\u00a0', '\u202f', "'", '_'),
      fc.constantFrom(['', ''], ['¥', ''], ['￥', ''], ['', '円'], ['JPY ', ''], ['', ' JPY'], ['¥', '円']),
      fc.boolean(),
      (value, separator, [before, after], fullWidth) => {
        let text = `${before}${grouped(value, separator)}${after}`
        if (fullWidth) text = text.replace(/[0-9,.]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))
        expect(parseYen(text)).toEqual({ ok: true, value })
      },
    ),
  )
})

test('property: one or two decimals that are not zero are always refused as not whole', () => {
  fc.assert(
    fc.property(
      amount,
      fc.integer({ min: 1, max: 99 }),
      fc.constantFrom(['.', ','], [',', '.'], [' ', ','], ['', '.'], ['', ',']),
      (value, cents, [group, mark]) => {
        const fraction = cents % 10 === 0 ? String(cents / 10) : String(cents).padStart(2, '0')
        expect(parseYen(`${grouped(value, group)}${mark}${fraction}`)).toEqual({
          ok: false,
          error: 'notWhole',
        })
      },
    ),
  )
})

test('property: a leading minus sign is refused as negative', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 999_999_999 }),
      fc.constantFrom('', ',', '.'),
      (value, separator) => {
        expect(parseYen(`-${grouped(value, separator)}`)).toEqual({ ok: false, error: 'negative' })
      },
    ),
  )
})
