import { readFileSync } from 'node:fs'
import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { listMyMoney } from '#core/payments/money-history.ts'
import { markRefundDone } from '#core/payments/staff-payments.ts'
import { openClaim, resolveClaim } from '#core/shipping/claims.ts'
import { confirmDelivery, shipShipment } from '#core/shipping/shipment-delivery.ts'
import { markItemUnavailable } from '#core/warehouse/unavailable-items.ts'
import { notifications, orderEvents, payments, purchaseRequests } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { admin, ana, moderator, paidShipment } from '#tests/support/shipment-fixtures.ts'
import { insertPeople, paidRequest, requestVersion } from '#tests/support/warehouse-fixtures.ts'

// A paid request ends (docs/decisions/034): when its last item reaches its end (delivered, lost
// and refunded, unavailable and refunded, disposed of) and nothing is left to refund, in the
// transaction of the change that ended it, with its history row and the customer told.

const DAY = 86_400_000

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  return { db, pool, orders }
}

async function statusOf(db: Awaited<ReturnType<typeof setup>>['db'], id: string) {
  const [row] = await db
    .select({ status: purchaseRequests.status, closedAt: purchaseRequests.closedAt })
    .from(purchaseRequests)
    .where(eq(purchaseRequests.id, id))
  return row
}

async function completions(db: Awaited<ReturnType<typeof setup>>['db'], id: string) {
  return db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.entityId, id), eq(orderEvents.event, 'complete')))
}

test('the shipment with the last items delivered completes their requests, once, with the customer told', async () => {
  const { db, pool, orders } = await setup()
  const { shipment, version, first, second } = await paidShipment(db, pool, orders)
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version,
    carrier: 'japan_post',
    trackingNumber: 'EE123456785JP',
  })
  // Travelling is not the end.
  expect((await statusOf(db, first.requestId))?.status).toBe('in_progress')
  const mails = await countJobs(pool, 'notification.email')
  await confirmDelivery(orders.as(ana), { id: shipment.id, version: shipped.version })
  for (const request of [first, second]) {
    expect(await statusOf(db, request.requestId)).toEqual({ status: 'completed', closedAt: expect.any(Date) })
    const [event] = await completions(db, request.requestId)
    expect(event).toMatchObject({
      fromStatus: 'in_progress',
      toStatus: 'completed',
      actorKind: 'system',
      data: { cause: 'shipment_delivered' },
      visibleToCustomer: true,
    })
  }
  const told = await db.select().from(notifications).where(eq(notifications.type, 'request_completed'))
  expect(
    told.map((row) => row.params).sort((a, b) => String(a.number).localeCompare(String(b.number))),
  ).toEqual(
    [{ number: first.requestNumber }, { number: second.requestNumber }].sort((a, b) =>
      a.number.localeCompare(b.number),
    ),
  )
  // The delivery has no e-mail of its own for the customer who confirmed it; each completion has one.
  expect(await countJobs(pool, 'notification.email')).toBe(mails + 2)
})

test('a lost parcel: its requests stay open while the 50 % is due, and complete when each refund is sent, the customer told of the money', async () => {
  const { db, pool, orders } = await setup()
  const { shipment, version, first, second } = await paidShipment(db, pool, orders)
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version,
    carrier: 'japan_post',
    trackingNumber: 'EE123456785JP',
  })
  const { claimId } = await openClaim(
    orders.as(ana),
    { id: shipment.id, version: shipped.version },
    new Date(Date.now() + 31 * DAY),
  )
  await resolveClaim(orders.as(admin), { claimId, version: 0, resolution: 'lost', reason: 'Lost in transit' })
  expect((await statusOf(db, first.requestId))?.status).toBe('in_progress')
  expect((await statusOf(db, second.requestId))?.status).toBe('in_progress')

  const paymentVersion = async (id: string) =>
    (await db.select({ version: payments.version }).from(payments).where(eq(payments.id, id)))[0]?.version
  // A moderator may not say money went back; nothing changes.
  expect(
    await refusal(
      markRefundDone(orders.as(moderator), {
        paymentId: first.paymentId,
        version: await paymentVersion(first.paymentId),
        reference: 'BANK-R-1',
      }),
    ),
  ).toMatchObject({ code: 'forbidden' })
  expect((await db.select().from(notifications).where(eq(notifications.type, 'refund_sent'))).length).toBe(0)

  await markRefundDone(orders.as(admin), {
    paymentId: first.paymentId,
    version: await paymentVersion(first.paymentId),
    reference: 'BANK-R-1',
  })
  const sent = await db.select().from(notifications).where(eq(notifications.type, 'refund_sent'))
  expect(sent.map((row) => [row.userId, row.params, row.link])).toEqual([
    [ana.id, { number: first.requestNumber, amountJpy: 1500 }, '/user-dashboard/payments'],
  ])
  expect(await statusOf(db, first.requestId)).toMatchObject({ status: 'completed' })
  expect((await completions(db, first.requestId))[0]?.data).toEqual({ cause: 'refund_sent' })
  // The other request's half is still due.
  expect((await statusOf(db, second.requestId))?.status).toBe('in_progress')

  // Ana's money: two payments for her requests, one for the shipping; one refund sent, one on its way.
  const money = await listMyMoney(orders.as(ana))
  const refundsOf = money.entries.filter((entry) => entry.kind === 'refund')
  expect(
    refundsOf.map((entry) => [
      entry.owner.number,
      entry.amountJpy,
      entry.kind === 'refund' && entry.sentAt !== null,
    ]),
  ).toEqual(
    expect.arrayContaining([
      [first.requestNumber, 1500, true],
      [second.requestNumber, 2500, false],
    ]),
  )
  expect(refundsOf.map((entry) => entry.kind === 'refund' && [entry.reason, entry.detail])).toEqual([
    ['lost_parcel', shipment.number],
    ['lost_parcel', shipment.number],
  ])
  expect(money.totals).toMatchObject({ refundedJpy: 1500, refundPendingJpy: 2500 })
  expect(money.entries.filter((entry) => entry.kind === 'payment')).toHaveLength(3)
})

test('every item unavailable: the paid request completes when the refund is sent, straight from paid', async () => {
  const { db, pool, orders } = await setup()
  await insertPeople(db, [
    { ...ana, name: 'Ana' },
    { ...admin, name: 'Admin' },
  ])
  const paid = await paidRequest(orders, pool, { userId: ana.id, staff: admin })
  const itemId = paid.itemIds[0] ?? ''
  await markItemUnavailable(orders.as(admin), {
    id: paid.requestId,
    version: await requestVersion(pool, paid.requestId),
    itemId,
    reason: 'Sold out',
  })
  expect((await statusOf(db, paid.requestId))?.status).toBe('paid')
  const [payment] = await db.select().from(payments).where(eq(payments.id, paid.paymentId))
  await markRefundDone(orders.as(admin), {
    paymentId: paid.paymentId,
    version: payment?.version,
    reference: 'BANK-R-9',
  })
  expect((await statusOf(db, paid.requestId))?.status).toBe('completed')
  const [event] = await completions(db, paid.requestId)
  expect(event).toMatchObject({ fromStatus: 'paid', data: { cause: 'refund_sent' } })
})

test('migration 0029 completes the requests already over in an existing database, and only those', async () => {
  const { db, pool, orders } = await setup()
  const { shipment, version, first, second } = await paidShipment(db, pool, orders)
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version,
    carrier: 'japan_post',
    trackingNumber: 'EE123456785JP',
  })
  await confirmDelivery(orders.as(ana), { id: shipment.id, version: shipped.version })
  // As a database from before this change has them: delivered, yet still "being purchased"; and
  // another request with money still due back (an item unavailable, its refund not sent).
  await pool.query(
    `UPDATE purchase_requests SET status = 'in_progress', closed_at = null WHERE id = ANY($1::uuid[])`,
    [[first.requestId, second.requestId]],
  )
  const owing = await paidRequest(orders, pool, { userId: ana.id, staff: admin, reference: 'BANK-OWING' })
  await markItemUnavailable(orders.as(admin), {
    id: owing.requestId,
    version: await requestVersion(pool, owing.requestId),
    itemId: owing.itemIds[0] ?? '',
    reason: 'Sold out',
  })
  const sql = readFileSync(new URL('../../db/migrations/0029_requests-complete.sql', import.meta.url), 'utf8')
  const told = (await db.select().from(notifications).where(eq(notifications.type, 'request_completed')))
    .length
  await pool.query(sql.replaceAll('--> statement-breakpoint', ''))
  for (const request of [first, second]) {
    expect((await statusOf(db, request.requestId))?.status).toBe('completed')
    const events = await completions(db, request.requestId)
    expect(events.at(-1)).toMatchObject({ actorKind: 'system', data: { cause: 'backfill' } })
  }
  expect((await statusOf(db, owing.requestId))?.status).toBe('paid')
  // Nobody is told again.
  expect(
    (await db.select().from(notifications).where(eq(notifications.type, 'request_completed'))).length,
  ).toBe(told)
})
