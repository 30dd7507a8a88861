import type { ActorKind } from '#core/orders/request-machine.ts'

/**
 * A shipment's lifecycle as a table, like the request's (core/orders/request-machine.ts): the
 * customer asks to ship items they have at our office, staff pack and price it (the shipping
 * receipt), it is paid, shipped with a tracking number, delivered (staff, or the customer
 * confirming), or lost (a claim confirmed). Pure (no I/O).
 */
export const SHIPMENT_STATUSES = [
  'requested',
  'cancelled',
  'packed',
  'paid',
  'shipped',
  'delivered',
  'lost',
] as const
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number]

export const SHIPMENT_EVENTS = ['request', 'cancel', 'pack', 'pay', 'ship', 'deliver', 'lose'] as const
export type ShipmentEvent = (typeof SHIPMENT_EVENTS)[number]

export const FINAL_SHIPMENT_STATUSES: readonly ShipmentStatus[] = ['cancelled', 'delivered', 'lost']

type Rule = { from: readonly (ShipmentStatus | null)[]; to: ShipmentStatus; by: readonly ActorKind[] }

/** `from: null` is a shipment that does not exist yet. */
export const SHIPMENT_MACHINE: Readonly<Record<ShipmentEvent, Rule>> = {
  request: { from: [null], to: 'requested', by: ['customer'] },
  // Before it is paid: the items go back to storage (a packed one's shipping receipt is voided).
  cancel: { from: ['requested', 'packed'], to: 'cancelled', by: ['customer', 'staff'] },
  // Weighed, packed and priced: the shipping receipt is issued.
  pack: { from: ['requested'], to: 'packed', by: ['staff'] },
  pay: { from: ['packed'], to: 'paid', by: ['provider', 'staff'] },
  ship: { from: ['paid'], to: 'shipped', by: ['staff'] },
  deliver: { from: ['shipped'], to: 'delivered', by: ['staff', 'customer'] },
  // A lost-parcel claim confirmed by staff.
  lose: { from: ['shipped'], to: 'lost', by: ['staff'] },
}

export type ShipmentTransition =
  | { ok: true; from: ShipmentStatus | null; to: ShipmentStatus }
  | { ok: false; refusal: 'already' | 'not_allowed' | 'forbidden' }

export function shipmentTransition(
  state: ShipmentStatus | null,
  event: ShipmentEvent,
  actor: ActorKind,
): ShipmentTransition {
  const rule = SHIPMENT_MACHINE[event]
  if (!rule.from.includes(state)) return { ok: false, refusal: state === rule.to ? 'already' : 'not_allowed' }
  if (!rule.by.includes(actor)) return { ok: false, refusal: 'forbidden' }
  return { ok: true, from: state, to: rule.to }
}

export function isShipmentStatus(value: unknown): value is ShipmentStatus {
  return SHIPMENT_STATUSES.includes(value as ShipmentStatus)
}
