import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { Executor } from '#db/client.ts'
import {
  invoices,
  payments,
  purchaseRequests,
  refunds,
  requestItems,
  shipmentItems,
  shipments,
} from '#db/schema/index.ts'
import { applyRequestEvent } from './order-events.ts'

/**
 * When a paid request is over (docs/decisions/034-requests-that-finish-and-money-going-back.md):
 * every one of its items has reached an end (`isItemFinished`) and no money of its purchase
 * invoices is still to be settled (no refund due that is not done, no payment held for review).
 * Then the request moves `→ completed` (event `complete`, by the system), in the transaction of
 * the change that ended it, with its history row and the customer told.
 *
 * The changes that can end a request call `completeFinishedRequests` last, inside their own
 * transaction: a shipment delivered (by staff or the customer) or confirmed lost, a refund sent
 * (by hand or through the provider), an item marked unavailable, an item disposed of. A payment
 * held for review or refunded leaves money to settle, so it never ends a request by itself.
 */

/** Why a request completed, stored on its history row (`data.cause`). */
export type CompletionCause =
  | 'shipment_delivered'
  | 'shipment_lost'
  | 'refund_sent'
  | 'item_unavailable'
  | 'item_disposed'

/** The request statuses a request completes from: paid (nothing bought yet) or being worked on. */
const OPEN_STATUSES = ['paid', 'in_progress'] as const

/**
 * Whether one item of a paid request has reached its end: it could not be bought (`unavailable`:
 * its refund is checked with the request's money), it was disposed of, or it was shipped in a
 * shipment that was delivered or confirmed lost (a parcel still travelling is not the end). Items
 * rejected or cancelled never go further either. Anything still to buy, bought, or at our office
 * is open.
 */
export function isItemFinished(status: string, shipmentStatus: string | null): boolean {
  if (status === 'shipped') return shipmentStatus === 'delivered' || shipmentStatus === 'lost'
  return ['unavailable', 'disposed', 'rejected', 'cancelled'].includes(status)
}

/** What `requestIsFinished` reads of a request: its items and its money still to settle. */
export type RequestCompletionFacts = {
  items: readonly { status: string; shipmentStatus: string | null }[]
  /** Yen due back and not yet sent, over every payment of the request's purchase invoices. */
  refundOutstandingJpy: number
  /** Payments of those invoices held for an admin's review. */
  heldPayments: number
}

/** Pure: the rule, for the unit test and the service alike. A request with no items never finishes. */
export function requestIsFinished(facts: RequestCompletionFacts): boolean {
  return (
    facts.items.length > 0 &&
    facts.items.every((item) => isItemFinished(item.status, item.shipmentStatus)) &&
    facts.refundOutstandingJpy <= 0 &&
    facts.heldPayments === 0
  )
}

/** Reads the facts of one request inside the caller's transaction. */
export async function requestCompletionFacts(
  tx: Executor,
  requestId: string,
): Promise<RequestCompletionFacts> {
  // One after the other: a transaction is one connection.
  const items = await tx
    .select({ status: requestItems.status, shipmentStatus: shipments.status })
    .from(requestItems)
    .leftJoin(shipmentItems, and(eq(shipmentItems.itemId, requestItems.id), eq(shipmentItems.active, true)))
    .leftJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(eq(requestItems.requestId, requestId))
  const [money] = await tx
    .select({
      outstanding: sql<string>`coalesce(sum(case when ${refunds.status} = 'due' then ${refunds.amountJpy} else -${refunds.amountJpy} end), 0)`,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(eq(invoices.requestId, requestId))
  const [held] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(invoices.requestId, requestId), eq(payments.status, 'held')))
  return {
    items,
    refundOutstandingJpy: Number(money?.outstanding ?? 0),
    heldPayments: held?.count ?? 0,
  }
}

/**
 * Completes each of these requests that is paid or being worked on and now finished, inside the
 * caller's transaction (the requests are locked in id order, after whatever the caller locked:
 * the order every order service keeps, a shipment before its requests). Requests in any other
 * state, or not finished, are left alone.
 * @returns the completed requests' new versions, by id.
 */
export async function completeFinishedRequests(
  tx: Executor,
  jobs: AppJobEnqueuer,
  requestIds: Iterable<string>,
  cause: CompletionCause,
): Promise<Map<string, number>> {
  const ids = [...new Set(requestIds)].sort()
  const completed = new Map<string, number>()
  if (ids.length === 0) return completed
  const open = await tx
    .select({ id: purchaseRequests.id })
    .from(purchaseRequests)
    .where(and(inArray(purchaseRequests.id, ids), inArray(purchaseRequests.status, [...OPEN_STATUSES])))
    .orderBy(asc(purchaseRequests.id))
    .for('update')
  for (const { id } of open) {
    if (!requestIsFinished(await requestCompletionFacts(tx, id))) continue
    const applied = await applyRequestEvent(tx, {
      requestId: id,
      event: 'complete',
      actor: { kind: 'system', id: null },
      data: { cause },
      set: { closedAt: new Date() },
    })
    await notifyCustomer(tx, jobs, {
      userId: applied.userId,
      type: 'request_completed',
      params: { number: applied.number },
      requestId: id,
    })
    completed.set(id, applied.version)
  }
  return completed
}

/** The requests whose items travel in this shipment (to complete them when it ends). */
export async function requestsInShipment(tx: Executor, shipmentId: string): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ requestId: requestItems.requestId })
    .from(shipmentItems)
    .innerJoin(requestItems, eq(requestItems.id, shipmentItems.itemId))
    .where(and(eq(shipmentItems.shipmentId, shipmentId), eq(shipmentItems.active, true)))
  return rows.map((row) => row.requestId)
}
