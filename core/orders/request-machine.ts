import type { ActorKind } from '#core/shared/actor-kind.ts'
import { isStateOf, type Machine, type Transition, transitionsOf } from '#core/shared/state-machine.ts'

/**
 * The purchase request's lifecycle as a table: which event moves which state to which, and who
 * may cause it. Pure (no I/O): the service applies it inside a transaction, jobs and payment
 * webhooks will apply the same table (docs/decisions/019-orders-model.md, research §1.3).
 */

export const REQUEST_STATUSES = [
  'submitted',
  'quoted',
  'rejected',
  'cancelled',
  'paid',
  'expired',
  'in_progress',
  'completed',
] as const
export type RequestStatus = (typeof REQUEST_STATUSES)[number]

export const REQUEST_EVENTS = [
  'submit',
  'quote',
  'reject',
  'cancel',
  'requote',
  'pay',
  'expire',
  'start_purchasing',
  'complete',
] as const
export type RequestEvent = (typeof REQUEST_EVENTS)[number]

/** Statuses after which nothing happens to the request any more. */
export const FINAL_STATUSES: readonly RequestStatus[] = ['rejected', 'cancelled', 'expired', 'completed']

/** `from: null` is a request that does not exist yet. */
export const REQUEST_MACHINE: Machine<RequestEvent, RequestStatus, RequestStatus | null> = {
  submit: { from: [null], to: 'submitted', by: ['customer'] },
  quote: { from: ['submitted'], to: 'quoted', by: ['staff'] },
  reject: { from: ['submitted'], to: 'rejected', by: ['staff'] },
  cancel: { from: ['submitted', 'quoted'], to: 'cancelled', by: ['customer', 'staff'] },
  requote: { from: ['quoted'], to: 'submitted', by: ['staff', 'customer'] },
  // A verified provider payment, or staff recording a bank transfer (the manual method).
  pay: { from: ['quoted'], to: 'paid', by: ['provider', 'staff'] },
  expire: { from: ['quoted'], to: 'expired', by: ['system'] },
  start_purchasing: { from: ['paid'], to: 'in_progress', by: ['staff'] },
  // Every item at its end and no money left to settle (core/orders/request-completion.ts): from
  // `paid` too, when every item was unavailable and refunded before anything was bought.
  complete: { from: ['paid', 'in_progress'], to: 'completed', by: ['system', 'staff'] },
}

export type TransitionResult = Transition<RequestStatus, RequestStatus | null>

export const transition = transitionsOf(REQUEST_MACHINE)

/** The events this actor could cause now (for the buttons a page shows). */
export function eventsAvailable(state: RequestStatus, actor: ActorKind): RequestEvent[] {
  return REQUEST_EVENTS.filter((event) => transition(state, event, actor).ok)
}

export const isRequestStatus = isStateOf(REQUEST_STATUSES)
