import { type Actor, isStaff } from './service-context.ts'

/**
 * Who causes an event on an order, an invoice, a payment or a shipment: the owning customer,
 * staff (moderator or admin), the system (a scheduled job) or a payment provider (a verified
 * webhook or return).
 */
export const ACTOR_KINDS = ['customer', 'staff', 'system', 'provider'] as const
export type ActorKind = (typeof ACTOR_KINDS)[number]

// Who may see and act on a purchase request. Staff are moderators and admins; the customer is
// the request's owner. Nobody else learns that a request exists (the service answers not_found).

/** How the machine sees this actor on this request, or null when they have nothing to do with it. */
export function actorKindFor(actor: Actor | null, request: { userId: string }): ActorKind | null {
  if (!actor) return null
  if (isStaff(actor)) return 'staff'
  return actor.id === request.userId ? 'customer' : null
}

export function canSeeRequest(actor: Actor | null, request: { userId: string }): boolean {
  return actorKindFor(actor, request) !== null
}
