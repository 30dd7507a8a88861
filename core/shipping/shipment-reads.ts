import { and, asc, eq, sql } from 'drizzle-orm'
import type { Executor } from '#db/client.ts'
import {
  orderEvents,
  packages,
  purchaseRequests,
  requestItems,
  shipmentItems,
  shipments,
  users,
} from '#db/schema/index.ts'
import { SHIPMENT_ENTITY } from './shipment-events.ts'
import { isShipmentStatus } from './shipment-machine.ts'
import type { ShipmentDetail, ShipmentSummary } from './shipment-service.ts'
import { isCarrier } from './tracking.ts'

/**
 * The reads of the shipment views of shipment-service.ts: a summary's columns and its shape, and
 * one shipment's detail (its row, lines, history and customer, then shaped for who asks).
 */

export const summaryColumns = {
  id: shipments.id,
  number: shipments.number,
  status: shipments.status,
  method: shipments.method,
  country: shipments.country,
  estimatedWeightG: shipments.estimatedWeightG,
  estimatedPriceJpy: shipments.estimatedPriceJpy,
  estimatedStorageFeeJpy: shipments.estimatedStorageFeeJpy,
  estimatedTaxJpy: shipments.estimatedTaxJpy,
  requestedAt: shipments.requestedAt,
  items: sql<number>`(select count(*)::int from ${shipmentItems} where ${shipmentItems.shipmentId} = ${shipments.id})`,
}

export function summary(
  row: Omit<ShipmentSummary, 'status' | 'method'> & { status: string; method: string },
): ShipmentSummary {
  return {
    ...row,
    status: isShipmentStatus(row.status) ? row.status : 'requested',
    method: row.method === 'express' ? 'express' : 'economic',
  }
}

/** One shipment's row for its detail: the summary, its owner, packing and tracking. */
export async function readShipmentRow(db: Executor, id: string) {
  const [row] = await db
    .select({
      ...summaryColumns,
      version: shipments.version,
      address: shipments.address,
      route: shipments.route,
      region: shipments.region,
      userId: shipments.userId,
      packedWeightG: shipments.packedWeightG,
      lengthCm: shipments.lengthCm,
      widthCm: shipments.widthCm,
      heightCm: shipments.heightCm,
      priceJpy: shipments.priceJpy,
      ratePriceJpy: shipments.ratePriceJpy,
      priceReason: shipments.priceReason,
      boxPhotoKey: shipments.boxPhotoKey,
      packedAt: shipments.packedAt,
      carrier: shipments.carrier,
      trackingNumber: shipments.trackingNumber,
      shippedAt: shipments.shippedAt,
      deliveredAt: shipments.deliveredAt,
    })
    .from(shipments)
    .where(eq(shipments.id, id))
  return row
}

/** A shipment's lines, its history (the customer's part of it, for the customer) and, for staff, its customer. */
export function readShipmentParts(db: Executor, id: string, userId: string, staff: boolean) {
  return Promise.all([
    db
      .select({
        id: requestItems.id,
        requestId: requestItems.requestId,
        requestNumber: purchaseRequests.number,
        position: requestItems.position,
        title: requestItems.title,
        shopHost: requestItems.shopHost,
        weightGrams: requestItems.weightGrams,
        packageNumber: packages.number,
        shelf: packages.shelf,
        receivedAt: requestItems.receivedAt,
        reservedAt: requestItems.reservedAt,
        pausedDays: requestItems.storagePausedDays,
      })
      .from(shipmentItems)
      .innerJoin(requestItems, eq(requestItems.id, shipmentItems.itemId))
      .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
      .leftJoin(packages, eq(packages.id, requestItems.packageId))
      .where(eq(shipmentItems.shipmentId, id))
      .orderBy(asc(purchaseRequests.number), asc(requestItems.position)),
    db
      .select({
        id: orderEvents.id,
        event: orderEvents.event,
        actorKind: orderEvents.actorKind,
        note: orderEvents.note,
        createdAt: orderEvents.createdAt,
      })
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.entityType, SHIPMENT_ENTITY),
          eq(orderEvents.entityId, id),
          staff ? undefined : eq(orderEvents.visibleToCustomer, true),
        ),
      )
      .orderBy(asc(orderEvents.id)),
    staff
      ? db
          .select({ id: users.id, name: users.name, email: users.email })
          .from(users)
          .where(eq(users.id, userId))
      : Promise.resolve([]),
  ])
}

/** Shapes a shipment's row and parts into its detail; shelves and the price's reason for staff only. */
export function shipmentDetail(
  row: NonNullable<Awaited<ReturnType<typeof readShipmentRow>>>,
  [lines, events, customer]: Awaited<ReturnType<typeof readShipmentParts>>,
  staff: boolean,
): ShipmentDetail {
  const {
    userId: _,
    packedWeightG,
    lengthCm,
    widthCm,
    heightCm,
    priceJpy,
    ratePriceJpy,
    priceReason,
    boxPhotoKey,
    packedAt,
    carrier,
    trackingNumber,
    shippedAt,
    deliveredAt,
    ...rest
  } = row
  return {
    ...summary(rest),
    version: rest.version,
    tracking:
      isCarrier(carrier) && trackingNumber && shippedAt
        ? { carrier, number: trackingNumber, shippedAt }
        : null,
    deliveredAt,
    packing:
      packedWeightG !== null && priceJpy !== null
        ? {
            weightG: packedWeightG,
            sizeCm:
              lengthCm !== null && widthCm !== null && heightCm !== null
                ? { length: lengthCm, width: widthCm, height: heightCm }
                : null,
            priceJpy,
            ratePriceJpy,
            priceReason: staff ? priceReason : null,
            hasPhoto: boxPhotoKey !== null,
            packedAt,
          }
        : null,
    address: rest.address,
    route: rest.route,
    region: rest.region,
    customer: customer[0] ?? null,
    lines: lines.map((line) => (staff ? line : { ...line, shelf: null })),
    events,
  }
}
