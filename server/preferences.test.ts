import { expect, test } from 'vitest'
import { parseCookies } from './preferences.ts'

test('cookies are parsed by name, the first occurrence winning', () => {
  const cookies = parseCookies('lang=en; currency=USD; lang=es; broken; =x')
  expect(cookies.get('lang')).toBe('en')
  expect(cookies.get('currency')).toBe('USD')
  expect(cookies.size).toBe(2)
  expect(parseCookies(undefined).size).toBe(0)
})
