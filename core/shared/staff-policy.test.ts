import { expect, test } from 'vitest'
import { allowedActions, can, STAFF_ACTIONS, type StaffAction } from './staff-policy.ts'

// The whole table, written out again by hand: a change to who may do what must change this too.
const EXPECTED: Record<'user' | 'moderator' | 'admin', readonly StaffAction[]> = {
  user: [],
  moderator: [
    'view_requests',
    'save_quote_draft',
    'approve_quote',
    'reject_request',
    'revise_quote',
    'write_note',
    'view_invoices',
    'view_users',
    'handle_arrivals',
  ],
  admin: STAFF_ACTIONS,
}

test('every role against every staff action', () => {
  for (const role of ['user', 'moderator', 'admin'] as const) {
    for (const action of STAFF_ACTIONS) {
      expect(can({ id: 'x', role }, action), `${role} ${action}`).toBe(EXPECTED[role].includes(action))
    }
    expect(allowedActions({ id: 'x', role })).toEqual([...EXPECTED[role]])
  }
  for (const action of STAFF_ACTIONS) expect(can(null, action)).toBe(false)
})

test('money received, the contact inbox and the settings stay with admins', () => {
  const moderator = { id: 'm', role: 'moderator' } as const
  expect(can(moderator, 'record_payment')).toBe(false)
  expect(can(moderator, 'read_contact_inbox')).toBe(false)
  expect(can(moderator, 'manage_settings')).toBe(false)
  expect(can(moderator, 'read_audit_log')).toBe(false)
  expect(can(moderator, 'manage_users')).toBe(false)
})
