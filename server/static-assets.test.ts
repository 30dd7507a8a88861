import { expect, test } from 'vitest'
import { acceptedEncodings } from './static-assets.ts'

test('Accept-Encoding: the listed encodings, without those refused with q=0', () => {
  expect(acceptedEncodings('gzip, deflate, br, zstd')).toEqual(new Set(['gzip', 'deflate', 'br', 'zstd']))
  expect(acceptedEncodings('br;q=0, gzip;q=0.8')).toEqual(new Set(['gzip']))
  expect(acceptedEncodings('GZIP ; q=1.0')).toEqual(new Set(['gzip']))
  expect(acceptedEncodings(undefined)).toEqual(new Set())
  expect(acceptedEncodings('')).toEqual(new Set())
})
