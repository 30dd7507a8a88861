import { and, eq, isNotNull } from 'drizzle-orm'
import { balanceAppliedSql } from '#core/balance-ledger/ledger.ts'
import { applyInvoiceEvent } from '#core/billing/invoice-service.ts'
import { ownerOf, ownerPaths, type PaymentOwner } from '#core/billing/payment-owner.ts'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { notifyCustomer, notifyStaff } from '#core/notifications/notify.ts'
import type { OrderDeps } from '#core/orders/order-context.ts'
import { applyRequestEvent } from '#core/orders/order-events.ts'
import { moveItems } from '#core/orders/request-items.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { applyShipmentEvent } from '#core/shipping/shipment-events.ts'
import type { Database, Executor } from '#db/client.ts'
import { invoiceLines, invoices, payments, purchaseRequests, refunds, shipments } from '#db/schema/index.ts'
import { formatLocal, LOCAL_METHOD_LABELS, type LocalMethodId } from './local-methods.ts'
import { applyPaymentEvent, applyPaymentEventIfAllowed } from './payment-events.ts'
import {
  isPaymentStatus,
  type PaymentEvent,
  type PaymentStatus,
  paymentTransition,
} from './payment-machine.ts'
import type { PaymentOutcome, PaymentProvider, ProviderName } from './provider.ts'

/**
 * Settling: what a provider reports about one of our checkouts, applied once (see
 * payment-service.ts for the whole of paying), and what every way of paying shares: an invoice
 * paid with its owner (a request and its items, or a shipment) and the customer told. docs/decisions/021, "Payments".
 */

/** Thrown (`unauthorized`, by `requireActor`) to anyone not signed in. */
export const PAYMENTS_NEED_SIGN_IN = 'Payments need a signed-in user'

/** What webhooks and the scheduled job have: the order dependencies and the database, no actor. */
export type PaymentSystemDeps = Omit<OrderDeps, 'files'> & { db: Database }

export type SettleSource = 'return' | 'webhook' | 'reconcile'

/**
 * What a provider's report did: `paid` (this payment paid the invoice), `held`, `duplicate`,
 * `failed`, `pending` (nothing to do yet), `unchanged` (already settled: a replay), `unknown`
 * (no payment of ours has that reference).
 */
export type SettleResult = {
  result: 'paid' | 'held' | 'duplicate' | 'failed' | 'pending' | 'unchanged' | 'unknown'
  paymentId: string | null
  /** What the invoice paid for (null: an unknown payment). */
  owner: PaymentOwner | null
  /** The payment's status after the report. */
  status: PaymentStatus | null
}

export const PROVIDER_ACTOR: OrderActor = { kind: 'provider', id: null }

export function providerOf(deps: Pick<OrderDeps, 'payments'>, name: string): PaymentProvider | null {
  return deps.payments.find((provider) => provider.name === name) ?? null
}

export const invoiceNotFound = (id: string) =>
  new AppError('not_found', `Invoice ${id} not found`, { reason: 'invoiceNotFound' })

/**
 * The invoice and its owner (the request, or the shipment). With `lock`, inside a transaction,
 * both rows are locked (FOR UPDATE) in the order every order service takes them
 * (docs/decisions/021, 029): the owner, then the invoice; a payment, when one is locked too,
 * comes after.
 */
export async function invoiceWithOwner(tx: Executor, invoiceId: string, lock: boolean) {
  if (lock) {
    const [found] = await tx
      .select({ requestId: invoices.requestId, shipmentId: invoices.shipmentId })
      .from(invoices)
      .where(eq(invoices.id, invoiceId))
    if (!found) return null
    const owner = ownerOf(found)
    if (owner.kind === 'request') {
      await tx
        .select({ id: purchaseRequests.id })
        .from(purchaseRequests)
        .where(eq(purchaseRequests.id, owner.id))
        .for('update')
    } else {
      await tx.select({ id: shipments.id }).from(shipments).where(eq(shipments.id, owner.id)).for('update')
    }
  }
  const query = tx
    .select({
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      version: invoices.version,
      totalJpy: invoices.totalJpy,
      creditAppliedJpy: invoices.creditAppliedJpy,
      balanceAppliedJpy: balanceAppliedSql(),
      locale: invoices.locale,
      userId: invoices.userId,
      requestId: invoices.requestId,
      shipmentId: invoices.shipmentId,
      requestNumber: purchaseRequests.number,
      requestStatus: purchaseRequests.status,
      shipmentNumber: shipments.number,
      shipmentStatus: shipments.status,
    })
    .from(invoices)
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, invoices.requestId))
    .leftJoin(shipments, eq(shipments.id, invoices.shipmentId))
    .where(eq(invoices.id, invoiceId))
  const [row] = lock ? await query.for('update', { of: invoices }) : await query
  if (!row) return null
  const { requestId, shipmentId, requestNumber, requestStatus, shipmentNumber, shipmentStatus, ...invoice } =
    row
  return {
    ...invoice,
    /**
     * What is left to pay: the total, less the credit a re-issued receipt carries over from the
     * one it replaced (docs/decisions/037) and the part paid from the customer's balance
     * (docs/decisions/050); every way of paying asks for exactly this.
     */
    balanceAppliedJpy: Number(invoice.balanceAppliedJpy),
    dueJpy: invoice.totalJpy - invoice.creditAppliedJpy - Number(invoice.balanceAppliedJpy),
    owner: ownerOf({ requestId, shipmentId }),
    /** The request's or the shipment's number (R-…, SH-…), as the customer knows it. */
    ownerNumber: requestNumber ?? shipmentNumber ?? '',
    ownerStatus: requestStatus ?? shipmentStatus ?? '',
  }
}

export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof invoiceWithOwner>>>

/**
 * Whether a shipment waits for its shipping receipt: packed; or, for a receipt re-issued higher
 * after the first one was paid (credit carried over, the rest to pay: docs/decisions/037), while
 * the parcel is paid, on its way or delivered.
 */
export function shipmentAwaitsReceipt(shipmentStatus: string, creditAppliedJpy: number): boolean {
  if (shipmentStatus === 'packed') return true
  return creditAppliedJpy > 0 && ['paid', 'shipped', 'delivered'].includes(shipmentStatus)
}

/** Whether the invoice's owner waits for it to be paid: a request `quoted`, a shipment `packed` (or see above). */
export function ownerAwaitsPayment(invoice: InvoiceRow): boolean {
  return invoice.owner.kind === 'request'
    ? invoice.ownerStatus === 'quoted'
    : shipmentAwaitsReceipt(invoice.ownerStatus, invoice.creditAppliedJpy)
}

/** Refuses paying an invoice that is not open, or whose owner no longer waits for payment. */
export function assertPayable(invoice: InvoiceRow) {
  if (invoice.status === 'paid') {
    throw new AppError('conflict', `Invoice ${invoice.number} is already paid`, { reason: 'invoicePaid' })
  }
  if (invoice.status !== 'open' || !ownerAwaitsPayment(invoice)) {
    throw new AppError('conflict', `Invoice ${invoice.number} is ${invoice.status}`, {
      reason: 'invoiceNotPayable',
    })
  }
}

export function moveOf(state: PaymentStatus | null, event: PaymentEvent, actor: OrderActor['kind']) {
  const step = paymentTransition(state, event, actor)
  if (!step.ok)
    throw new Error(`The payment machine refuses ${event} from ${state} by ${actor}: ${step.refusal}`)
  return step
}

/**
 * The invoice paid and its request moved to paid, with their history, the items to buy and the
 * customer told: the same whether a provider or an admin (a bank transfer) paid it. The invoice
 * row is locked by the caller; its version is compared and set.
 */
export async function payInvoice(
  tx: Executor,
  jobs: AppJobEnqueuer,
  invoice: InvoiceRow,
  payment: { id: string; provider: string; amountJpy: number },
  actor: OrderActor,
) {
  const paidAt = new Date()
  const paid = await applyInvoiceEvent(tx, {
    invoiceId: invoice.id,
    event: 'pay',
    actor,
    at: paidAt,
    expectedVersion: invoice.version,
    data: { paymentId: payment.id, provider: payment.provider },
  })
  if (!paid) throw new Error(`Invoice ${invoice.number} is paid already`)
  const { owner } = invoice
  if (owner.kind === 'shipment') {
    if (invoice.ownerStatus === 'packed') {
      await applyShipmentEvent(tx, {
        shipmentId: owner.id,
        event: 'pay',
        actor,
        set: { paidAt },
        data: { invoiceId: invoice.id, paymentId: payment.id, provider: payment.provider },
      })
    } else {
      // The rest of a receipt re-issued after the shipment was paid: the shipment does not move;
      // its history says the receipt is settled.
      await recordOrderEvent(tx, {
        entityType: 'shipment',
        entityId: owner.id,
        event: 'receipt_paid',
        from: invoice.ownerStatus,
        to: invoice.ownerStatus,
        actor,
        data: { invoiceId: invoice.id, invoiceNumber: invoice.number, paymentId: payment.id },
      })
    }
    await notifyCustomer(tx, jobs, {
      userId: invoice.userId,
      type: 'shipment_paid',
      params: { number: invoice.ownerNumber, amountJpy: payment.amountJpy },
      link: ownerPaths(owner).customer,
    })
    await tellStaffPaid(tx, jobs, invoice, payment, actor)
    return
  }
  await applyRequestEvent(tx, {
    requestId: owner.id,
    event: 'pay',
    actor,
    set: { paidAt },
    data: { invoiceId: invoice.id, paymentId: payment.id, provider: payment.provider },
  })
  // The items this invoice charges for are now ours to buy.
  const lines = await tx
    .select({ itemId: invoiceLines.itemId })
    .from(invoiceLines)
    .where(
      and(
        eq(invoiceLines.invoiceId, invoice.id),
        eq(invoiceLines.kind, 'item'),
        isNotNull(invoiceLines.itemId),
      ),
    )
  await moveItems(tx, {
    requestId: owner.id,
    event: 'pay',
    actor,
    at: paidAt,
    itemIds: lines.flatMap((line) => (line.itemId ? [line.itemId] : [])),
  })
  await notifyCustomer(tx, jobs, {
    userId: invoice.userId,
    type: 'payment_received',
    params: { number: invoice.ownerNumber, amountJpy: payment.amountJpy },
    requestId: owner.id,
  })
  await tellStaffPaid(tx, jobs, invoice, payment, actor)
}

/**
 * Staff hear of money that came in without them: a quote paid online (its items are to buy) or a
 * shipping receipt paid online (the box is to send). A payment an admin recorded or accepted
 * tells no one: they are the one who knows (docs/decisions/036).
 */
async function tellStaffPaid(
  tx: Executor,
  jobs: AppJobEnqueuer,
  invoice: InvoiceRow,
  payment: { provider: string; amountJpy: number },
  actor: OrderActor,
) {
  if (actor.kind === 'staff') return
  const { owner } = invoice
  await notifyStaff(tx, jobs, {
    type: owner.kind === 'shipment' ? 'shipping_paid' : 'quote_paid',
    params: {
      number: invoice.ownerNumber,
      invoice: invoice.number,
      amountJpy: payment.amountJpy,
      provider: PROVIDER_LABELS[payment.provider as ProviderName] ?? payment.provider,
    },
    link: ownerPaths(owner).staff,
    requestId: owner.kind === 'request' ? owner.id : null,
  })
}

// ---------------------------------------------------------------------------------------------
// Settling: what a provider reports
// ---------------------------------------------------------------------------------------------

/**
 * Applies what a provider reports about one of our checkouts, in one transaction (see
 * `settleWithin`). Idempotent: any number of calls with the same report, from any source, in
 * any order and at the same time, settle the payment once.
 */
export function settlePayment(
  deps: PaymentSystemDeps,
  provider: ProviderName,
  outcome: PaymentOutcome,
  source: SettleSource,
): Promise<SettleResult> {
  return deps.db.transaction((tx) => settleWithin(tx, deps.jobs, provider, outcome, source))
}

/**
 * Inside the caller's transaction: locks the payment's request, invoice and the payment itself
 * (in that order, as every order service does), and applies the machine:
 * - the invoice's amount in yen on an open invoice of a request waiting to be paid → `succeeded`,
 *   the invoice and the request paid, the items to buy, the customer told;
 * - another amount or currency, a report about another invoice, or an invoice no longer payable
 *   (void, expired, its request cancelled) → `held`: staff and the customer are told, the
 *   invoice stays as it is;
 * - the right amount for an invoice another payment has paid → `duplicate` and a refund due,
 *   staff told;
 * - declined or expired → `failed` (the customer may try again);
 * - a payment already settled → nothing (`unchanged`).
 */
export async function settleWithin(
  tx: Executor,
  jobs: AppJobEnqueuer,
  providerName: ProviderName,
  outcome: PaymentOutcome,
  source: SettleSource,
): Promise<SettleResult> {
  const found = await findReported(tx, providerName, outcome.providerRef)
  if (!found) return { result: 'unknown', paymentId: null, owner: null, status: null }
  const base = { paymentId: found.id, owner: ownerOf(found) }
  if (outcome.status === 'pending') {
    const [current] = await tx
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.id, found.id))
    const state = isPaymentStatus(current?.status) ? current.status : null
    return { ...base, result: state === 'pending' ? 'pending' : 'unchanged', status: state }
  }
  const { invoice, payment, state } = await lockForSettling(tx, found)
  const unchanged = (): SettleResult => ({ ...base, result: 'unchanged', status: state })

  if (outcome.status === 'failed') {
    // A denied or failed capture is no money: its id goes in the history, not on the payment,
    // which keeps room for the capture that completes later (the one a refund must target).
    const failed = await applyPaymentEventIfAllowed(tx, {
      id: payment.id,
      event: 'fail',
      actor: PROVIDER_ACTOR,
      data: { source, ...(outcome.captureRef ? { captureRef: outcome.captureRef } : {}) },
    })
    if (!failed) return unchanged()
    // A voucher (OXXO, SPEI, PIX…) that expired or was cancelled unpaid: the customer is told,
    // and may pay again another way (docs/decisions/051).
    if (payment.voucherReference) await tellVoucherExpired(tx, jobs, invoice, payment)
    return { ...base, result: 'failed', status: failed.to }
  }

  // Money was taken. Only a pending or failed attempt can still learn it.
  if (!paymentTransition(state, 'succeed', 'provider').ok) return unchanged()

  const { event, holdReason, reportedJpy } = settlementOf(outcome, invoice, payment)
  const settledAt = new Date()
  const step = await applyPaymentEvent(tx, {
    id: payment.id,
    event,
    actor: PROVIDER_ACTOR,
    at: settledAt,
    set: {
      captureRef: payment.captureRef ?? outcome.captureRef,
      amount: payment.amount ?? reportedJpy,
      // Taken in local currency at the quote: recorded as the yen asked when it matches.
      currency: payment.currency ?? (reportedJpy !== null ? 'JPY' : outcome.currency),
      settledAt,
    },
    data: {
      source,
      captureRef: outcome.captureRef,
      amount: outcome.amountJpy,
      currency: outcome.currency,
      ...(outcome.local
        ? { localAmount: outcome.local.amountMinor, localCurrency: outcome.local.currency }
        : {}),
      ...(holdReason ? { holdReason } : {}),
    },
  })

  if (event === 'succeed') {
    await payInvoice(
      tx,
      jobs,
      invoice,
      { id: payment.id, provider: providerName, amountJpy: invoice.dueJpy },
      PROVIDER_ACTOR,
    )
    return { ...base, result: 'paid', status: step.to }
  }
  if (event === 'flag_duplicate') {
    await refundDuplicate(tx, jobs, invoice, payment.id, providerName)
    return { ...base, result: 'duplicate', status: step.to }
  }
  await tellHeld(tx, jobs, invoice, outcome)
  return { ...base, result: 'held', status: step.to }
}

/** The customer's voucher expired (or was cancelled) unpaid: told, with the way to pay again. */
async function tellVoucherExpired(
  tx: Executor,
  jobs: AppJobEnqueuer,
  invoice: InvoiceRow,
  payment: { method: string | null; voucherReference: string | null },
) {
  const paths = ownerPaths(invoice.owner)
  await notifyCustomer(tx, jobs, {
    userId: invoice.userId,
    type: 'payment_voucher_expired',
    params: {
      number: invoice.ownerNumber,
      method: LOCAL_METHOD_LABELS[payment.method as LocalMethodId] ?? payment.method ?? '',
      reference: payment.voucherReference ?? '',
    },
    requestId: invoice.owner.kind === 'request' ? invoice.owner.id : null,
    link: paths.customer,
  })
}

/** The payment of ours a provider's report is about (by provider and reference), with its invoice's owner. */
async function findReported(tx: Executor, providerName: ProviderName, providerRef: string) {
  const [found] = await tx
    .select({
      id: payments.id,
      invoiceId: payments.invoiceId,
      requestId: invoices.requestId,
      shipmentId: invoices.shipmentId,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(payments.provider, providerName), eq(payments.providerRef, providerRef)))
  return found
}

/** Locks the payment's owner, its invoice and the payment (in that order) and reads them, with its state. */
async function lockForSettling(tx: Executor, found: { id: string; invoiceId: string }) {
  // The lock order of every order service (docs/decisions/021): the owner, its invoice, the
  // payment. A report racing another (the return and the webhook) waits here and then finds
  // the payment settled.
  const invoice = await invoiceWithOwner(tx, found.invoiceId, true)
  if (!invoice) throw new Error(`Payment ${found.id} has no invoice`)
  const [payment] = await tx.select().from(payments).where(eq(payments.id, found.id)).for('update')
  if (!payment || !isPaymentStatus(payment.status)) throw new Error(`Payment ${found.id} is unreadable`)
  return { invoice, payment, state: payment.status }
}

/** What money taken does to the payment: succeed, hold (and why) or flag a duplicate. */
function settlementOf(
  outcome: PaymentOutcome,
  invoice: InvoiceRow,
  payment: {
    invoiceId: string
    requestedJpy: number
    localCurrency: string | null
    localAmount: number | null
  },
) {
  // A charge in local currency (dLocal, docs/decisions/051) counts as the yen asked only when the
  // provider took exactly the local amount and currency it quoted at checkout.
  const reportedJpy =
    payment.localCurrency !== null
      ? outcome.local &&
        outcome.local.currency === payment.localCurrency &&
        outcome.local.amountMinor === payment.localAmount
        ? payment.requestedJpy
        : null
      : outcome.currency === 'JPY'
        ? outcome.amountJpy
        : null
  const sameMoney =
    reportedJpy !== null && reportedJpy === invoice.dueJpy && reportedJpy === payment.requestedJpy
  const sameInvoice = outcome.invoiceId === null || outcome.invoiceId === payment.invoiceId
  let event: 'succeed' | 'hold' | 'flag_duplicate'
  let holdReason: 'amount' | 'invoice' | 'not_payable' | null = null
  if (!sameMoney) [event, holdReason] = ['hold', 'amount']
  else if (!sameInvoice) [event, holdReason] = ['hold', 'invoice']
  else if (invoice.status === 'paid') event = 'flag_duplicate'
  else if (invoice.status !== 'open' || !ownerAwaitsPayment(invoice))
    [event, holdReason] = ['hold', 'not_payable']
  else event = 'succeed'
  return { event, holdReason, reportedJpy }
}

/** A second payment of a paid invoice: a refund due, staff and the customer told. */
async function refundDuplicate(
  tx: Executor,
  jobs: AppJobEnqueuer,
  invoice: InvoiceRow,
  paymentId: string,
  providerName: ProviderName,
) {
  const paths = ownerPaths(invoice.owner)
  const requestId = invoice.owner.kind === 'request' ? invoice.owner.id : null
  await tx.insert(refunds).values({
    paymentId,
    amountJpy: invoice.dueJpy,
    status: 'due',
    reason: 'duplicate_payment',
  })
  await notifyStaff(tx, jobs, {
    type: 'refund_due',
    params: {
      number: invoice.ownerNumber,
      amountJpy: invoice.dueJpy,
      provider: PROVIDER_LABELS[providerName],
    },
    link: paths.staff,
    requestId,
  })
  // The customer paid twice: told that the second payment goes back (it was money they sent).
  await notifyCustomer(tx, jobs, {
    userId: invoice.userId,
    type: 'payment_refunding',
    // What this payment took and gets back: the amount due, not the total (a part paid from the
    // balance or a credit carried over is not in it).
    params: { number: invoice.ownerNumber, amountJpy: invoice.dueJpy },
    requestId,
    link: paths.customer,
  })
}

/** A payment held for review: staff and the customer told. */
async function tellHeld(tx: Executor, jobs: AppJobEnqueuer, invoice: InvoiceRow, outcome: PaymentOutcome) {
  const paths = ownerPaths(invoice.owner)
  const requestId = invoice.owner.kind === 'request' ? invoice.owner.id : null
  await notifyStaff(tx, jobs, {
    type: 'payment_held',
    params: {
      number: invoice.ownerNumber,
      amount:
        outcome.amountJpy ??
        (outcome.local ? formatLocal(outcome.local.amountMinor, outcome.local.currency, 'en') : '—'),
      currency: outcome.currency ?? '—',
      expectedJpy: invoice.dueJpy,
    },
    link: paths.staff,
    requestId,
  })
  await notifyCustomer(tx, jobs, {
    userId: invoice.userId,
    type: 'payment_review',
    params: { number: invoice.ownerNumber },
    requestId,
    link: paths.customer,
  })
}

/** How staff e-mails name each provider (brand names: the same in every language). */
export const PROVIDER_LABELS: Record<ProviderName | 'manual' | 'balance', string> = {
  paypal: 'PayPal',
  stripe: 'Stripe',
  dlocal: 'dLocal',
  manual: 'bank transfer',
  balance: 'customer balance',
}
