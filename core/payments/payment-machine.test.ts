import { describe, expect, test } from 'vitest'
import { ACTOR_KINDS } from '#core/shared/actor-kind.ts'
import { PAYMENT_EVENTS, PAYMENT_STATUSES, type PaymentStatus, paymentTransition } from './payment-machine.ts'

// Every state (and "not yet") × event × actor against the table written out again by hand.
const ALLOWED: readonly [PaymentStatus | null, string, string, PaymentStatus][] = [
  [null, 'start', 'customer', 'pending'],
  [null, 'record', 'staff', 'succeeded'],
  ['pending', 'succeed', 'provider', 'succeeded'],
  ['failed', 'succeed', 'provider', 'succeeded'],
  ['pending', 'hold', 'provider', 'held'],
  ['failed', 'hold', 'provider', 'held'],
  ['pending', 'flag_duplicate', 'provider', 'duplicate'],
  ['failed', 'flag_duplicate', 'provider', 'duplicate'],
  ['pending', 'fail', 'provider', 'failed'],
  ['pending', 'abandon', 'system', 'failed'],
  ['held', 'accept', 'staff', 'succeeded'],
  ['held', 'refund', 'staff', 'refunded'],
]
const TO = new Map(ALLOWED.map(([, event, , to]) => [event, to]))
const FROM = new Map<string, Set<PaymentStatus | null>>()
for (const [from, event] of ALLOWED) FROM.set(event, new Set([...(FROM.get(event) ?? []), from]))

describe('every payment state × event × actor', () => {
  for (const state of [null, ...PAYMENT_STATUSES])
    for (const event of PAYMENT_EVENTS)
      for (const actor of ACTOR_KINDS) {
        const allowed = ALLOWED.find((row) => row[0] === state && row[1] === event && row[2] === actor)
        test(`${state ?? '(new)'} --${event}--> by ${actor}`, () => {
          const result = paymentTransition(state, event, actor)
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

test('a final payment never moves again; a failed one moves only when money turns up; a held one only by staff', () => {
  for (const state of ['succeeded', 'duplicate', 'refunded'] as const)
    for (const event of PAYMENT_EVENTS)
      for (const actor of ACTOR_KINDS) expect(paymentTransition(state, event, actor).ok).toBe(false)
  const fromFailed = PAYMENT_EVENTS.filter((event) => paymentTransition('failed', event, 'provider').ok)
  expect(fromFailed).toEqual(['succeed', 'hold', 'flag_duplicate'])
  for (const actor of ['customer', 'provider', 'system'] as const)
    for (const event of PAYMENT_EVENTS) expect(paymentTransition('held', event, actor).ok).toBe(false)
})
