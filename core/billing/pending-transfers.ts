import { and, eq, exists, sql } from 'drizzle-orm'
import type { Executor } from '#db/client.ts'
import { invoices, transferNotices } from '#db/schema/index.ts'

/**
 * Whether the customer said they paid this invoice by bank transfer and staff have not decided
 * yet (docs/decisions/036). While so, nothing else is asked of them: no second checkout, no
 * cancelling the request or shipment it pays for, no expiry of the quote. A module of its own,
 * so the order services can ask without importing the payment services.
 */
export async function hasPendingTransfer(db: Executor, invoiceId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: transferNotices.id })
    .from(transferNotices)
    .where(and(eq(transferNotices.invoiceId, invoiceId), eq(transferNotices.status, 'pending')))
    .limit(1)
  return row !== undefined
}

/** The same, for the open invoice of a request or a shipment. */
export async function ownerHasPendingTransfer(
  db: Executor,
  owner: { requestId: string } | { shipmentId: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: transferNotices.id })
    .from(transferNotices)
    .innerJoin(invoices, eq(invoices.id, transferNotices.invoiceId))
    .where(
      and(
        eq(transferNotices.status, 'pending'),
        'requestId' in owner
          ? eq(invoices.requestId, owner.requestId)
          : eq(invoices.shipmentId, owner.shipmentId),
      ),
    )
    .limit(1)
  return row !== undefined
}

/** A condition on `invoices`: no transfer of it is being checked (for the expiry job's queries). */
export function noPendingTransfer(db: Executor) {
  return sql`not ${exists(
    db
      .select({ one: sql`1` })
      .from(transferNotices)
      .where(and(eq(transferNotices.invoiceId, invoices.id), eq(transferNotices.status, 'pending'))),
  )}`
}

/** The error every refused step says while a transfer is being checked. */
export const TRANSFER_BEING_CHECKED = 'transferBeingChecked'
