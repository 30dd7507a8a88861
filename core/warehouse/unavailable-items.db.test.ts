import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { markRefundDone } from '#core/payments/staff-payments.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { auditLog, notifications, orderEvents, payments, refunds, requestItems } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { insertPeople, paidRequest, requestVersion } from '#tests/support/warehouse-fixtures.ts'
import { bookArrival } from './arrival-service.ts'
import { itemRefundJpy, markItemUnavailable } from './unavailable-items.ts'

// An item the shop could not supply: an admin marks it unavailable and its share of the paid
// invoice becomes a refund due; every item refunded adds up to the invoice exactly.

const ana: Actor = { id: 'user-ana', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  await insertPeople(db, [
    { ...ana, name: 'Ana' },
    { ...admin, name: 'Admin' },
    { ...moderator, name: 'Mod' },
  ])
  // 2 × 2,500 + 800 shipping, and 1 × 1,200: items 6,200, fee 1,500, tax 770, total 9,270.
  const quoted = await paidRequest(orders, pool, {
    userId: ana.id,
    staff: admin,
    items: [
      { unitPriceJpy: 2500, quantity: 2, domesticShippingJpy: 800 },
      { unitPriceJpy: 1200, quantity: 1, domesticShippingJpy: 0 },
    ],
    reference: 'BANK 1',
  })
  expect(quoted.totalJpy).toBe(9270)
  const { paymentId } = quoted
  const version = () => requestVersion(pool, quoted.requestId)
  const snapshot = async () => ({
    items: (await db.select({ status: requestItems.status }).from(requestItems))
      .map((row) => row.status)
      .sort(),
    refunds: (await db.select().from(refunds)).length,
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
    audit: (await db.select().from(auditLog)).length,
  })
  return { db, pool, orders, quoted, paymentId, version, snapshot }
}

test('each unavailable item is refunded its price, fee, shipping and tax share; all of them add up to the invoice', async () => {
  const { db, orders, quoted, paymentId, version } = await setup()
  const [first, second] = quoted.itemIds as [string, string]
  const one = await markItemUnavailable(orders.as(admin), {
    id: quoted.requestId,
    version: await version(),
    itemId: first,
    reason: 'Sold out at the shop',
  })
  // 5,000 + fee 1,000 + shipping 800 + tax ⌊770 × 6,000 / 7,700⌋ = 600.
  expect(one.refundJpy).toBe(7400)
  const two = await markItemUnavailable(orders.as(admin), {
    id: quoted.requestId,
    version: one.version,
    itemId: second,
    reason: 'Discontinued',
  })
  // 1,200 + fee 500 + the rest of the tax (770 − 600).
  expect(two.refundJpy).toBe(1870)
  expect(one.refundJpy + two.refundJpy).toBe(9270)
  expect((await db.select().from(refunds)).map((row) => [row.paymentId, row.amountJpy, row.status])).toEqual([
    [paymentId, 7400, 'due'],
    [paymentId, 1870, 'due'],
  ])
  expect(await db.select({ status: requestItems.status }).from(requestItems)).toEqual([
    { status: 'unavailable' },
    { status: 'unavailable' },
  ])
  expect(
    (await db.select().from(notifications).where(eq(notifications.type, 'item_unavailable'))).map(
      (row) => row.params,
    ),
  ).toEqual([
    { number: quoted.requestNumber, position: 1, refundJpy: 7400, reason: 'Sold out at the shop' },
    { number: quoted.requestNumber, position: 2, refundJpy: 1870, reason: 'Discontinued' },
  ])
  expect((await db.select().from(auditLog).where(eq(auditLog.kind, 'item.unavailable'))).length).toBe(2)
  // The admin returns it at the bank and marks it done: nothing due any more.
  const [payment] = await db.select({ version: payments.version }).from(payments)
  expect(
    await markRefundDone(orders.as(admin), { paymentId, version: payment?.version, reference: 'REFUND 1' }),
  ).toEqual({ amountJpy: 9270 })
})

test('moderators, customers and bad input are refused with nothing written; an item already here cannot be', async () => {
  const { orders, quoted, version, snapshot } = await setup()
  const [first, second] = quoted.itemIds as [string, string]
  const v = await version()
  const good = { id: quoted.requestId, version: v, itemId: first, reason: 'Sold out' }
  const before = await snapshot()
  const cases: [string, () => Promise<unknown>, Record<string, unknown>][] = [
    ['anonymous', () => markItemUnavailable(orders.as(null), good), { code: 'unauthorized' }],
    ['the customer', () => markItemUnavailable(orders.as(ana), good), { code: 'forbidden' }],
    ['a moderator', () => markItemUnavailable(orders.as(moderator), good), { code: 'forbidden' }],
    [
      'no reason',
      () => markItemUnavailable(orders.as(admin), { ...good, reason: ' ' }),
      { code: 'invalid', fields: { reason: ['reasonRequired'] } },
    ],
    [
      'a long reason',
      () => markItemUnavailable(orders.as(admin), { ...good, reason: 'x'.repeat(1001) }),
      { code: 'invalid', fields: { reason: ['reasonTooLong'] } },
    ],
    [
      'a hostile item id',
      () => markItemUnavailable(orders.as(admin), { ...good, itemId: "1'; drop table refunds; --" }),
      { code: 'invalid' },
    ],
    [
      'another request’s item',
      () =>
        markItemUnavailable(orders.as(admin), { ...good, itemId: '00000000-0000-4000-8000-000000000000' }),
      { code: 'conflict', reason: 'itemNotReceivable' },
    ],
    [
      'a stale page',
      () => markItemUnavailable(orders.as(admin), { ...good, version: v + 3 }),
      { code: 'conflict', reason: 'requestChanged' },
    ],
  ]
  for (const [name, run, expected] of cases) expect(await refusal(run()), name).toMatchObject(expected)
  expect(await snapshot()).toEqual(before)
  // Received at the office: no longer unavailable.
  await bookArrival(orders.as(admin), {
    id: quoted.requestId,
    version: v,
    items: [{ id: second, received: 'on', weight: '300' }],
    shelf: 'A',
  })
  const after = await snapshot()
  expect(
    await refusal(
      markItemUnavailable(orders.as(admin), { ...good, version: await version(), itemId: second }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'itemNotReceivable' })
  expect(await snapshot()).toEqual(after)
})

test('the tax shares never add up to more than the invoice’s tax, in any order', () => {
  const lines = [
    { itemId: 'a', kind: 'item', amountJpy: 333 },
    { itemId: 'a', kind: 'service_fee', amountJpy: 500 },
    { itemId: 'b', kind: 'item', amountJpy: 333 },
    { itemId: 'b', kind: 'service_fee', amountJpy: 500 },
    { itemId: 'c', kind: 'item', amountJpy: 334 },
    { itemId: 'c', kind: 'service_fee', amountJpy: 500 },
    { itemId: 'c', kind: 'domestic_shipping', amountJpy: 700 },
  ]
  const taxableJpy = 2500
  const taxJpy = 250
  for (const order of [
    ['a', 'b', 'c'],
    ['c', 'b', 'a'],
    ['b', 'c', 'a'],
  ]) {
    let refunded: string[] = []
    let total = 0
    for (const itemId of order) {
      total += itemRefundJpy({ lines, itemId, refundedItemIds: refunded, taxJpy, taxableJpy })
      refunded = [...refunded, itemId]
    }
    expect(total, order.join()).toBe(2500 + 250 + 700)
  }
})
