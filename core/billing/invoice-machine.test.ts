import { describe, expect, test } from 'vitest'
import { ACTOR_KINDS } from '#core/shared/actor-kind.ts'
import { INVOICE_EVENTS, INVOICE_STATUSES, type InvoiceStatus, invoiceTransition } from './invoice-machine.ts'

// Every state × event × actor against the table written out again by hand.
const ALLOWED: readonly [InvoiceStatus, string, string, InvoiceStatus][] = [
  ['open', 'pay', 'provider', 'paid'],
  ['open', 'pay', 'staff', 'paid'],
  ['open', 'void', 'staff', 'void'],
  ['open', 'void', 'customer', 'void'],
  ['open', 'expire', 'system', 'expired'],
]
const TO = new Map(ALLOWED.map(([, event, , to]) => [event, to]))

describe('every invoice state × event × actor', () => {
  for (const state of INVOICE_STATUSES)
    for (const event of INVOICE_EVENTS)
      for (const actor of ACTOR_KINDS) {
        const allowed = ALLOWED.find((row) => row[0] === state && row[1] === event && row[2] === actor)
        test(`${state} --${event}--> by ${actor}`, () => {
          const result = invoiceTransition(state, event, actor)
          if (allowed) expect(result).toEqual({ ok: true, from: state, to: allowed[3] })
          else if (state !== 'open')
            expect(result).toEqual({
              ok: false,
              refusal: TO.get(event) === state ? 'already' : 'not_allowed',
            })
          else expect(result).toEqual({ ok: false, refusal: 'forbidden' })
        })
      }
})
