import { expect, test } from 'vitest'
import { canHandleContactMessages, canReadContactInbox } from './inbox-policy.ts'
import { InboxQuerySchema } from './inbox-schemas.ts'

test('only admins read the contact inbox and mark messages handled; moderators, users and anonymous callers do not', () => {
  for (const check of [canReadContactInbox, canHandleContactMessages]) {
    expect(check(null)).toBe(false)
    expect(check({ id: 'u', role: 'user' })).toBe(false)
    expect(check({ id: 'm', role: 'moderator' })).toBe(false)
    expect(check({ id: 'a', role: 'admin' })).toBe(true)
  }
})

test('the inbox query reads its filters and cursor, and anything unreadable is the default', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e'
  expect(InboxQuerySchema.parse({})).toEqual({ status: 'open', spam: false, after: null })
  expect(
    InboxQuerySchema.parse({ status: 'handled', spam: '1', after: `2026-11-23T01:02:03.123456Z_${id}` }),
  ).toEqual({
    status: 'handled',
    spam: true,
    after: { receivedAt: '2026-11-23T01:02:03.123456Z', id },
  })
  for (const after of [
    'x',
    `2026-02-30T01:02:03.123456Z_${id}`,
    `2026-11-23T01:02:03.123456Z_${id}'`,
    '2026-11-23T01:02:03Z_x',
  ])
    expect(InboxQuerySchema.parse({ status: 'closed', spam: 'yes', after })).toEqual({
      status: 'open',
      spam: false,
      after: null,
    })
})
