import { isStateOf, type Machine, type Transition, transitionsOf } from '#core/shared/state-machine.ts'

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

/** `from: null` is a shipment that does not exist yet. */
export const SHIPMENT_MACHINE: Machine<ShipmentEvent, ShipmentStatus, ShipmentStatus | null> = {
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

export type ShipmentTransition = Transition<ShipmentStatus, ShipmentStatus | null>

export const shipmentTransition = transitionsOf(SHIPMENT_MACHINE)

export const isShipmentStatus = isStateOf(SHIPMENT_STATUSES)
