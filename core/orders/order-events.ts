import { type Aggregate, applyEvent } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import type { OrderActor } from '#core/shared/history.ts'
import type { Executor } from '#db/client.ts'
import { purchaseRequests } from '#db/schema/index.ts'
import { isRequestStatus, REQUEST_MACHINE, type RequestEvent, type RequestStatus } from './request-machine.ts'

/**
 * The one way anything (a route, a job, a payment webhook) moves a purchase request and writes
 * its history: inside the caller's transaction, so the status, the history row, the
 * notifications and the jobs of one change commit together or not at all.
 */

export const REQUEST_ENTITY = 'purchase_request'

export type AppliedRequestEvent = {
  requestId: string
  userId: string
  number: string
  locale: 'es' | 'en'
  from: RequestStatus
  to: RequestStatus
  version: number
}

const REQUEST: Aggregate<RequestEvent, RequestStatus, { userId: string; number: string; locale: string }> = {
  entity: REQUEST_ENTITY,
  table: purchaseRequests,
  machine: REQUEST_MACHINE,
  isState: isRequestStatus,
  columns: {
    userId: purchaseRequests.userId,
    number: purchaseRequests.number,
    locale: purchaseRequests.locale,
  },
  notFound: (id) =>
    new AppError('not_found', `Purchase request ${id} not found`, { reason: 'requestNotFound' }),
  changed: (id) => new AppError('conflict', `Purchase request ${id} changed`, { reason: 'requestChanged' }),
  notAllowed: (id, row, event) =>
    new AppError('conflict', `Cannot ${event} request ${id} in ${row.status}`, {
      reason: 'requestNotAllowed',
    }),
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
  const { requestId, ...rest } = input
  const applied = await applyEvent(tx, REQUEST, { id: requestId, ...rest })
  return {
    requestId,
    userId: applied.userId,
    number: applied.number,
    locale: applied.locale === 'en' ? 'en' : 'es',
    from: applied.from,
    to: applied.to,
    version: applied.version,
  }
}
