import type { Request, Response } from 'express'
import { expect, test } from 'vitest'
import { securityHeaders } from './security-headers.ts'

function headersFor(options: { isProduction: boolean; httpsSite: boolean }, secure: boolean) {
  const headers = new Map<string, string>()
  const res = {
    locals: {},
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
  }
  securityHeaders({ ...options, allowsThirdParty: () => false })(
    { secure } as Request,
    res as unknown as Response,
    () => {},
  )
  return headers
}

test('HSTS only for a site served over https, in production', () => {
  const hsts = 'strict-transport-security'
  expect(headersFor({ isProduction: true, httpsSite: false }, false).has(hsts)).toBe(false)
  expect(headersFor({ isProduction: true, httpsSite: true }, false).get(hsts)).toBe(
    'max-age=63072000; includeSubDomains',
  )
  // TLS seen by this process (or reported by a trusted proxy) counts too.
  expect(headersFor({ isProduction: true, httpsSite: false }, true).has(hsts)).toBe(true)
  expect(headersFor({ isProduction: false, httpsSite: true }, true).has(hsts)).toBe(false)
  // The rest of the baseline is there either way.
  expect(headersFor({ isProduction: true, httpsSite: false }, false).get('x-frame-options')).toBe('DENY')
})
