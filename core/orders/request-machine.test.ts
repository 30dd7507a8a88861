import { describe, expect, test } from 'vitest'
import { ACTOR_KINDS } from '#core/shared/actor-kind.ts'
import {
  eventsAvailable,
  FINAL_STATUSES,
  REQUEST_EVENTS,
  REQUEST_STATUSES,
  type RequestStatus,
  transition,
} from './request-machine.ts'

// Every state (and "not yet a request") × every event × every actor, against the research's
// table (§1.3) written out again here by hand: an edit to the machine has to be an edit here too.

const ALLOWED: readonly [RequestStatus | null, string, string, RequestStatus][] = [
  [null, 'submit', 'customer', 'submitted'],
  ['submitted', 'quote', 'staff', 'quoted'],
  ['submitted', 'reject', 'staff', 'rejected'],
  ['submitted', 'cancel', 'customer', 'cancelled'],
  ['submitted', 'cancel', 'staff', 'cancelled'],
  ['quoted', 'cancel', 'customer', 'cancelled'],
  ['quoted', 'cancel', 'staff', 'cancelled'],
  ['quoted', 'requote', 'staff', 'submitted'],
  ['quoted', 'requote', 'customer', 'submitted'],
  ['quoted', 'pay', 'provider', 'paid'],
  ['quoted', 'pay', 'staff', 'paid'],
  ['quoted', 'expire', 'system', 'expired'],
  ['paid', 'start_purchasing', 'staff', 'in_progress'],
  ['paid', 'complete', 'system', 'completed'],
  ['paid', 'complete', 'staff', 'completed'],
  ['in_progress', 'complete', 'system', 'completed'],
  ['in_progress', 'complete', 'staff', 'completed'],
]

/** The states each event may start from, whoever asks. */
const FROM = new Map<string, Set<RequestStatus | null>>()
for (const [from, event] of ALLOWED) FROM.set(event, new Set([...(FROM.get(event) ?? []), from]))
const TO = new Map(ALLOWED.map(([, event, , to]) => [event, to]))

const STATES: (RequestStatus | null)[] = [null, ...REQUEST_STATUSES]

describe('every state × event × actor', () => {
  for (const state of STATES) {
    for (const event of REQUEST_EVENTS) {
      for (const actor of ACTOR_KINDS) {
        const allowed = ALLOWED.find(([f, e, a]) => f === state && e === event && a === actor)
        test(`${state ?? '(new)'} --${event}--> by ${actor}`, () => {
          const result = transition(state, event, actor)
          if (allowed) {
            expect(result).toEqual({ ok: true, from: state, to: allowed[3] })
          } else if (FROM.get(event)?.has(state)) {
            expect(result).toEqual({ ok: false, refusal: 'forbidden' })
          } else if (TO.get(event) === state) {
            expect(result).toEqual({ ok: false, refusal: 'already' })
          } else {
            expect(result).toEqual({ ok: false, refusal: 'not_allowed' })
          }
        })
      }
    }
  }
})

test('nothing leaves a final state, and every other state has a way on', () => {
  for (const state of REQUEST_STATUSES) {
    const next = ACTOR_KINDS.flatMap((actor) => eventsAvailable(state, actor))
    if (FINAL_STATUSES.includes(state)) expect(next, state).toEqual([])
    else expect(next.length, state).toBeGreaterThan(0)
  }
})

test('every state can be reached from a new request', () => {
  const reached = new Set<RequestStatus | null>([null])
  for (let changed = true; changed; ) {
    changed = false
    for (const state of [...reached])
      for (const event of REQUEST_EVENTS)
        for (const actor of ACTOR_KINDS) {
          const result = transition(state, event, actor)
          if (result.ok && !reached.has(result.to)) {
            reached.add(result.to)
            changed = true
          }
        }
  }
  expect([...reached].filter((state) => state !== null).sort()).toEqual([...REQUEST_STATUSES].sort())
})

test('what a customer and staff may do with a pending request', () => {
  expect(eventsAvailable('submitted', 'customer')).toEqual(['cancel'])
  expect(eventsAvailable('submitted', 'staff')).toEqual(['quote', 'reject', 'cancel'])
  expect(eventsAvailable('cancelled', 'customer')).toEqual([])
})
