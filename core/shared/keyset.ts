import { type AnyColumn, desc, type SQL, sql } from 'drizzle-orm'
import { AppError } from './errors.ts'
import { isUuid } from './ids.ts'

/**
 * Keyset paging newest first by (a timestamp, the id), the way every long list of ours pages
 * (a customer's requests, the staff's queues, notifications): the next page starts below the
 * last row shown, so a page costs the same at row 20 as at row 100,000 and a row added meanwhile
 * never shifts one onto the next page twice. The cursor is `<ms since epoch>.<uuid>` of the last
 * row shown (the timestamps have millisecond precision).
 */

export type TimeCursor = { at: Date; id: string }

export function encodeTimeCursor(at: Date, id: string): string {
  return `${at.getTime()}.${id}`
}

/** @throws AppError `invalid` for a cursor that is not one of ours. */
export function decodeTimeCursor(cursor: string | null | undefined): TimeCursor | null {
  if (!cursor) return null
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/i.exec(cursor)
  if (!match?.[1] || !match[2] || !isUuid(match[2])) {
    throw new AppError('invalid', `Bad page cursor ${cursor.slice(0, 80)}`)
  }
  return { at: new Date(Number(match[1])), id: match[2] }
}

/** The rows below the cursor, newest first: (at, id) < the cursor's, as the index orders them. */
export function olderThan(at: AnyColumn, id: AnyColumn, cursor: TimeCursor | null): SQL | undefined {
  if (!cursor) return undefined
  return sql`(${at}, ${id}) < (${cursor.at.toISOString()}::timestamptz, ${cursor.id}::uuid)`
}

/** Newest first, the id breaking ties: the order the cursor pages through. */
export function newestFirst(at: AnyColumn, id: AnyColumn): SQL[] {
  return [desc(at), desc(id)]
}

/**
 * One page from `size + 1` rows read: the first `size`, and the cursor of the next page when
 * there was one more.
 */
export function keysetPage<Row extends { id: string }>(
  rows: readonly Row[],
  size: number,
  at: (row: Row) => Date,
): { rows: Row[]; nextCursor: string | null } {
  const shown = rows.slice(0, size)
  const last = shown.at(-1)
  return { rows: shown, nextCursor: rows.length > size && last ? encodeTimeCursor(at(last), last.id) : null }
}
