import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { recordAudit } from '#core/audit/audit-log.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { REQUEST_ENTITY } from '#core/orders/order-events.ts'
import { freeText, id, version } from '#core/orders/quote-schemas.ts'
import { bumpVersion, lockRequest } from '#core/orders/quote-service.ts'
import { completeFinishedRequests } from '#core/orders/request-completion.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import { recordOrderEvent } from '#core/shared/history.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import type { Executor } from '#db/client.ts'
import { invoiceLines, invoices, payments, refunds, requestItems } from '#db/schema/index.ts'

/**
 * An item the shop could not supply after the customer paid (docs/decisions/027): an admin marks
 * it unavailable and its money is owed back: its price, its service fee, its domestic shipping
 * (never spent) and its share of the tax, from the paid invoice's frozen lines. The refund is a
 * `due` row on the payment that paid the invoice, as for a duplicate payment (ADR 021): the admin
 * returns it at the provider or the bank and marks it done on the request page. Admins only
 * (money), one transaction with the history, the audit record and the customer's notification.
 */

export const MarkUnavailableSchema = z.object({
  id,
  version,
  itemId: id,
  reason: freeText(1000, 'reasonTooLong', { required: 'reasonRequired' }),
})

/**
 * The refund for one item of a paid invoice: its lines, and its share of the tax such that the
 * shares of every item refunded so far add up to the tax of their taxable amounts, rounded down
 * once (all items refunded: exactly the invoice's tax).
 */
export function itemRefundJpy(input: {
  lines: readonly { itemId: string | null; kind: string; amountJpy: number }[]
  itemId: string
  /** Items of this invoice refunded before (unavailable earlier). */
  refundedItemIds: readonly string[]
  taxJpy: number
  taxableJpy: number
}): number {
  const taxableOf = (ids: readonly string[]) =>
    input.lines
      .filter(
        (line) => line.itemId !== null && ids.includes(line.itemId) && line.kind !== 'domestic_shipping',
      )
      .reduce((sum, line) => sum + line.amountJpy, 0)
  const own = input.lines
    .filter((line) => line.itemId === input.itemId)
    .reduce((sum, line) => sum + line.amountJpy, 0)
  if (input.taxableJpy <= 0) return own
  const before = taxableOf(input.refundedItemIds)
  const after = before + taxableOf([input.itemId])
  const share =
    Math.floor((input.taxJpy * after) / input.taxableJpy) -
    Math.floor((input.taxJpy * before) / input.taxableJpy)
  return own + share
}

/**
 * @throws AppError `unauthorized`, `forbidden` (not an admin), `invalid`, `not_found`, `conflict`
 * (`requestChanged`; `requestNotAllowed`: not paid; `itemNotReceivable`: already received or
 * unavailable, or not this request's).
 */
export async function markItemUnavailable(
  { db, actor, jobs }: OrderContext,
  input: unknown,
): Promise<{ refundJpy: number; version: number }> {
  const admin = staffActor(actor, 'record_payment')
  const data = parse(MarkUnavailableSchema, input)
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, data.id, data.version)
    if (request.status !== 'paid' && request.status !== 'in_progress') {
      throw new AppError('conflict', `Request ${request.id} is ${request.status}`, {
        reason: 'requestNotAllowed',
      })
    }
    const item = await lockItem(tx, request.id, data.itemId)
    const { invoice, payment } = await lockPaidInvoice(tx, request.id, item.id)
    const refundJpy = await refundOfItem(tx, request.id, item.id, invoice)
    const now = new Date()
    await tx
      .update(requestItems)
      .set({ status: 'unavailable', updatedAt: now })
      .where(eq(requestItems.id, item.id))
    await tx.insert(refunds).values({
      paymentId: payment.id,
      amountJpy: refundJpy,
      status: 'due',
      reason: `item ${item.position} unavailable: ${data.reason ?? ''}`.slice(0, 1000),
      recordedBy: admin.id,
    })
    await setIfVersion(tx, payments, { id: payment.id, set: {}, at: now })
    const nextVersion = await bumpVersion(tx, request)
    await recordOrderEvent(tx, {
      entityType: REQUEST_ENTITY,
      entityId: request.id,
      event: 'item_unavailable',
      actor: admin,
      note: data.reason ?? null,
      data: { position: item.position, refundJpy, invoice: invoice.number },
    })
    await recordAudit(tx, {
      actorId: admin.id ?? null,
      kind: 'item.unavailable',
      subject: { type: 'purchase_request', id: request.id },
      before: { item: item.position, status: item.status },
      after: { item: item.position, status: 'unavailable', refundJpy, reason: data.reason ?? '' },
    })
    await notifyCustomer(tx, jobs, {
      userId: request.userId,
      type: 'item_unavailable',
      params: { number: request.number, position: item.position, refundJpy, reason: data.reason ?? '' },
      requestId: request.id,
    })
    // Its refund is due now, so the request is not over yet: unless nothing was owed back.
    const completed = await completeFinishedRequests(tx, jobs, [request.id], 'item_unavailable')
    return { refundJpy, version: completed.get(request.id) ?? nextVersion }
  })
}

/** Locks the request's item; refuses one not this request's, or no longer to buy or ordered. */
async function lockItem(tx: Executor, requestId: string, itemId: string) {
  const [item] = await tx
    .select({ id: requestItems.id, status: requestItems.status, position: requestItems.position })
    .from(requestItems)
    .where(and(eq(requestItems.id, itemId), eq(requestItems.requestId, requestId)))
    .for('update')
  if (!item || (item.status !== 'to_buy' && item.status !== 'ordered')) {
    throw new AppError('conflict', `Item ${itemId} cannot be marked unavailable`, {
      reason: 'itemNotReceivable',
    })
  }
  return item
}

/** Locks the item's invoice and payment, in that order: a paid request without them is a bug. */
async function lockPaidInvoice(tx: Executor, requestId: string, itemId: string) {
  // The paid purchase invoice that charged for it, and the payment that paid it.
  const [invoice] = await tx
    .select({
      id: invoices.id,
      number: invoices.number,
      taxJpy: invoices.taxJpy,
      taxableJpy: invoices.taxableJpy,
    })
    .from(invoices)
    .innerJoin(invoiceLines, eq(invoiceLines.invoiceId, invoices.id))
    .where(
      and(
        eq(invoices.requestId, requestId),
        eq(invoices.kind, 'purchase'),
        eq(invoices.status, 'paid'),
        eq(invoiceLines.itemId, itemId),
      ),
    )
    .limit(1)
    .for('update', { of: invoices })
  const [payment] = invoice
    ? await tx
        .select({ id: payments.id, provider: payments.provider })
        .from(payments)
        .where(and(eq(payments.invoiceId, invoice.id), eq(payments.status, 'succeeded')))
        .limit(1)
        .for('update')
    : []
  if (!invoice || !payment)
    throw new Error(`Paid request ${requestId} has no paid invoice for item ${itemId}`)
  return { invoice, payment }
}

/** What the item's refund is: its lines of the invoice and its share of the tax (`itemRefundJpy`). */
async function refundOfItem(
  tx: Executor,
  requestId: string,
  itemId: string,
  invoice: { id: string; taxJpy: number; taxableJpy: number },
): Promise<number> {
  const [lines, refunded] = await Promise.all([
    tx
      .select({ itemId: invoiceLines.itemId, kind: invoiceLines.kind, amountJpy: invoiceLines.amountJpy })
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice.id)),
    tx
      .select({ id: requestItems.id })
      .from(requestItems)
      .where(and(eq(requestItems.requestId, requestId), eq(requestItems.status, 'unavailable'))),
  ])
  return itemRefundJpy({
    lines,
    itemId,
    refundedItemIds: refunded.map((row) => row.id),
    taxJpy: invoice.taxJpy,
    taxableJpy: invoice.taxableJpy,
  })
}
