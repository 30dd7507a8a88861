import { expect, test } from 'vitest'
import { parseCurrency, parseLanguage, resolvePreferences } from './preferences.ts'

test('a visitor with no cookie and no query gets Spanish and yen', () => {
  expect(resolvePreferences({ query: {}, cookies: {} })).toEqual({
    language: 'es',
    currency: 'JPY',
    changed: {},
  })
})

test('the query wins over the cookie and is reported as a change to persist', () => {
  const resolved = resolvePreferences({
    query: { language: 'en', currency: 'usd' },
    cookies: { language: 'es', currency: 'JPY' },
  })
  expect(resolved).toEqual({ language: 'en', currency: 'USD', changed: { language: 'en', currency: 'USD' } })
})

test('a query equal to the cookie is not a change', () => {
  const resolved = resolvePreferences({ query: { language: 'en' }, cookies: { language: 'en' } })
  expect(resolved.changed).toEqual({})
})

test('unknown or hostile values fall back instead of failing', () => {
  const resolved = resolvePreferences({
    query: { language: '<script>', currency: 'EUR' },
    cookies: { language: 'fr', currency: '' },
  })
  expect(resolved).toEqual({ language: 'es', currency: 'JPY', changed: {} })
})

test('parsers accept case and whitespace variations only of supported values', () => {
  expect(parseLanguage(' EN ')).toBe('en')
  expect(parseLanguage('en-US')).toBeNull()
  expect(parseLanguage(null)).toBeNull()
  expect(parseCurrency('mxn')).toBe('MXN')
  expect(parseCurrency('JPY;drop table')).toBeNull()
})
