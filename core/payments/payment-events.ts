import { type Aggregate, applyEvent, applyEventIfAllowed, type EventInput } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Executor } from '#db/client.ts'
import { payments } from '#db/schema/index.ts'
import { isPaymentStatus, PAYMENT_MACHINE, type PaymentEvent, type PaymentStatus } from './payment-machine.ts'

/** The history's entity type of a payment (`order_events.entity_type`). */
export const PAYMENT_ENTITY = 'payment'

/**
 * A payment as an aggregate of `applyEvent` (core/shared/apply-event.ts): every move of its
 * status (settled by a provider, abandoned by the reconciliation job, a held one resolved by
 * staff) locks the row, asks the payment machine, compares and sets the version and appends the
 * history row, the same way as a request, an invoice or a shipment.
 */
const PAYMENT: Aggregate<PaymentEvent, PaymentStatus, Record<never, never>> = {
  entity: PAYMENT_ENTITY,
  table: payments,
  machine: PAYMENT_MACHINE,
  isState: isPaymentStatus,
  columns: {},
  notFound: (id) => new AppError('not_found', `Payment ${id} not found`, { reason: 'paymentNotFound' }),
  changed: (id) => new AppError('conflict', `Payment ${id} changed`, { reason: 'paymentChanged' }),
  notAllowed: (id, row, event) =>
    new AppError('conflict', `Cannot ${event} payment ${id} in ${row.status}`, {
      reason: event === 'accept' || event === 'refund' ? 'paymentNotHeld' : 'paymentChanged',
    }),
}

/** Moves one payment by its machine. @throws AppError `conflict` (changed, not from this state), `forbidden`. */
export function applyPaymentEvent(tx: Executor, input: EventInput<PaymentEvent>) {
  return applyEvent(tx, PAYMENT, { visibleToCustomer: false, ...input })
}

/** As `applyPaymentEvent`, but null when the machine refuses it from the payment's state now. */
export function applyPaymentEventIfAllowed(tx: Executor, input: EventInput<PaymentEvent>) {
  return applyEventIfAllowed(tx, PAYMENT, { visibleToCustomer: false, ...input })
}
