import { expect, test } from 'vitest'
import { wantsPage } from './guarded-file.server.ts'

// Who is shown a page at a file's address: a browser's navigation (it accepts HTML), not an
// <img>, a script, React Router's data fetch or a form post.

const request = (accept: string | null, method = 'GET') =>
  new Request('http://localhost/account/export', { method, headers: accept === null ? {} : { accept } })

test.each([
  [
    'Chromium navigating',
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
    true,
  ],
  ['Firefox navigating', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
  ['HTML alone, upper case', 'TEXT/HTML', true],
  ['an <img>', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', false],
  ['fetch() and curl', '*/*', false],
  ['a script asking for JSON', 'application/json', false],
  ['HTML refused outright', 'text/html;q=0, */*', false],
  ['no Accept header', null, false],
])('%s: %s', (_, accept, expected) => {
  expect(wantsPage(request(accept))).toBe(expected)
})

test('HEAD is a page like GET; a POST is not', () => {
  expect(wantsPage(request('text/html', 'HEAD'))).toBe(true)
  expect(wantsPage(request('text/html', 'POST'))).toBe(false)
})
