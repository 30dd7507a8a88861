import { isStateOf, type Machine, type Transition, transitionsOf } from '#core/shared/state-machine.ts'

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

export const INVOICE_MACHINE: Machine<InvoiceEvent, InvoiceStatus> = {
  // A verified provider payment, or staff recording a bank transfer.
  pay: { from: ['open'], to: 'paid', by: ['provider', 'staff'] },
  // Replaced by a revised quote (staff), or its request cancelled (customer or staff).
  void: { from: ['open'], to: 'void', by: ['staff', 'customer'] },
  expire: { from: ['open'], to: 'expired', by: ['system'] },
}

export type InvoiceTransition = Transition<InvoiceStatus>

export const invoiceTransition = transitionsOf(INVOICE_MACHINE)

export const isInvoiceStatus = isStateOf(INVOICE_STATUSES)
