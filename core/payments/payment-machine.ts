import { isStateOf, type Machine, type Transition, transitionsOf } from '#core/shared/state-machine.ts'

/**
 * One payment attempt's lifecycle, as a table like the request's and the invoice's. Pure: the
 * payment service (payment-service.ts) applies it inside a transaction for routes, webhooks and
 * the reconciliation job alike. docs/decisions/021-quotes-invoices-payments.md, "Payments".
 *
 * - A customer starts a provider checkout: `pending`.
 * - Staff record a bank transfer that arrived: `succeeded` at once (the manual method).
 * - The provider (a verified webhook, the customer's return, the reconciliation job) reports the
 *   money taken: `succeeded` when amount and currency are the invoice's and the invoice is open;
 *   `held` when they differ (or the invoice is no longer payable): staff review, never paid;
 *   `duplicate` when another payment already paid the invoice: a refund is due.
 * - Declined or expired at the provider: `failed` (the customer may start again). A provider
 *   that later reports money taken for a failed attempt still wins: money is never ignored.
 * - Still pending after the reconciliation window: `failed` by the system (abandoned).
 * - A held payment is an admin's to resolve: `accept` it as the quote's payment (`succeeded`,
 *   the quote paid; any excess becomes a refund due) or `refund` it whole (`refunded`, a refund
 *   due until an admin marks it done).
 */
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'held', 'duplicate', 'refunded'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

export const PAYMENT_EVENTS = [
  'start',
  'record',
  'succeed',
  'hold',
  'flag_duplicate',
  'fail',
  'abandon',
  'accept',
  'refund',
] as const
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number]

/** The outcomes that end a payment: nothing moves it afterwards (`held` waits for an admin). */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = ['succeeded', 'duplicate', 'refunded']

/** `from: null` is a payment that does not exist yet. */
export const PAYMENT_MACHINE: Machine<PaymentEvent, PaymentStatus, PaymentStatus | null> = {
  start: { from: [null], to: 'pending', by: ['customer'] },
  record: { from: [null], to: 'succeeded', by: ['staff'] },
  succeed: { from: ['pending', 'failed'], to: 'succeeded', by: ['provider'] },
  hold: { from: ['pending', 'failed'], to: 'held', by: ['provider'] },
  flag_duplicate: { from: ['pending', 'failed'], to: 'duplicate', by: ['provider'] },
  fail: { from: ['pending'], to: 'failed', by: ['provider'] },
  abandon: { from: ['pending'], to: 'failed', by: ['system'] },
  // An admin resolves a held payment (staff-payments.ts `resolveHeldPayment`).
  accept: { from: ['held'], to: 'succeeded', by: ['staff'] },
  refund: { from: ['held'], to: 'refunded', by: ['staff'] },
}

export type PaymentTransition = Transition<PaymentStatus, PaymentStatus | null>

/**
 * `already`: the payment is where the event leads (a replayed webhook, a second return);
 * `not_allowed`: not from this state; `forbidden`: not by this actor.
 */
export const paymentTransition = transitionsOf(PAYMENT_MACHINE)

export const isPaymentStatus = isStateOf(PAYMENT_STATUSES)
