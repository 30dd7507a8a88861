import { and, eq, inArray } from 'drizzle-orm'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { notifyCustomer, notifyStaff } from '#core/notifications/notify.ts'
import { japanDaysBetween } from '#core/warehouse/storage.ts'
import type { Executor } from '#db/client.ts'
import { invoices, requestItems, shipmentItems } from '#db/schema/index.ts'

/**
 * The steps of cancelling a shipment (`cancelShipment` in shipment-service.ts), each inside its
 * transaction: the receipt to void, the items back in storage, who is told.
 */

/** The open shipping receipt of a packed shipment, if it has one. */
export async function openReceiptOf(tx: Executor, shipmentId: string) {
  return (
    await tx
      .select({ id: invoices.id, number: invoices.number, totalJpy: invoices.totalJpy })
      .from(invoices)
      .where(and(eq(invoices.shipmentId, shipmentId), eq(invoices.status, 'open')))
  )[0]
}

/**
 * Takes the shipment's items out of it and back to storage: their reservation cleared and the
 * days they waited given back to their free storage (the items locked first).
 */
export async function releaseItems(tx: Executor, shipmentId: string, now: Date) {
  const released = await tx
    .update(shipmentItems)
    .set({ active: false })
    .where(and(eq(shipmentItems.shipmentId, shipmentId), eq(shipmentItems.active, true)))
    .returning({ itemId: shipmentItems.itemId })
  const held = released.length
    ? await tx
        .select({
          id: requestItems.id,
          reservedAt: requestItems.reservedAt,
          paused: requestItems.storagePausedDays,
        })
        .from(requestItems)
        .where(
          inArray(
            requestItems.id,
            released.map((row) => row.itemId),
          ),
        )
        .for('update')
    : []
  for (const item of held) {
    await tx
      .update(requestItems)
      .set({
        reservedAt: null,
        storagePausedDays: item.paused + (item.reservedAt ? japanDaysBetween(item.reservedAt, now) : 0),
        updatedAt: now,
      })
      .where(eq(requestItems.id, item.id))
  }
}

/** Tells the customer who cancelled the shipment and why; staff too when the customer did. */
export async function tellCancelled(
  tx: Executor,
  jobs: AppJobEnqueuer,
  cancelled: {
    id: string
    shipment: { number: string; userId: string }
    byStaff: boolean
    reason: string | null | undefined
    receipt: { number: string; totalJpy: number } | undefined
  },
) {
  const { id, shipment, byStaff, reason, receipt } = cancelled
  await notifyCustomer(tx, jobs, {
    userId: shipment.userId,
    type: byStaff ? 'shipment_cancelled' : 'shipment_cancelled_by_you',
    params: {
      number: shipment.number,
      ...(reason ? { reason } : {}),
      ...(receipt ? { invoice: receipt.number, invoiceJpy: receipt.totalJpy } : {}),
    },
    link: `/user-dashboard/shipments/${id}`,
  })
  // The customer changed their mind: staff stop packing it, and read why (ADR 036).
  if (!byStaff) {
    await notifyStaff(tx, jobs, {
      type: 'shipment_cancelled_by_customer',
      params: {
        number: shipment.number,
        ...(reason ? { reason } : {}),
        ...(receipt ? { invoice: receipt.number, variant: 'receipt' } : {}),
      },
      link: `/admin-dashboard/shipments/${id}`,
    })
  }
}
