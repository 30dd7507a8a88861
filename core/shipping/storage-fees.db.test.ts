import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { listStoredItems } from '#core/warehouse/stored-items.ts'
import { invoiceLines, invoices, shipments } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { ana, itemsAtOffice, moderator, RATES } from '#tests/support/shipment-fixtures.ts'
import { packShipment } from './shipment-packing.ts'
import { estimateMyShipment, requestShipment } from './shipment-service.ts'

// Storage fees are no surprise (docs/decisions/037): the shipping tab shows what each item's
// storage has run up, the estimate before asking to ship includes it with its tax, and the
// receipt staff issue the same day charges exactly what the estimate said: one pricing function.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  // 30 free days at ¥100 a day (the defaults): the 400 g item arrived 40 days ago (11 days to
  // pay: the first day after the free period counts), the 700 g one 35 days ago (6 days).
  const { first, second, address } = await itemsAtOffice(db, pool, orders, { storedDaysAgo: [40, 35] })
  const items = [first.itemIds[0] as string, second.itemIds[0] as string]
  return { db, pool, orders, items, address }
}

test('each stored item shows the storage it has run up, in days and yen; nothing within its free days', async () => {
  const { pool, orders, items } = await setup()
  const now = new Date()
  const listed = await listStoredItems(orders.as(ana), { now, freeDays: 30, feePerDayJpy: 100 })
  expect(listed.map((item) => [item.id, item.storage.expired, item.storageFee])).toEqual([
    [items[0], true, { days: 11, feePerDayJpy: 100, feeJpy: 1100 }],
    [items[1], true, { days: 6, feePerDayJpy: 100, feeJpy: 600 }],
  ])
  // Another fee in the settings: the figure follows it.
  expect(
    (await listStoredItems(orders.as(ana), { now, freeDays: 30, feePerDayJpy: 150 })).map(
      (item) => item.storageFee.feeJpy,
    ),
  ).toEqual([1650, 900])
  // Within the free days: nothing.
  await pool.query(`UPDATE request_items SET received_at = now() - interval '3 days'`)
  expect(
    (await listStoredItems(orders.as(ana), { now, freeDays: 30, feePerDayJpy: 100 })).map(
      (item) => item.storageFee,
    ),
  ).toEqual([
    { days: 0, feePerDayJpy: 100, feeJpy: 0 },
    { days: 0, feePerDayJpy: 100, feeJpy: 0 },
  ])
})

test('the estimate before asking includes the storage fees and their tax; the receipt of the same day charges exactly that', async () => {
  const { db, orders, items, address } = await setup()
  const choice = { items, addressId: address.id, method: 'economic' }
  const { estimate } = await estimateMyShipment(orders.as(ana), choice, RATES)
  // 400 + 700 + 200 g of packing = 1,300 g: ¥5,000; storage 1,100 + 600 = ¥1,700, tax ¥170.
  expect(estimate).toMatchObject({
    ok: true,
    weightG: 1300,
    priceJpy: 5000,
    storageFeeJpy: 1700,
    taxJpy: 170,
    totalJpy: 6870,
  })
  if (!estimate.ok) throw new Error('no estimate')
  expect(estimate.storage.map((line) => [line.itemId, line.days, line.feePerDayJpy])).toEqual([
    [items[0], 11, 100],
    [items[1], 6, 100],
  ])

  // Asked the same day: the shipment keeps the whole estimate the customer saw.
  const created = await requestShipment(orders.as(ana), choice, RATES, { locale: 'es' })
  const [row] = await db.select().from(shipments).where(eq(shipments.id, created.id))
  expect(row).toMatchObject({ estimatedPriceJpy: 5000, estimatedStorageFeeJpy: 1700, estimatedTaxJpy: 170 })

  // While it waits, the items' storage stands still: weeks later the tab shows the same figure.
  const later = await listStoredItems(orders.as(ana), {
    now: new Date(Date.now() + 21 * 86_400_000),
    freeDays: 30,
    feePerDayJpy: 100,
  })
  expect(later.map((item) => item.storageFee.feeJpy)).toEqual([1100, 600])

  // Packed at the estimated weight: the receipt is the estimate, line for line.
  const packed = await packShipment(
    orders.as(moderator),
    { id: created.id, version: 0, weight: String(estimate.weightG) },
    RATES,
  )
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, packed.invoiceId))
  expect({
    shipping: invoice?.shippingJpy,
    storage: invoice?.storageFeeJpy,
    tax: invoice?.taxJpy,
    total: invoice?.totalJpy,
  }).toEqual({
    shipping: estimate.priceJpy,
    storage: estimate.storageFeeJpy,
    tax: estimate.taxJpy,
    total: estimate.totalJpy,
  })
  const storageLines = (
    await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, packed.invoiceId))
  )
    .filter((line) => line.kind === 'storage_fee')
    .sort((a, b) => a.position - b.position)
  expect(storageLines.map((line) => [line.itemId, line.quantity, line.unitPriceJpy])).toEqual(
    estimate.storage.map((line) => [line.itemId, line.days, line.feePerDayJpy]),
  )
})
