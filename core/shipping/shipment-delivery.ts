import { and, eq, inArray } from 'drizzle-orm'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { completeFinishedRequests, requestsInShipment } from '#core/orders/request-completion.ts'
import { AppError } from '#core/shared/errors.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import { isStaff } from '#core/shared/service-context.ts'
import { requestItems, shipmentItems, shipments } from '#db/schema/index.ts'
import { applyShipmentEvent } from './shipment-events.ts'
import { DeliverShipmentSchema, ShipShipmentSchema } from './shipment-schemas.ts'
import { CARRIER_NAMES, checkTrackingNumber } from './tracking.ts'

/**
 * After payment (docs/decisions/030): staff hand the box to the carrier with its tracking number
 * (its items become `shipped`: no second shipment, no storage count); then staff, or the
 * customer confirming receipt, mark it delivered. Each one transaction on the version the page
 * showed, with the history row and the customer told.
 */

const shipmentPath = (id: string) => `/user-dashboard/shipments/${id}`

/**
 * @throws AppError `unauthorized`, `forbidden` (not staff who handle the warehouse), `invalid`
 * (carrier; tracking number empty, absurd or not Japan Post's shape), `not_found`, `conflict`
 * (`shipmentChanged`; `shipmentNotAllowed`: not paid).
 */
export async function shipShipment(
  { db, actor, jobs }: OrderContext,
  input: unknown,
): Promise<{ version: number }> {
  const staff = staffActor(actor, 'handle_arrivals')
  const data = parse(ShipShipmentSchema, input, 'shipmentInvalid')
  const checked = checkTrackingNumber(data.carrier, data.trackingNumber)
  if (!checked.ok) {
    throw new AppError('invalid', `Tracking number refused: ${checked.problem}`, {
      reason: 'shipmentInvalid',
      fieldErrors: { trackingNumber: [checked.problem] },
    })
  }
  return db.transaction(async (tx) => {
    const now = new Date()
    const applied = await applyShipmentEvent(tx, {
      shipmentId: data.id,
      event: 'ship',
      actor: staff,
      expectedVersion: data.version,
      set: { carrier: data.carrier, trackingNumber: checked.number, shippedAt: now },
      data: { carrier: data.carrier, trackingNumber: checked.number },
    })
    const items = await tx
      .select({ id: shipmentItems.itemId })
      .from(shipmentItems)
      .where(and(eq(shipmentItems.shipmentId, data.id), eq(shipmentItems.active, true)))
    if (items.length > 0) {
      await tx
        .update(requestItems)
        .set({ status: 'shipped', updatedAt: now })
        .where(
          and(
            inArray(
              requestItems.id,
              items.map((item) => item.id),
            ),
            eq(requestItems.status, 'received'),
          ),
        )
    }
    await notifyCustomer(tx, jobs, {
      userId: applied.userId,
      type: 'shipment_shipped',
      params: { number: applied.number, carrier: CARRIER_NAMES[data.carrier], tracking: checked.number },
      link: shipmentPath(data.id),
    })
    return { version: applied.version }
  })
}

/**
 * Staff mark the shipment delivered, or its owner confirms receipt (anyone else: `not_found`);
 * each request whose items are now all at their end completes (core/orders/request-completion.ts).
 * @throws AppError `unauthorized`, `invalid`, `not_found`, `conflict` (`shipmentChanged`;
 * `shipmentNotAllowed`: not shipped, or already delivered or lost).
 */
export async function confirmDelivery(
  { db, actor, jobs }: OrderContext,
  input: unknown,
): Promise<{ version: number }> {
  if (!actor) throw new AppError('unauthorized', 'Shipments need a signed-in user')
  const data = parse(DeliverShipmentSchema, input, 'shipmentInvalid')
  const staff = isStaff(actor)
  return db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ userId: shipments.userId })
      .from(shipments)
      .where(eq(shipments.id, data.id))
    if (!owner || (!staff && owner.userId !== actor.id)) {
      throw new AppError('not_found', `Shipment ${data.id} not found`, { reason: 'shipmentNotFound' })
    }
    const applied = await applyShipmentEvent(tx, {
      shipmentId: data.id,
      event: 'deliver',
      actor: { kind: staff ? 'staff' : 'customer', id: actor.id },
      expectedVersion: data.version,
      set: { deliveredAt: new Date() },
    })
    if (staff) {
      await notifyCustomer(tx, jobs, {
        userId: applied.userId,
        type: 'shipment_delivered',
        params: { number: applied.number },
        link: shipmentPath(data.id),
      })
    }
    // The requests whose last items were in this box are over (docs/decisions/034).
    await completeFinishedRequests(tx, jobs, await requestsInShipment(tx, data.id), 'shipment_delivered')
    return { version: applied.version }
  })
}
