import { type Actor, isStaff } from '#core/shared/service-context.ts'
import type { ActorKind } from './request-machine.ts'

// Who may see and act on a purchase request. Staff are moderators and admins; the customer is
// the request's owner. Nobody else learns that a request exists (the service answers not_found).

export { isStaff }

/** How the machine sees this actor on this request, or null when they have nothing to do with it. */
export function actorKindFor(actor: Actor | null, request: { userId: string }): ActorKind | null {
  if (!actor) return null
  if (isStaff(actor)) return 'staff'
  return actor.id === request.userId ? 'customer' : null
}

export function canSeeRequest(actor: Actor | null, request: { userId: string }): boolean {
  return actorKindFor(actor, request) !== null
}
