import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { getInvoice } from '#core/billing/invoice-service.ts'
import type { Actor } from '#core/shared/service-context.ts'
import {
  invoices,
  notifications,
  orderEvents,
  purchaseRequests,
  requestItems,
  users,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { expireQuotes } from './quote-expiry.ts'
import { approveQuote, saveQuoteDraft } from './quote-service.ts'
import { getRequest, submitRequest } from './request-service.ts'

// The hourly expiry job with an injected clock: a reminder once, a day before the due time; at the
// due time the invoice and the request expire and the customer is told; running again does nothing.

const ana: Actor = { id: 'user-ana', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const HOUR = 3_600_000
const DAY = 24 * HOUR

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana', email: 'ana@example.com', role: 'user' },
    { ...base, id: admin.id, name: 'Admin', email: 'admin@example.com', role: 'admin' },
  ])
  const versionOf = async (id: string) =>
    (
      await db
        .select({ version: purchaseRequests.version })
        .from(purchaseRequests)
        .where(eq(purchaseRequests.id, id))
    )[0]?.version ?? -1
  /** A quoted request; its invoice. */
  const quote = async () => {
    const { id } = await submitRequest(
      orders.as(ana),
      { items: [{ url: 'https://jp.mercari.com/item/m1', quantity: 1 }] },
      { locale: 'es' },
    )
    const [item] = await db
      .select({ id: requestItems.id })
      .from(requestItems)
      .where(eq(requestItems.requestId, id))
    await saveQuoteDraft(orders.as(admin), {
      id,
      version: await versionOf(id),
      items: [{ id: item?.id ?? '', title: 'Figure', unitPrice: '2500' }],
    })
    const approved = await approveQuote(orders.as(admin), { id, version: await versionOf(id) })
    const invoice = await getInvoice(orders.as(admin), approved.invoiceId)
    return { requestId: id, invoice }
  }
  const notices = async (type: string) => db.select().from(notifications).where(eq(notifications.type, type))
  const run = (at: Date) => expireQuotes({ db, jobs: orders.jobs }, at)
  return { db, orders, quote, notices, run }
}

test('a reminder once a day before the due time, then expiry at the due time; each run is idempotent', async () => {
  const { db, orders, quote, notices, run } = await setup()
  const { requestId, invoice } = await quote()
  const due = invoice.dueAt.getTime()

  expect(await run(new Date(due - DAY - HOUR))).toEqual({ expired: [], reminded: [] })
  expect(await run(new Date(due - DAY + HOUR))).toEqual({ expired: [], reminded: [invoice.number] })
  expect(await run(new Date(due - HOUR))).toEqual({ expired: [], reminded: [] })
  const reminders = await notices('quote_reminder')
  expect(reminders).toHaveLength(1)
  expect(reminders[0]?.params).toMatchObject({
    invoice: invoice.number,
    totalJpy: invoice.totalJpy,
    dueDate: invoice.dueAt.toISOString(),
  })
  expect(await getInvoice(orders.as(ana), invoice.id)).toMatchObject({ status: 'open' })

  // A second before the due time: still open.
  expect(await run(new Date(due - 1000))).toEqual({ expired: [], reminded: [] })
  expect(await run(new Date(due))).toEqual({ expired: [invoice.number], reminded: [] })
  expect(await run(new Date(due + HOUR))).toEqual({ expired: [], reminded: [] })

  expect(await getInvoice(orders.as(ana), invoice.id)).toMatchObject({ status: 'expired' })
  const [request] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, requestId))
  expect(request).toMatchObject({ status: 'expired', closedAt: new Date(due) })
  const items = await db.select().from(requestItems).where(eq(requestItems.requestId, requestId))
  expect(items.map((item) => item.status)).toEqual(['cancelled'])
  const history = await getRequest(orders.as(ana), requestId)
  expect(history.events.at(-1)).toMatchObject({
    event: 'expire',
    fromStatus: 'quoted',
    toStatus: 'expired',
    actorKind: 'system',
  })
  // Who and why: the customer's notice names the unpaid quote and its due time (docs/decisions/037).
  const expired = await notices('quote_expired')
  expect(expired).toHaveLength(1)
  expect(expired[0]?.params).toEqual({
    number: history.number,
    invoice: invoice.number,
    dueDate: invoice.dueAt.toISOString(),
  })
  const invoiceEvents = await db.select().from(orderEvents).where(eq(orderEvents.entityId, invoice.id))
  expect(invoiceEvents.map((event) => event.event)).toEqual(['issue', 'remind', 'expire'])
})

test('three runs at once expire and tell about each quote once', async () => {
  const { quote, notices, run } = await setup()
  const quotes = [await quote(), await quote(), await quote()]
  const at = new Date(Math.max(...quotes.map((each) => each.invoice.dueAt.getTime())) + 1000)
  const results = await Promise.all([run(at), run(at), run(at)])
  expect(results.flatMap((result) => result.expired).sort()).toEqual(
    quotes.map((each) => each.invoice.number).sort(),
  )
  expect(await notices('quote_expired')).toHaveLength(3)
})

test('paid, voided and already expired quotes are left alone; a quote given one day to pay gets no reminder', async () => {
  const { db, orders, quote, notices, run } = await setup()
  const voided = await quote()
  await db
    .update(invoices)
    .set({ status: 'void', voidedAt: new Date() })
    .where(eq(invoices.id, voided.invoice.id))
  const paid = await quote()
  await db
    .update(invoices)
    .set({ status: 'paid', paidAt: new Date() })
    .where(eq(invoices.id, paid.invoice.id))
  await orders.settings.update({ daysToPay: 1 })
  const short = await quote()
  expect(short.invoice.dueAt.getTime() - short.invoice.issuedAt.getTime()).toBe(DAY)

  expect(await run(new Date(short.invoice.dueAt.getTime() - HOUR))).toEqual({ expired: [], reminded: [] })
  expect(await notices('quote_reminder')).toHaveLength(0)
  const late = new Date(short.invoice.dueAt.getTime() + 30 * DAY)
  expect(await run(late)).toEqual({ expired: [short.invoice.number], reminded: [] })
  expect(await getInvoice(orders.as(admin), voided.invoice.id)).toMatchObject({ status: 'void' })
  expect(await getInvoice(orders.as(admin), paid.invoice.id)).toMatchObject({ status: 'paid' })
})
