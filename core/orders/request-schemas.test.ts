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
