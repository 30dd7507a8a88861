import { describe, expect, test } from 'vitest'
import { ACTOR_KINDS, type ActorKind } from '#core/shared/actor-kind.ts'
import {
  FINAL_SHIPMENT_STATUSES,
  SHIPMENT_EVENTS,
  SHIPMENT_STATUSES,
  type ShipmentEvent,
  type ShipmentStatus,
  shipmentTransition,
} from './shipment-machine.ts'

// Every state (and "not yet") × event × actor against the table written out again by hand.
const ALLOWED: readonly [ShipmentStatus | null, ShipmentEvent, ActorKind, ShipmentStatus][] = [
  [null, 'request', 'customer', 'requested'],
  ['requested', 'cancel', 'customer', 'cancelled'],
  ['requested', 'cancel', 'staff', 'cancelled'],
  ['packed', 'cancel', 'customer', 'cancelled'],
  ['packed', 'cancel', 'staff', 'cancelled'],
  ['requested', 'pack', 'staff', 'packed'],
  ['packed', 'pay', 'provider', 'paid'],
  ['packed', 'pay', 'staff', 'paid'],
  ['paid', 'ship', 'staff', 'shipped'],
  ['shipped', 'deliver', 'staff', 'delivered'],
  ['shipped', 'deliver', 'customer', 'delivered'],
  ['shipped', 'lose', 'staff', 'lost'],
]
const TO = new Map(ALLOWED.map(([, event, , to]) => [event, to]))
const FROM = new Map<ShipmentEvent, Set<ShipmentStatus | null>>()
for (const [from, event] of ALLOWED) FROM.set(event, (FROM.get(event) ?? new Set()).add(from))

describe('every shipment state × event × actor', () => {
  for (const state of [null, ...SHIPMENT_STATUSES])
    for (const event of SHIPMENT_EVENTS)
      for (const actor of ACTOR_KINDS) {
        const allowed = ALLOWED.find((row) => row[0] === state && row[1] === event && row[2] === actor)
        test(`${state} --${event}--> by ${actor}`, () => {
          const result = shipmentTransition(state, event, actor)
          if (allowed) expect(result).toEqual({ ok: true, from: state, to: allowed[3] })
          else if (!FROM.get(event)?.has(state))
            expect(result).toEqual({
              ok: false,
              refusal: TO.get(event) === state ? 'already' : 'not_allowed',
            })
          else expect(result).toEqual({ ok: false, refusal: 'forbidden' })
        })
      }
})

test('final statuses accept no event; a paid shipment can no longer be cancelled', () => {
  for (const state of FINAL_SHIPMENT_STATUSES)
    for (const event of SHIPMENT_EVENTS)
      for (const actor of ACTOR_KINDS) expect(shipmentTransition(state, event, actor).ok).toBe(false)
  expect(shipmentTransition('paid', 'cancel', 'customer')).toEqual({ ok: false, refusal: 'not_allowed' })
})
