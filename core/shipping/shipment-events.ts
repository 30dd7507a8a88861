import { type Aggregate, applyEvent } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import type { OrderActor } from '#core/shared/history.ts'
import type { Executor } from '#db/client.ts'
import { shipments } from '#db/schema/index.ts'
import {
  isShipmentStatus,
  SHIPMENT_MACHINE,
  type ShipmentEvent,
  type ShipmentStatus,
} from './shipment-machine.ts'

/**
 * Every change of a shipment's status, as `applyRequestEvent` is for requests: the one
 * `applyEvent` (core/shared/apply-event.ts) with the shipment's table and refusals.
 * docs/decisions/028, 029.
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

const SHIPMENT: Aggregate<ShipmentEvent, ShipmentStatus, { number: string; userId: string; locale: string }> =
  {
    entity: SHIPMENT_ENTITY,
    table: shipments,
    machine: SHIPMENT_MACHINE,
    isState: isShipmentStatus,
    columns: { number: shipments.number, userId: shipments.userId, locale: shipments.locale },
    notFound: (id) =>
      new AppError('not_found', `Shipment ${id.slice(0, 80)} not found`, { reason: 'shipmentNotFound' }),
    changed: (_id, row) =>
      new AppError('conflict', `Shipment ${row.number} changed`, { reason: 'shipmentChanged' }),
    notAllowed: (_id, row, event) =>
      new AppError('conflict', `Cannot ${event} shipment ${row.number} in ${row.status}`, {
        reason: 'shipmentNotAllowed',
      }),
  }

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
  const { shipmentId, ...rest } = input
  const applied = await applyEvent(tx, SHIPMENT, { id: shipmentId, ...rest })
  return {
    id: shipmentId,
    number: applied.number,
    userId: applied.userId,
    locale: applied.locale === 'en' ? 'en' : 'es',
    from: applied.from,
    to: applied.to,
    version: applied.version,
  }
}
