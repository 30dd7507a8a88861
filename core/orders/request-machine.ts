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

/**
 * Who causes an event: the owning customer, staff (moderator or admin), the system (a scheduled
 * job) or a payment provider (a verified webhook or return).
 */
export const ACTOR_KINDS = ['customer', 'staff', 'system', 'provider'] as const
export type ActorKind = (typeof ACTOR_KINDS)[number]

/** Statuses after which nothing happens to the request any more. */
export const FINAL_STATUSES: readonly RequestStatus[] = ['rejected', 'cancelled', 'expired', 'completed']

type Rule = { from: readonly (RequestStatus | null)[]; to: RequestStatus; by: readonly ActorKind[] }

/** `from: null` is a request that does not exist yet. */
export const REQUEST_MACHINE: Readonly<Record<RequestEvent, Rule>> = {
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

/**
 * Why an event cannot happen: `already` (the request is already where the event leads, a replay
 * or a double click), `not_allowed` (not from this state), `forbidden` (not by this actor).
 */
export type TransitionRefusal = 'already' | 'not_allowed' | 'forbidden'

export type TransitionResult =
  | { ok: true; from: RequestStatus | null; to: RequestStatus }
  | { ok: false; refusal: TransitionRefusal }

export function transition(
  state: RequestStatus | null,
  event: RequestEvent,
  actor: ActorKind,
): TransitionResult {
  const rule = REQUEST_MACHINE[event]
  if (!rule.from.includes(state)) {
    return { ok: false, refusal: state === rule.to ? 'already' : 'not_allowed' }
  }
  if (!rule.by.includes(actor)) return { ok: false, refusal: 'forbidden' }
  return { ok: true, from: state, to: rule.to }
}

/** The events this actor could cause now (for the buttons a page shows). */
export function eventsAvailable(state: RequestStatus, actor: ActorKind): RequestEvent[] {
  return REQUEST_EVENTS.filter((event) => transition(state, event, actor).ok)
}

export function isRequestStatus(value: unknown): value is RequestStatus {
  return REQUEST_STATUSES.includes(value as RequestStatus)
}
