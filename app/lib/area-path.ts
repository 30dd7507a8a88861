import type { RoleName } from '#core/shared/service-context.ts'

/**
 * Where a signed-in person's own area starts: customers their area, admins the admin panel's
 * overview, moderators the request queue (the admin pages they share; the overview is admins').
 */
export function areaPathFor(role: RoleName): string {
  if (role === 'admin') return '/admin-dashboard'
  if (role === 'moderator') return '/admin-dashboard/requests'
  return '/user-dashboard'
}
