import type { Executor } from '#db/client.ts'
import { orderEvents } from '#db/schema/index.ts'
import type { ActorKind } from './actor-kind.ts'

/**
 * The history of every order aggregate (a request, an invoice, a payment, a shipment) in one
 * table, `order_events`: each change of state appends one row inside the transaction that makes
 * the change, so the two commit together or not at all.
 */

/** Who caused it: a user (customer or staff) by id, or the system / a payment provider. */
export type OrderActor = { kind: ActorKind; id: string | null }

/** Appends one history row (any entity: a request, an invoice, a payment). */
export async function recordOrderEvent(
  tx: Executor,
  entry: {
    entityType: string
    entityId: string
    event: string
    from?: string | null
    to?: string | null
    actor: OrderActor
    note?: string | null
    data?: Record<string, unknown>
    visibleToCustomer?: boolean
  },
): Promise<void> {
  await tx.insert(orderEvents).values({
    entityType: entry.entityType,
    entityId: entry.entityId,
    event: entry.event,
    fromStatus: entry.from ?? null,
    toStatus: entry.to ?? null,
    actorKind: entry.actor.kind,
    actorId: entry.actor.id,
    note: entry.note ?? null,
    data: entry.data ?? {},
    visibleToCustomer: entry.visibleToCustomer ?? true,
  })
}
