import { and, eq, sql } from 'drizzle-orm'
import { type OrderActor, recordOrderEvent } from '#core/orders/order-events.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Executor } from '#db/client.ts'
import { shipments } from '#db/schema/index.ts'
import {
  isShipmentStatus,
  type ShipmentEvent,
  type ShipmentStatus,
  shipmentTransition,
} from './shipment-machine.ts'

/**
 * Every change of a shipment's status, as `applyRequestEvent` is for requests: in the caller's
 * transaction, the row locked, the machine asked, a compare-and-set on `version` and the history
 * row written with it. docs/decisions/028, 029.
 */

export const SHIPMENT_ENTITY = 'shipment'

export type AppliedShipmentEvent = {
  id: string
  number: string
  userId: string
  locale: 'es' | 'en'
  from: ShipmentStatus
  to: ShipmentStatus
  version: number
}

const shipmentNotFound = (id: string) =>
  new AppError('not_found', `Shipment ${id.slice(0, 80)} not found`, { reason: 'shipmentNotFound' })

/**
 * @throws AppError `not_found`; `conflict` (`shipmentChanged`: another version, or already
 *   there; `shipmentNotAllowed`: not from this status); `forbidden` (not this actor's move).
 */
export async function applyShipmentEvent(
  tx: Executor,
  input: {
    shipmentId: string
    event: ShipmentEvent
    actor: OrderActor
    expectedVersion?: number
    note?: string | null
    data?: Record<string, unknown>
    set?: Partial<typeof shipments.$inferInsert>
  },
): Promise<AppliedShipmentEvent> {
  const [shipment] = await tx
    .select({
      number: shipments.number,
      userId: shipments.userId,
      locale: shipments.locale,
      status: shipments.status,
      version: shipments.version,
    })
    .from(shipments)
    .where(eq(shipments.id, input.shipmentId))
    .for('update')
  if (!shipment) throw shipmentNotFound(input.shipmentId)
  if (!isShipmentStatus(shipment.status)) throw new Error(`Unknown shipment status ${shipment.status}`)
  const changed = () =>
    new AppError('conflict', `Shipment ${shipment.number} changed`, { reason: 'shipmentChanged' })
  if (input.expectedVersion !== undefined && shipment.version !== input.expectedVersion) throw changed()
  const step = shipmentTransition(shipment.status, input.event, input.actor.kind)
  if (!step.ok) {
    if (step.refusal === 'forbidden') {
      throw new AppError(
        'forbidden',
        `${input.actor.kind} may not ${input.event} shipment ${shipment.number}`,
      )
    }
    if (step.refusal === 'already') throw changed()
    throw new AppError(
      'conflict',
      `Cannot ${input.event} shipment ${shipment.number} in ${shipment.status}`,
      {
        reason: 'shipmentNotAllowed',
      },
    )
  }
  const now = new Date()
  const [updated] = await tx
    .update(shipments)
    .set({ ...input.set, status: step.to, version: sql`${shipments.version} + 1`, updatedAt: now })
    .where(and(eq(shipments.id, input.shipmentId), eq(shipments.version, shipment.version)))
    .returning({ version: shipments.version })
  if (!updated) throw changed()
  await recordOrderEvent(tx, {
    entityType: SHIPMENT_ENTITY,
    entityId: input.shipmentId,
    event: input.event,
    from: shipment.status,
    to: step.to,
    actor: input.actor,
    note: input.note,
    data: input.data,
  })
  return {
    id: input.shipmentId,
    number: shipment.number,
    userId: shipment.userId,
    locale: shipment.locale === 'en' ? 'en' : 'es',
    from: shipment.status,
    to: step.to,
    version: updated.version,
  }
}
