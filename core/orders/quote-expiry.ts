import { and, eq, exists, gt, lte, sql } from 'drizzle-orm'
import { applyInvoiceEvent, INVOICE_ENTITY } from '#core/billing/invoice-service.ts'
import { hasPendingTransfer, noPendingTransfer } from '#core/billing/pending-transfers.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import { recordOrderEvent } from '#core/shared/history.ts'
import type { Database, Executor } from '#db/client.ts'
import { invoices, orderEvents, purchaseRequests } from '#db/schema/index.ts'
import type { OrderDeps } from './order-context.ts'
import { applyRequestEvent } from './order-events.ts'
import { moveItems } from './request-items.ts'

/**
 * The scheduled job `orders.expire-quotes` (hourly, Japan time; core/jobs/registry.ts): a quote
 * still unpaid at its due time expires (the invoice and the request, and the customer is told);
 * one day before that, the customer is reminded once. Idempotent: each invoice is handled in
 * its own transaction that locks the request and the invoice (in that order, as every order
 * service does) and checks again what it found; running twice, or in two processes, changes
 * nothing more.
 */

const DAY_MS = 86_400_000
const SYSTEM = { kind: 'system', id: null } as const

export type ExpiryRun = { expired: string[]; reminded: string[] }

/**
 * Expires quotes due at or before `now`, then reminds about those due within a day (once each,
 * and only for quotes given more than a day to pay). Returns the invoice numbers it handled.
 * @throws Error after handling the rest, when some invoice failed (the job is retried).
 */
export async function expireQuotes(
  { db, jobs }: { db: Database } & Pick<OrderDeps, 'jobs'>,
  now: Date,
): Promise<ExpiryRun> {
  const run: ExpiryRun = { expired: [], reminded: [] }
  const failures: unknown[] = []

  const due = await db
    .select({ id: invoices.id, requestId: invoices.requestId })
    .from(invoices)
    .where(
      and(
        eq(invoices.status, 'open'),
        eq(invoices.kind, 'purchase'),
        lte(invoices.dueAt, now),
        // The customer says they paid by transfer: the quote waits for staff (ADR 036).
        noPendingTransfer(db),
      ),
    )
  for (const { id, requestId } of due) {
    if (!requestId) continue // a purchase invoice always has its request (invoices_owner_check)
    const invoice = { id, requestId }
    try {
      const number = await expireOne(db, jobs, invoice, now)
      if (number) run.expired.push(number)
    } catch (error) {
      failures.push(error)
    }
  }

  const remindedAlready = exists(
    db
      .select({ one: sql`1` })
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.entityType, INVOICE_ENTITY),
          eq(orderEvents.entityId, invoices.id),
          eq(orderEvents.event, 'remind'),
        ),
      ),
  )
  const soon = await db
    .select({ id: invoices.id, requestId: invoices.requestId })
    .from(invoices)
    .where(
      and(
        eq(invoices.status, 'open'),
        eq(invoices.kind, 'purchase'),
        gt(invoices.dueAt, now),
        lte(invoices.dueAt, new Date(now.getTime() + DAY_MS)),
        sql`${invoices.dueAt} - ${invoices.issuedAt} > interval '1 day'`,
        sql`not ${remindedAlready}`,
        noPendingTransfer(db),
      ),
    )
  for (const { id, requestId } of soon) {
    if (!requestId) continue
    const invoice = { id, requestId }
    try {
      const number = await remindOne(db, jobs, invoice, now)
      if (number) run.reminded.push(number)
    } catch (error) {
      failures.push(error)
    }
  }

  if (failures.length > 0) {
    throw new AggregateError(failures, `${failures.length} quote(s) could not be expired or reminded`)
  }
  return run
}

async function lockRequest(tx: Executor, requestId: string) {
  const [request] = await tx
    .select({
      userId: purchaseRequests.userId,
      number: purchaseRequests.number,
      status: purchaseRequests.status,
    })
    .from(purchaseRequests)
    .where(eq(purchaseRequests.id, requestId))
    .for('update')
  return request ?? null
}

async function expireOne(
  db: Database,
  jobs: OrderDeps['jobs'],
  target: { id: string; requestId: string },
  now: Date,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, target.requestId)
    const [invoice] = await tx
      .select({ number: invoices.number, status: invoices.status, dueAt: invoices.dueAt })
      .from(invoices)
      .where(eq(invoices.id, target.id))
      .for('update')
    // Paid, voided or expired meanwhile, or the customer reported a transfer meanwhile: nothing to do.
    if (!request || !invoice || invoice.status !== 'open' || invoice.dueAt > now) return null
    if (await hasPendingTransfer(tx, target.id)) return null
    await applyInvoiceEvent(tx, { invoiceId: target.id, event: 'expire', actor: SYSTEM, at: now })
    if (request.status === 'quoted') {
      await applyRequestEvent(tx, {
        requestId: target.requestId,
        event: 'expire',
        actor: SYSTEM,
        data: { invoiceId: target.id, invoiceNumber: invoice.number },
        set: { closedAt: now },
      })
      await moveItems(tx, { requestId: target.requestId, event: 'cancel', actor: SYSTEM, at: now })
      await notifyCustomer(tx, jobs, {
        userId: request.userId,
        type: 'quote_expired',
        // Who and why (docs/decisions/037): the system, because the quote was not paid by its due time.
        params: { number: request.number, invoice: invoice.number, dueDate: invoice.dueAt.toISOString() },
        requestId: target.requestId,
      })
    }
    return invoice.number
  })
}

async function remindOne(
  db: Database,
  jobs: OrderDeps['jobs'],
  target: { id: string; requestId: string },
  now: Date,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, target.requestId)
    const [invoice] = await tx
      .select({
        number: invoices.number,
        status: invoices.status,
        dueAt: invoices.dueAt,
        totalJpy: invoices.totalJpy,
      })
      .from(invoices)
      .where(eq(invoices.id, target.id))
      .for('update')
    if (!request || !invoice || invoice.status !== 'open' || invoice.dueAt <= now) return null
    const [already] = await tx
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.entityType, INVOICE_ENTITY),
          eq(orderEvents.entityId, target.id),
          eq(orderEvents.event, 'remind'),
        ),
      )
    if (already) return null
    await recordOrderEvent(tx, {
      entityType: INVOICE_ENTITY,
      entityId: target.id,
      event: 'remind',
      actor: SYSTEM,
      visibleToCustomer: false,
    })
    await notifyCustomer(tx, jobs, {
      userId: request.userId,
      type: 'quote_reminder',
      params: {
        number: request.number,
        invoice: invoice.number,
        totalJpy: invoice.totalJpy,
        dueDate: invoice.dueAt.toISOString(),
      },
      requestId: target.requestId,
    })
    return invoice.number
  })
}
