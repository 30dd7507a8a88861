import { expect, test } from 'vitest'
import { SubmitRequestSchema } from './request-schemas.ts'

const errors = (input: unknown) => {
  const result = SubmitRequestSchema.safeParse(input)
  return result.success ? null : result.error.issues.map((issue) => [issue.path.join('.'), issue.message])
}

test('web addresses only, trimmed; quantity defaults to 1; empty notes are none', () => {
  expect(
    SubmitRequestSchema.parse({ items: [{ url: '  https://jp.mercari.com/x ', quantity: '', notes: ' ' }] }),
  ).toEqual({
    items: [{ url: 'https://jp.mercari.com/x', quantity: 1, notes: undefined }],
    note: undefined,
  })
  expect(errors({ items: [{ url: 'JAVASCRIPT:alert(1)' }] })).toEqual([['items.0.url', 'urlScheme']])
  expect(errors({ items: [{ url: 'https://' }] })).toEqual([['items.0.url', 'urlInvalid']])
  expect(errors({ items: [{ url: 'https://a.jp/x y' }] })).toEqual([['items.0.url', 'urlInvalid']])
  expect(errors({ items: [{ url: '' }] })).toEqual([['items.0.url', 'required']])
  expect(errors({})).toEqual([['items', 'noItems']])
  expect(errors({ items: [{ url: 'http://a.jp', quantity: '99' }] })).toBeNull()
  expect(errors({ items: [{ url: 'http://a.jp', quantity: '1e2' }] })).toEqual([
    ['items.0.quantity', 'quantityWhole'],
  ])
})

test('a photo is optional: an empty file input is none; an empty chosen file, a large one or text are refused', () => {
  const MB = 1024 * 1024
  const url = 'https://jp.mercari.com/x'
  const photo = (size: number, name = 'a.jpg') =>
    new File([new Uint8Array(size)], name, { type: 'image/jpeg' })
  expect(SubmitRequestSchema.parse({ items: [{ url, photo: photo(0, '') }] }).items[0]?.photo).toBeUndefined()
  expect(SubmitRequestSchema.parse({ items: [{ url, photo: photo(10) }] }).items[0]?.photo?.size).toBe(10)
  expect(errors({ items: [{ url, photo: photo(0) }] })).toEqual([['items.0.photo', 'photoEmpty']])
  expect(errors({ items: [{ url, photo: photo(5 * MB) }] })).toBeNull()
  expect(errors({ items: [{ url, photo: photo(5 * MB + 1) }] })).toEqual([['items.0.photo', 'photoTooLarge']])
  expect(errors({ items: [{ url, photo: 'a.jpg' }] })).toEqual([['items.0.photo', 'photoType']])
  // Each within its limit, 30 MB together at most.
  const six = Array.from({ length: 6 }, () => ({ url, photo: photo(5 * MB) }))
  expect(errors({ items: six })).toBeNull()
  expect(errors({ items: [...six, { url, photo: photo(1) }] })).toEqual([['items', 'photosTooLarge']])
})

test('a price or total in the input is not part of what the schema gives the service', () => {
  const parsed = SubmitRequestSchema.parse({
    items: [{ url: 'https://jp.mercari.com/x', price: '1', unitPriceJpy: 1, title: 'x' }],
    total: 1,
  })
  expect(parsed).toEqual({ items: [{ url: 'https://jp.mercari.com/x', quantity: 1 }] })
  expect(Object.keys(parsed)).toEqual(['items'])
  expect(Object.keys(parsed.items[0] ?? {}).sort()).toEqual(['quantity', 'url'])
})
