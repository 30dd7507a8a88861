import { expect, test } from 'vitest'
import { isStaff } from '#core/shared/service-context.ts'
import { actorKindFor, canSeeRequest } from './actor-kind.ts'

const request = { userId: 'owner' }

test('the owner is the customer, moderators and admins are staff, anyone else sees nothing', () => {
  expect(actorKindFor({ id: 'owner', role: 'user' }, request)).toBe('customer')
  expect(actorKindFor({ id: 'staff-1', role: 'moderator' }, request)).toBe('staff')
  expect(actorKindFor({ id: 'staff-2', role: 'admin' }, request)).toBe('staff')
  expect(actorKindFor({ id: 'someone', role: 'user' }, request)).toBeNull()
  expect(actorKindFor(null, request)).toBeNull()
  expect(canSeeRequest({ id: 'someone', role: 'user' }, request)).toBe(false)
  expect(canSeeRequest({ id: 'owner', role: 'user' }, request)).toBe(true)
  expect(isStaff({ id: 'x', role: 'user' })).toBe(false)
  expect(isStaff(null)).toBe(false)
})
