import { and, eq, sql } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import type { Executor } from '#db/client.ts'
import { orderEvents, purchaseRequests } from '#db/schema/index.ts'
import {
  type ActorKind,
  isRequestStatus,
  type RequestEvent,
  type RequestStatus,
  transition,
} from './request-machine.ts'

/**
 * The one way anything (a route, a job, a payment webhook) moves a purchase request and writes
 * its history: inside the caller's transaction, so the status, the history row, the
 * notifications and the jobs of one change commit together or not at all.
 */

/** Who caused it: a user (customer or staff) by id, or the system / a payment provider. */
export type OrderActor = { kind: ActorKind; id: string | null }

export const REQUEST_ENTITY = 'purchase_request'

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

export type AppliedRequestEvent = {
  requestId: string
  userId: string
  number: string
  locale: 'es' | 'en'
  from: RequestStatus
  to: RequestStatus
  version: number
}

/**
 * Moves a request by one event of the machine: locks its row, checks the version the caller saw
 * (when given: a page's form), asks the machine, updates with compare-and-set and appends the
 * history row. A double click, a second tab or a second admin finds the version moved.
 * @throws AppError `not_found`, `conflict` (`requestChanged`: moved meanwhile or already done;
 * `requestNotAllowed`: the event does not apply in this state), `forbidden` (not this actor).
 */
export async function applyRequestEvent(
  tx: Executor,
  input: {
    requestId: string
    event: RequestEvent
    actor: OrderActor
    expectedVersion?: number
    note?: string | null
    data?: Record<string, unknown>
    visibleToCustomer?: boolean
    set?: Partial<typeof purchaseRequests.$inferInsert>
  },
): Promise<AppliedRequestEvent> {
  const [request] = await tx
    .select({
      userId: purchaseRequests.userId,
      number: purchaseRequests.number,
      locale: purchaseRequests.locale,
      status: purchaseRequests.status,
      version: purchaseRequests.version,
    })
    .from(purchaseRequests)
    .where(eq(purchaseRequests.id, input.requestId))
    .for('update')
  if (!request) {
    throw new AppError('not_found', `Purchase request ${input.requestId} not found`, {
      reason: 'requestNotFound',
    })
  }
  if (input.expectedVersion !== undefined && request.version !== input.expectedVersion) {
    throw new AppError(
      'conflict',
      `Purchase request ${input.requestId} changed (version ${request.version})`,
      {
        reason: 'requestChanged',
      },
    )
  }
  if (!isRequestStatus(request.status)) throw new Error(`Unknown purchase request status ${request.status}`)
  const step = transition(request.status, input.event, input.actor.kind)
  if (!step.ok) {
    if (step.refusal === 'forbidden') {
      throw new AppError('forbidden', `${input.actor.kind} may not ${input.event} request ${input.requestId}`)
    }
    throw new AppError('conflict', `Cannot ${input.event} request ${input.requestId} in ${request.status}`, {
      reason: step.refusal === 'already' ? 'requestChanged' : 'requestNotAllowed',
    })
  }
  const [updated] = await tx
    .update(purchaseRequests)
    .set({
      ...input.set,
      status: step.to,
      version: sql`${purchaseRequests.version} + 1`,
      updatedAt: new Date(),
    })
    .where(and(eq(purchaseRequests.id, input.requestId), eq(purchaseRequests.version, request.version)))
    .returning({ version: purchaseRequests.version })
  if (!updated) {
    throw new AppError('conflict', `Purchase request ${input.requestId} changed meanwhile`, {
      reason: 'requestChanged',
    })
  }
  await recordOrderEvent(tx, {
    entityType: REQUEST_ENTITY,
    entityId: input.requestId,
    event: input.event,
    from: request.status,
    to: step.to,
    actor: input.actor,
    note: input.note,
    data: input.data,
    visibleToCustomer: input.visibleToCustomer,
  })
  return {
    requestId: input.requestId,
    userId: request.userId,
    number: request.number,
    locale: request.locale === 'en' ? 'en' : 'es',
    from: request.status,
    to: step.to,
    version: updated.version,
  }
}
