import { expect, test } from 'vitest'
import { AddNoteSchema, RejectRequestSchema, SaveQuoteDraftSchema } from './quote-schemas.ts'
import { fieldNameOf } from './request-schemas.ts'

// The staff forms' schemas: what staff type is read as the calculator reads it, and everything
// else is refused with a message key on its field, never rounded or guessed.

const ID = '00000000-0000-4000-8000-000000000001'
const ITEM = '00000000-0000-4000-8000-000000000002'

function errorsOf(
  schema: {
    safeParse(value: unknown): {
      success: boolean
      error?: { issues: { path: PropertyKey[]; message: string }[] }
    }
  },
  value: unknown,
) {
  const parsed = schema.safeParse(value)
  if (parsed.success) return null
  return Object.fromEntries(
    parsed.error?.issues.map((issue) => [fieldNameOf(issue.path), issue.message]) ?? [],
  )
}

const draft = (item: Record<string, unknown>) => ({ id: ID, version: '3', items: [{ id: ITEM, ...item }] })

test('prices and shipping are read as people type them', () => {
  const cases: [unknown, number][] = [
    ['2500', 2500],
    ['2.500', 2500],
    ['2,500', 2500],
    ['¥2,500', 2500],
    ['2,500円', 2500],
    ['２，５００', 2500],
    [' JPY 1,000,000 ', 1_000_000],
    [1, 1],
  ]
  for (const [typed, value] of cases) {
    const parsed = SaveQuoteDraftSchema.parse(draft({ unitPrice: typed, domesticShipping: typed }))
    expect(parsed.items[0], String(typed)).toMatchObject({ unitPrice: value, domesticShipping: value })
  }
  expect(SaveQuoteDraftSchema.parse(draft({ unitPrice: '10.000.000 yenes' })).items[0]?.unitPrice).toBe(
    10_000_000,
  )
  const blank = SaveQuoteDraftSchema.parse(draft({ title: '  ', unitPrice: '', domesticShipping: '' }))
  expect(blank).toEqual({
    id: ID,
    version: 3,
    items: [{ id: ITEM, title: undefined, unitPrice: undefined, domesticShipping: undefined }],
  })
  expect(SaveQuoteDraftSchema.parse(draft({ domesticShipping: '0' })).items[0]?.domesticShipping).toBe(0)
})

test('bad prices are refused on their field: empty is allowed, zero, negative, decimals, words and too much are not', () => {
  const cases: [unknown, string][] = [
    ['0', 'priceRange'],
    ['-1', 'negative'],
    ['−2500', 'negative'],
    ['1.5', 'notWhole'],
    ['2500.50', 'notWhole'],
    [1.5, 'notWhole'],
    ['abc', 'notNumber'],
    ['<script>alert(1)</script>', 'notNumber'],
    ["1'; DROP TABLE invoices; --", 'notNumber'],
    ['1e3', 'notNumber'],
    ['$25', 'notNumber'],
    [Number.NaN, 'notNumber'],
    ['1,2,3', 'separators'],
    ['10000001', 'priceRange'],
    ['9'.repeat(40), 'priceRange'],
    [{ yen: 1 }, 'notNumber'],
  ]
  for (const [typed, message] of cases) {
    expect(errorsOf(SaveQuoteDraftSchema, draft({ unitPrice: typed })), String(typed)).toEqual({
      'items[0].unitPrice': message,
    })
  }
  expect(errorsOf(SaveQuoteDraftSchema, draft({ domesticShipping: '1000001' }))).toEqual({
    'items[0].domesticShipping': 'shippingRange',
  })
  expect(errorsOf(SaveQuoteDraftSchema, draft({ domesticShipping: '-5' }))).toEqual({
    'items[0].domesticShipping': 'negative',
  })
})

test('titles: at most 300 characters, no control characters; ids and versions must be what a page sends', () => {
  expect(SaveQuoteDraftSchema.parse(draft({ title: '  ニンテンドースイッチ <b>' })).items[0]?.title).toBe(
    'ニンテンドースイッチ <b>',
  )
  expect(errorsOf(SaveQuoteDraftSchema, draft({ title: 'x'.repeat(301) }))).toEqual({
    'items[0].title': 'titleTooLong',
  })
  expect(errorsOf(SaveQuoteDraftSchema, draft({ title: 'bad\u0000title' }))).toEqual({
    'items[0].title': 'invalidCharacters',
  })
  expect(errorsOf(SaveQuoteDraftSchema, { ...draft({}), version: '-1' })).toEqual({ version: 'invalid' })
  expect(errorsOf(SaveQuoteDraftSchema, { ...draft({}), version: '1.5' })).toEqual({ version: 'invalid' })
  expect(errorsOf(SaveQuoteDraftSchema, { ...draft({}), id: 'not-a-uuid' })).toEqual({ id: 'invalid' })
  expect(errorsOf(SaveQuoteDraftSchema, { id: ID, version: 1, items: [] })).toEqual({ items: 'invalid' })
  expect(errorsOf(SaveQuoteDraftSchema, { id: ID, version: 1, items: [{ id: 'x' }] })).toEqual({
    'items[0].id': 'invalid',
  })
})

test('a rejection needs a reason of at most 1,000 characters', () => {
  expect(errorsOf(RejectRequestSchema, { id: ID, version: 0 })).toEqual({ reason: 'reasonRequired' })
  expect(errorsOf(RejectRequestSchema, { id: ID, version: 0, reason: '   ' })).toEqual({
    reason: 'reasonRequired',
  })
  expect(errorsOf(RejectRequestSchema, { id: ID, version: 0, reason: 'r'.repeat(1001) })).toEqual({
    reason: 'reasonTooLong',
  })
  expect(errorsOf(RejectRequestSchema, { id: ID, version: 0, reason: 42 })).toEqual({
    reason: 'invalidCharacters',
  })
  expect(RejectRequestSchema.parse({ id: ID, version: 0, reason: ' Sold out\nSorry ' }).reason).toBe(
    'Sold out\nSorry',
  )
})

test('a note needs text of at most 2,000 characters and says who may read it', () => {
  expect(errorsOf(AddNoteSchema, { id: ID, version: 0, visibility: 'internal' })).toEqual({
    text: 'noteRequired',
  })
  expect(
    errorsOf(AddNoteSchema, { id: ID, version: 0, text: 'n'.repeat(2001), visibility: 'internal' }),
  ).toEqual({
    text: 'noteTooLong',
  })
  expect(errorsOf(AddNoteSchema, { id: ID, version: 0, text: 'Hi', visibility: 'everyone' })).toEqual({
    visibility: 'visibility',
  })
  expect(errorsOf(AddNoteSchema, { id: ID, version: 0, text: 'Hi' })).toEqual({ visibility: 'visibility' })
  expect(AddNoteSchema.parse({ id: ID, version: '2', text: 'Hi', visibility: 'customer' })).toEqual({
    id: ID,
    version: 2,
    text: 'Hi',
    visibility: 'customer',
  })
})
