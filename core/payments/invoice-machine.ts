import type { ActorKind } from '#core/orders/request-machine.ts'

/**
 * An invoice's lifecycle (a purchase quote; in part 2 a shipping invoice too), as a table like
 * the request's (core/orders/request-machine.ts). Issued open; paid once; void when replaced by a
 * new one or when its request is cancelled; expired when unpaid after the days to pay. Its
 * amounts never change (a trigger refuses it): a change is a new invoice.
 */
export const INVOICE_STATUSES = ['open', 'paid', 'void', 'expired'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const INVOICE_EVENTS = ['pay', 'void', 'expire'] as const
export type InvoiceEvent = (typeof INVOICE_EVENTS)[number]

type Rule = { from: readonly InvoiceStatus[]; to: InvoiceStatus; by: readonly ActorKind[] }

export const INVOICE_MACHINE: Readonly<Record<InvoiceEvent, Rule>> = {
  // A verified provider payment, or staff recording a bank transfer.
  pay: { from: ['open'], to: 'paid', by: ['provider', 'staff'] },
  // Replaced by a revised quote (staff), or its request cancelled (customer or staff).
  void: { from: ['open'], to: 'void', by: ['staff', 'customer'] },
  expire: { from: ['open'], to: 'expired', by: ['system'] },
}

export type InvoiceTransition =
  | { ok: true; from: InvoiceStatus; to: InvoiceStatus }
  | { ok: false; refusal: 'already' | 'not_allowed' | 'forbidden' }

export function invoiceTransition(
  state: InvoiceStatus,
  event: InvoiceEvent,
  actor: ActorKind,
): InvoiceTransition {
  const rule = INVOICE_MACHINE[event]
  if (!rule.from.includes(state)) return { ok: false, refusal: state === rule.to ? 'already' : 'not_allowed' }
  if (!rule.by.includes(actor)) return { ok: false, refusal: 'forbidden' }
  return { ok: true, from: state, to: rule.to }
}

export function isInvoiceStatus(value: unknown): value is InvoiceStatus {
  return INVOICE_STATUSES.includes(value as InvoiceStatus)
}
