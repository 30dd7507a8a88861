import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { createAddress } from '#core/customers/profile-service.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { requestShipment } from '#core/shipping/shipment-service.ts'
import { auditLog, notifications, orderEvents, requestItems } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { RATES } from '#tests/support/shipment-fixtures.ts'
import { bookedItems, insertPeople } from '#tests/support/warehouse-fixtures.ts'
import { disposeItem, listOverdueItems } from './overdue-storage.ts'

// Items left past their free storage (docs/decisions/031): listed for staff, the longest over
// first; an admin disposes of one past its last day, with a reason; nothing else can.

const ana: Actor = { id: 'user-ana', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }
const DAY = 86_400_000

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  await insertPeople(db, [
    { ...ana, name: 'Ana Pérez' },
    { ...admin, name: 'Admin' },
    { ...moderator, name: 'Mod' },
  ])
  // Three items: fresh, 40 days (10 over) and 130 days (100 over: past the 90-day last day).
  const fresh = await bookedItems(orders, pool, { userId: ana.id, staff: admin })
  const over = await bookedItems(orders, pool, { userId: ana.id, staff: admin })
  const old = await bookedItems(orders, pool, { userId: ana.id, staff: admin })
  const age = (itemId: string, days: number) =>
    pool.query(`UPDATE request_items SET received_at = now() - $2::int * interval '1 day' WHERE id = $1`, [
      itemId,
      days,
    ])
  await age(over.itemIds[0] as string, 40)
  await age(old.itemIds[0] as string, 130)
  return {
    db,
    pool,
    orders,
    fresh: fresh.itemIds[0] as string,
    over: over.itemIds[0] as string,
    old: old.itemIds[0] as string,
  }
}

test('staff see the items past their free storage, the longest first, with when each may go', async () => {
  const { orders, over, old } = await setup()
  const { items, disposalAfterDays } = await listOverdueItems(orders.as(moderator))
  expect(disposalAfterDays).toBe(90)
  expect(items.map((item) => [item.id, item.daysOver, item.daysToDisposal])).toEqual([
    [old, 100, 0],
    [over, 10, 80],
  ])
  expect(await refusal(listOverdueItems(orders.as(ana)))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(listOverdueItems(orders.as(null)))).toMatchObject({ code: 'unauthorized' })
})

test('an admin disposes of an item past its last day, with a reason; the customer is told; every other case is refused', async () => {
  const { db, orders, fresh, over, old } = await setup()
  const reason = 'Reminded on 2 and 9 March, no answer'
  const snapshot = async () => ({
    items: (await db.select({ id: requestItems.id, status: requestItems.status }).from(requestItems)).length,
    disposed: (await db.select().from(requestItems).where(eq(requestItems.status, 'disposed'))).length,
    events: (await db.select().from(orderEvents)).length,
    audit: (await db.select().from(auditLog)).length,
  })
  const before = await snapshot()
  expect(await refusal(disposeItem(orders.as(moderator), { itemId: old, reason }))).toMatchObject({
    code: 'forbidden',
  })
  expect(await refusal(disposeItem(orders.as(ana), { itemId: old, reason }))).toMatchObject({
    code: 'forbidden',
  })
  expect(await refusal(disposeItem(orders.as(admin), { itemId: old, reason: ' ' }))).toMatchObject({
    fields: { reason: ['reasonRequired'] },
  })
  expect(await refusal(disposeItem(orders.as(admin), { itemId: fresh, reason }))).toMatchObject({
    reason: 'itemNotDisposable',
  })
  expect(await refusal(disposeItem(orders.as(admin), { itemId: over, reason }))).toMatchObject({
    reason: 'itemNotDisposable',
  })
  expect(
    await refusal(disposeItem(orders.as(admin), { itemId: '00000000-0000-4000-8000-000000000000', reason })),
  ).toMatchObject({ code: 'not_found' })
  expect(await snapshot()).toEqual(before)

  await disposeItem(orders.as(admin), { itemId: old, reason })
  const [item] = await db.select().from(requestItems).where(eq(requestItems.id, old))
  expect(item?.status).toBe('disposed')
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.kind, 'item.dispose'))
  expect(audit?.after).toMatchObject({ status: 'disposed', daysOver: 100, reason })
  const [told] = await db.select().from(notifications).where(eq(notifications.type, 'item_disposed'))
  expect(told?.params).toMatchObject({ days: 100, reason })
  // Once: a second disposal is refused, and it is gone from the list.
  expect(await refusal(disposeItem(orders.as(admin), { itemId: old, reason }))).toMatchObject({
    reason: 'itemNotDisposable',
  })
  expect((await listOverdueItems(orders.as(admin))).items.map((row) => row.id)).toEqual([over])
})

test('an item waiting in a shipment request is paused: not overdue, not disposable; a disposed item cannot be shipped', async () => {
  const { pool, orders, over, old } = await setup()
  const address = await createAddress(orders.as(ana), {
    fullName: 'Ana Pérez',
    street: 'Av. Larco 123',
    city: 'Lima',
    region: 'Lima',
    postalCode: '15074',
    country: 'PE',
    phone: '+51 1 234 5678',
    makeDefault: false,
  })
  await requestShipment(orders.as(ana), { items: [over], addressId: address.id, method: 'economic' }, RATES, {
    locale: 'es',
  })
  expect((await listOverdueItems(orders.as(admin))).items.map((row) => row.id)).toEqual([old])
  await pool.query(`UPDATE request_items SET received_at = now() - interval '200 days' WHERE id = $1`, [over])
  expect(await refusal(disposeItem(orders.as(admin), { itemId: over, reason: 'old' }))).toMatchObject({
    reason: 'itemNotDisposable',
  })
  await disposeItem(orders.as(admin), { itemId: old, reason: 'Never answered' }, new Date(Date.now() + DAY))
  expect(
    await refusal(
      requestShipment(orders.as(ana), { items: [old], addressId: address.id, method: 'economic' }, RATES, {
        locale: 'es',
      }),
    ),
  ).toMatchObject({ reason: 'itemNotShippable' })
})
