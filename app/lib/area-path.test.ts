import { expect, test } from 'vitest'
import { areaPathFor } from './area-path.ts'

test("each role's own area: customers theirs, admins the overview, moderators the request queue", () => {
  expect(areaPathFor('user')).toBe('/user-dashboard')
  expect(areaPathFor('admin')).toBe('/admin-dashboard')
  expect(areaPathFor('moderator')).toBe('/admin-dashboard/requests')
})
