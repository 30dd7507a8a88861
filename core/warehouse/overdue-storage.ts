import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { recordAudit } from '#core/audit/audit-log.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { REQUEST_ENTITY } from '#core/orders/order-events.ts'
import { completeFinishedRequests } from '#core/orders/request-completion.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import { recordOrderEvent } from '#core/shared/history.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import { packages, purchaseRequests, requestItems, shipmentItems, users } from '#db/schema/index.ts'
import { DisposeItemSchema } from './disposal-schemas.ts'
import { storageCountdown } from './storage.ts'

/**
 * Items left at the office after their free storage (docs/decisions/031): staff see them, the
 * longest over first, with the day each may be disposed of (the `disposalAfterDays` setting after
 * the last free day); past it, an admin may dispose of one, with a reason: the item becomes
 * `disposed` (it can no longer be shipped), the request's history and the audit log say so, and
 * the customer is told. Items waiting in a shipment request are not over: their clock is paused.
 */

/** The longest over first, this many: the office's next jobs (ADR 031; measured in bench:orders). */
export const OVERDUE_PAGE_SIZE = 50

export type OverdueItem = {
  id: string
  requestId: string
  requestNumber: string
  position: number
  title: string | null
  shopHost: string
  customerName: string
  customerEmail: string
  packageNumber: string | null
  shelf: string | null
  receivedAt: Date
  /** The last free day (YYYY-MM-DD, Japan) and the days since. */
  freeUntil: string
  daysOver: number
  /** Days until it may be disposed of (0: it may be now). */
  daysToDisposal: number
}

const DAY_MS = 86_400_000

/**
 * Every item at the office whose free storage has ended and that waits in no shipment request,
 * the longest over first (at most `OVERDUE_PAGE_SIZE`), for staff who handle the warehouse.
 */
export async function listOverdueItems(
  { db, actor, settings }: OrderContext,
  now: Date = new Date(),
): Promise<{ items: OverdueItem[]; disposalAfterDays: number }> {
  staffActor(actor, 'handle_arrivals')
  const { freeStorageDays, disposalAfterDays } = await settings.get()
  // A first cut in SQL (arrived before the free days, plus any days given back, could have
  // passed), the exact Japan-calendar count in storageCountdown.
  const rows = await db
    .select({
      id: requestItems.id,
      requestId: requestItems.requestId,
      requestNumber: purchaseRequests.number,
      position: requestItems.position,
      title: requestItems.title,
      shopHost: requestItems.shopHost,
      customerName: users.name,
      customerEmail: users.email,
      packageNumber: packages.number,
      shelf: packages.shelf,
      receivedAt: requestItems.receivedAt,
      pausedDays: requestItems.storagePausedDays,
    })
    .from(requestItems)
    .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
    .innerJoin(users, eq(users.id, purchaseRequests.userId))
    .leftJoin(packages, eq(packages.id, requestItems.packageId))
    .where(
      and(
        eq(requestItems.status, 'received'),
        isNull(requestItems.reservedAt),
        sql`${requestItems.receivedAt} < ${new Date(now.getTime() - (freeStorageDays - 1) * DAY_MS).toISOString()}::timestamptz - ${requestItems.storagePausedDays} * interval '1 day'`,
      ),
    )
    .orderBy(asc(requestItems.receivedAt), asc(requestItems.id))
    .limit(OVERDUE_PAGE_SIZE * 2)
  const items = rows.flatMap(({ receivedAt, pausedDays, ...row }) => {
    if (!receivedAt) return []
    const countdown = storageCountdown(receivedAt, now, freeStorageDays, { pausedDays })
    if (!countdown.expired) return []
    const daysOver = -countdown.daysLeft
    return [
      {
        ...row,
        receivedAt,
        freeUntil: countdown.freeUntil,
        daysOver,
        daysToDisposal: Math.max(0, disposalAfterDays - daysOver),
      },
    ]
  })
  return {
    items: items.sort((a, b) => b.daysOver - a.daysOver).slice(0, OVERDUE_PAGE_SIZE),
    disposalAfterDays,
  }
}

/**
 * An admin disposes of an item left past its last day, with the reason.
 * @throws AppError `unauthorized`, `forbidden` (not an admin), `invalid` (reason), `not_found`,
 * `conflict` (`itemNotDisposable`: not at the office, waiting in a shipment, or not past its last
 * day yet).
 */
export async function disposeItem(
  { db, actor, jobs, settings }: OrderContext,
  input: unknown,
  now: Date = new Date(),
): Promise<void> {
  const admin = staffActor(actor, 'dispose_items')
  const data = parse(DisposeItemSchema, input, 'itemInvalid')
  const { freeStorageDays, disposalAfterDays } = await settings.get()
  await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ requestId: requestItems.requestId })
      .from(requestItems)
      .where(eq(requestItems.id, data.itemId))
    if (!found) throw new AppError('not_found', `Item ${data.itemId} not found`, { reason: 'itemNotFound' })
    // The lock order of every request change: the request, then its items.
    const [request] = await tx
      .select({ id: purchaseRequests.id, number: purchaseRequests.number, userId: purchaseRequests.userId })
      .from(purchaseRequests)
      .where(eq(purchaseRequests.id, found.requestId))
      .for('update')
    const [item] = await tx
      .select({
        status: requestItems.status,
        position: requestItems.position,
        title: requestItems.title,
        receivedAt: requestItems.receivedAt,
        reservedAt: requestItems.reservedAt,
        pausedDays: requestItems.storagePausedDays,
      })
      .from(requestItems)
      .where(eq(requestItems.id, data.itemId))
      .for('update')
    if (!request || !item)
      throw new AppError('not_found', `Item ${data.itemId} not found`, { reason: 'itemNotFound' })
    const [waiting] = await tx
      .select({ id: shipmentItems.shipmentId })
      .from(shipmentItems)
      .where(and(eq(shipmentItems.itemId, data.itemId), eq(shipmentItems.active, true)))
    const countdown =
      item.receivedAt &&
      storageCountdown(item.receivedAt, now, freeStorageDays, { pausedDays: item.pausedDays })
    const daysOver = countdown ? -countdown.daysLeft : 0
    if (
      item.status !== 'received' ||
      item.reservedAt ||
      waiting ||
      !countdown ||
      daysOver < disposalAfterDays
    ) {
      throw new AppError('conflict', `Item ${data.itemId} cannot be disposed of`, {
        reason: 'itemNotDisposable',
      })
    }
    await tx
      .update(requestItems)
      .set({ status: 'disposed', updatedAt: now })
      .where(eq(requestItems.id, data.itemId))
    await setIfVersion(tx, purchaseRequests, { id: request.id, set: {}, at: now })
    await recordOrderEvent(tx, {
      entityType: REQUEST_ENTITY,
      entityId: request.id,
      event: 'item_disposed',
      actor: admin,
      note: data.reason ?? null,
      data: { position: item.position, daysOver },
    })
    await recordAudit(tx, {
      actorId: admin.id ?? null,
      kind: 'item.dispose',
      subject: { type: 'purchase_request', id: request.id },
      before: { item: item.position, status: 'received' },
      after: { item: item.position, status: 'disposed', daysOver, reason: data.reason ?? '' },
    })
    await notifyCustomer(tx, jobs, {
      userId: request.userId,
      type: 'item_disposed',
      params: { number: request.number, position: item.position, days: daysOver, reason: data.reason ?? '' },
      requestId: request.id,
    })
    // Its last item gone: the request is over (docs/decisions/034).
    await completeFinishedRequests(tx, jobs, [request.id], 'item_disposed')
  })
}
