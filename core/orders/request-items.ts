import { and, eq, inArray } from 'drizzle-orm'
import type { OrderActor } from '#core/shared/history.ts'
import type { Executor } from '#db/client.ts'
import { requestItems } from '#db/schema/index.ts'
import { ITEM_MACHINE, type ItemEvent, type ItemStatus } from './item-machine.ts'

/**
 * Moves a request's items by one event of the item table (item-machine.ts), inside the
 * transaction that moves the request: every item where the event applies moves (a request-level
 * event: quote, requote, reject, cancel), or only the named ones (the items a paid invoice
 * charges for; in part 2 one item ordered or received). Items the event does not apply to (an
 * item already unavailable, say) stay where they are: that is the table's answer, not an error.
 * An actor the table does not allow is a bug in the caller (the request's own table refused it
 * first), so it throws.
 * @returns the ids of the items that moved.
 */
export async function moveItems(
  tx: Executor,
  input: {
    requestId: string
    event: ItemEvent
    actor: OrderActor
    at: Date
    itemIds?: readonly string[]
  },
): Promise<string[]> {
  const rule = ITEM_MACHINE[input.event]
  if (!rule.by.includes(input.actor.kind)) {
    throw new Error(`Item event ${input.event} is not for ${input.actor.kind}`)
  }
  if (input.itemIds && input.itemIds.length === 0) return []
  const moved = await tx
    .update(requestItems)
    .set({ status: rule.to, updatedAt: input.at })
    .where(
      and(
        eq(requestItems.requestId, input.requestId),
        inArray(requestItems.status, rule.from as ItemStatus[]),
        input.itemIds ? inArray(requestItems.id, [...input.itemIds]) : undefined,
      ),
    )
    .returning({ id: requestItems.id })
  return moved.map((row) => row.id)
}
