import { describe, expect, test } from 'vitest'
import { ACTOR_KINDS, type ActorKind } from '#core/shared/actor-kind.ts'
import {
  FINAL_ITEM_STATUSES,
  ITEM_EVENTS,
  ITEM_STATUSES,
  type ItemEvent,
  type ItemStatus,
  itemTransition,
} from './item-machine.ts'

// Every state × event × actor against the table written out again by hand.
const ALLOWED: readonly [ItemStatus, ItemEvent, ActorKind, ItemStatus][] = [
  ['pending', 'quote', 'staff', 'quoted'],
  ['quoted', 'requote', 'staff', 'pending'],
  ['quoted', 'requote', 'customer', 'pending'],
  ['pending', 'reject', 'staff', 'rejected'],
  ['quoted', 'reject', 'staff', 'rejected'],
  ['pending', 'cancel', 'customer', 'cancelled'],
  ['pending', 'cancel', 'staff', 'cancelled'],
  ['pending', 'cancel', 'system', 'cancelled'],
  ['quoted', 'cancel', 'customer', 'cancelled'],
  ['quoted', 'cancel', 'staff', 'cancelled'],
  ['quoted', 'cancel', 'system', 'cancelled'],
  ['pending', 'pay', 'provider', 'to_buy'],
  ['pending', 'pay', 'staff', 'to_buy'],
  ['quoted', 'pay', 'provider', 'to_buy'],
  ['quoted', 'pay', 'staff', 'to_buy'],
  ['to_buy', 'order', 'staff', 'ordered'],
  ['to_buy', 'receive', 'staff', 'received'],
  ['ordered', 'receive', 'staff', 'received'],
  ['to_buy', 'mark_unavailable', 'staff', 'unavailable'],
  ['ordered', 'mark_unavailable', 'staff', 'unavailable'],
  ['received', 'ship', 'staff', 'shipped'],
  ['received', 'dispose', 'staff', 'disposed'],
]
const TO = new Map(ALLOWED.map(([, event, , to]) => [event, to]))
const FROM = new Map<ItemEvent, Set<ItemStatus>>()
for (const [from, event] of ALLOWED) FROM.set(event, (FROM.get(event) ?? new Set()).add(from))

describe('every item state × event × actor', () => {
  for (const state of ITEM_STATUSES)
    for (const event of ITEM_EVENTS)
      for (const actor of ACTOR_KINDS) {
        const allowed = ALLOWED.find((row) => row[0] === state && row[1] === event && row[2] === actor)
        test(`${state} --${event}--> by ${actor}`, () => {
          const result = itemTransition(state, event, actor)
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

describe('the item lifecycle', () => {
  test('final statuses accept no event from anyone', () => {
    for (const state of FINAL_ITEM_STATUSES)
      for (const event of ITEM_EVENTS)
        for (const actor of ACTOR_KINDS) expect(itemTransition(state, event, actor).ok).toBe(false)
  })

  test('a customer never moves an item towards buying it', () => {
    for (const event of ['quote', 'pay', 'order', 'receive', 'mark_unavailable'] as const)
      for (const state of ITEM_STATUSES) expect(itemTransition(state, event, 'customer').ok).toBe(false)
  })

  test('a paid item can no longer be cancelled: it is bought or found unavailable', () => {
    for (const state of ['to_buy', 'ordered'] as const) {
      expect(itemTransition(state, 'cancel', 'customer')).toEqual({ ok: false, refusal: 'not_allowed' })
      expect(itemTransition(state, 'mark_unavailable', 'staff')).toEqual({
        ok: true,
        from: state,
        to: 'unavailable',
      })
    }
  })

  test('every status is reachable from pending', () => {
    const reached = new Set<ItemStatus>(['pending'])
    for (let changed = true; changed; ) {
      changed = false
      for (const [from, , , to] of ALLOWED)
        if (reached.has(from) && !reached.has(to)) {
          reached.add(to)
          changed = true
        }
    }
    expect([...reached].sort()).toEqual([...ITEM_STATUSES].sort())
  })
})
