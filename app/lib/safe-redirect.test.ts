import { expect, test } from 'vitest'
import { safeRedirect } from './safe-redirect.ts'

test('a path on this site comes back as it is, with its query and fragment', () => {
  expect(safeRedirect('/account/security')).toBe('/account/security')
  expect(safeRedirect('/services?lang=en&currency=USD#rates')).toBe('/services?lang=en&currency=USD#rates')
  expect(safeRedirect('/a/../b')).toBe('/b')
  expect(safeRedirect('/%2F%2Fevil')).toBe('/%2F%2Fevil')
  // Non-ASCII is percent-encoded by the parser: the Location header stays valid.
  expect(safeRedirect('/tienda/日本?q=ñ')).toBe('/tienda/%E6%97%A5%E6%9C%AC?q=%C3%B1')
})

test('nothing else: hostile values fall back', () => {
  const hostile = [
    'https://evil.example/',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '\t/evil.example',
    '/\n/evil.example',
    '/\r\nSet-Cookie: x=1',
    '/\u0000/evil.example',
    '/\u007f',
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    'javascript:alert(1)',
    ' /x',
    'evil.example',
    '',
    `/${'a'.repeat(1000)}`,
  ]
  for (const value of hostile) expect(safeRedirect(value), JSON.stringify(value)).toBe('/')
  // URLSearchParams decodes %09 to a tab: `redirectTo=/%09/evil.example` arrives as `/\t/evil.example`.
  const decoded = new URLSearchParams('redirectTo=/%09/evil.example').get('redirectTo')
  expect(safeRedirect(decoded)).toBe('/')
  expect(safeRedirect(null)).toBe('/')
  expect(safeRedirect(undefined, '/dashboard')).toBe('/dashboard')
  expect(safeRedirect(new File(['/x'], 'x'))).toBe('/')
})
