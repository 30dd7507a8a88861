import { expect, test } from 'vitest'
import { isAppError } from './errors.ts'
import { decodeTimeCursor, encodeTimeCursor, keysetPage } from './keyset.ts'

const id = '0b6c9f5e-2f3a-4c8e-9d1a-3e5f7a9b1c2d'

test('a cursor reads back as the time and id it was made of', () => {
  const at = new Date('2026-11-27T09:30:00.123Z')
  expect(decodeTimeCursor(encodeTimeCursor(at, id))).toEqual({ at, id })
  expect(decodeTimeCursor(null)).toBeNull()
  expect(decodeTimeCursor('')).toBeNull()
})

test.each([
  'abc',
  `1.${id}x`,
  `1.not-a-uuid-000000000000000000000000000`,
  `1234567890123456.${id}`,
  `${Date.now()}.${id}' or 1=1 --`,
])('a cursor not of ours (%s) is refused as invalid input', (cursor) => {
  let thrown: unknown
  try {
    decodeTimeCursor(cursor)
  } catch (error) {
    thrown = error
  }
  expect(isAppError(thrown) && thrown.code).toBe('invalid')
})

test('a page keeps the first rows and points below the last one shown only when there are more', () => {
  const rows = [3, 2, 1].map((n) => ({ id: `${id.slice(0, -1)}${n}`, at: new Date(n * 1000) }))
  const full = keysetPage(rows, 2, (row) => row.at)
  expect(full.rows.map((row) => row.at.getTime())).toEqual([3000, 2000])
  expect(full.nextCursor).toBe(`2000.${id.slice(0, -1)}2`)
  expect(keysetPage(rows, 3, (row) => row.at).nextCursor).toBeNull()
  expect(keysetPage([], 3, (row: { id: string; at: Date }) => row.at)).toEqual({ rows: [], nextCursor: null })
})
