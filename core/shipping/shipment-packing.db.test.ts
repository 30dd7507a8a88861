import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { getPaymentPanel } from '#core/payments/payment-views.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import type { Actor } from '#core/shared/service-context.ts'
import {
  auditLog,
  invoiceLines,
  invoices,
  notifications,
  orderEvents,
  requestItems,
  shipments,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { plainPng } from '#tests/support/photo-fixtures.ts'
import { refusal } from '#tests/support/refusal.ts'
import { admin, ana, bruno, moderator, RATES, requestedShipment } from '#tests/support/shipment-fixtures.ts'
import { packShipment, previewPacking } from './shipment-packing.ts'
import { cancelShipment, getBoxPhoto, getShipment } from './shipment-service.ts'

// Packing and the shipping receipt (docs/decisions/029): staff weigh and price the box, which
// issues the receipt on the same invoices as a quote; the customer pays it through the same
// payment core; every refusal writes nothing.

async function setup({ storedDaysAgo = 0 }: { storedDaysAgo?: number } = {}) {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const { shipment } = await requestedShipment(db, pool, orders, { storedDaysAgo })
  const snapshot = async () => ({
    shipments: (await db.select().from(shipments)).map((row) => [row.status, row.version, row.priceJpy]),
    invoices: (await db.select().from(invoices)).length,
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
    audit: (await db.select().from(auditLog)).length,
  })
  return { db, pool, orders, shipment, snapshot }
}

test('staff pack and price a shipment: the shipping receipt is issued, the customer told, and paying it marks the shipment paid once', async () => {
  const { db, orders, shipment, snapshot } = await setup()
  const packed = await packShipment(
    orders.as(moderator),
    { id: shipment.id, version: 0, weight: '1,250', length: '30', width: '20', height: '15' },
    RATES,
    [new Blob([new Uint8Array(await plainPng())], { type: 'image/png' })],
  )
  // 1,250 g economy to Peru: the 2 kg row, ¥5,000; no storage fee yet, so no tax.
  expect(packed.totalJpy).toBe(5000)
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, packed.invoiceId))
  expect(invoice).toMatchObject({
    kind: 'shipping',
    shipmentId: shipment.id,
    requestId: null,
    userId: ana.id,
    status: 'open',
    shippingJpy: 5000,
    storageFeeJpy: 0,
    taxJpy: 0,
    totalJpy: 5000,
  })
  expect(
    (await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, packed.invoiceId))).map((line) => [
      line.kind,
      line.description,
      line.amountJpy,
      line.taxable,
    ]),
  ).toEqual([['shipping', shipment.number, 5000, false]])
  const detail = await getShipment(orders.as(ana), shipment.id)
  expect(detail.status).toBe('packed')
  expect(detail.packing).toMatchObject({
    weightG: 1250,
    sizeCm: { length: 30, width: 20, height: 15 },
    priceJpy: 5000,
    ratePriceJpy: 5000,
    hasPhoto: true,
  })
  expect(detail.events.map((event) => event.event)).toEqual(['request', 'pack'])
  // The photo is the owner's and staff's only.
  expect(
    (await getBoxPhoto(orders.as(ana), orders.files, shipment.id, 'thumb')).bytes.byteLength,
  ).toBeGreaterThan(0)
  expect(await refusal(getBoxPhoto(orders.as(bruno), orders.files, shipment.id, 'full'))).toMatchObject({
    code: 'not_found',
  })
  const [told] = await db.select().from(notifications).where(eq(notifications.type, 'shipment_packed'))
  // Packed with a photo: the texts ask to look at it (no `noPhoto` variant).
  expect(told).toMatchObject({ userId: ana.id })
  expect(told?.params).toEqual({ number: shipment.number, totalJpy: 5000 })

  // The customer's payment panel offers it; another customer sees nothing.
  const owner = { kind: 'shipment' as const, id: shipment.id }
  expect(await getPaymentPanel(orders.as(ana), owner)).toMatchObject({
    invoice: { id: packed.invoiceId, status: 'open', totalJpy: 5000 },
    canPay: true,
  })
  expect(await refusal(getPaymentPanel(orders.as(bruno), owner))).toMatchObject({ code: 'not_found' })
  // Packed: it cannot be packed twice.
  const before = await snapshot()
  expect(
    await refusal(packShipment(orders.as(moderator), { id: shipment.id, version: 1, weight: '1000' }, RATES)),
  ).toMatchObject({ code: 'conflict', reason: 'shipmentNotAllowed' })
  expect(await snapshot()).toEqual(before)

  // Another amount is refused, in words about the shipping receipt (not "the quote", ADR 038).
  expect(
    await refusal(
      recordManualPayment(orders.as(admin), {
        invoiceId: packed.invoiceId,
        version: 0,
        amountJpy: '4999',
        reference: `BANK ${shipment.number}`,
      }),
    ),
  ).toMatchObject({
    code: 'invalid',
    reason: 'paymentAmountMismatchReceipt',
    fields: { amountJpy: ['amountMismatchReceipt'] },
  })
  // A bank transfer recorded by an admin pays it; a second one is refused, nothing doubled.
  await recordManualPayment(orders.as(admin), {
    invoiceId: packed.invoiceId,
    version: 0,
    amountJpy: '5000',
    reference: `BANK ${shipment.number}`,
  })
  const paid = await getShipment(orders.as(ana), shipment.id)
  expect(paid.status).toBe('paid')
  expect(paid.events.map((event) => event.event)).toEqual(['request', 'pack', 'pay'])
  expect(
    await refusal(
      recordManualPayment(orders.as(admin), {
        invoiceId: packed.invoiceId,
        version: 1,
        amountJpy: '5000',
        reference: 'BANK again',
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'invoicePaid' })
  expect((await db.select().from(notifications).where(eq(notifications.type, 'shipment_paid'))).length).toBe(
    1,
  )
  expect(await getPaymentPanel(orders.as(ana), owner)).toMatchObject({
    invoice: { status: 'paid' },
    paidWith: 'manual',
    canPay: false,
  })
})

test('a price other than the rate table needs a reason and is audited; storage past the free days is charged with its tax', async () => {
  // Both items arrived 40 days ago: 30 free days, so 11 days to pay each (the day free storage
  // ended counts, as the reminder says), at ¥100 a day: 2 × ¥1,100 and 10 % tax on it.
  const { db, orders, shipment, snapshot } = await setup({ storedDaysAgo: 40 })
  const before = await snapshot()
  expect(
    await refusal(
      packShipment(orders.as(admin), { id: shipment.id, version: 0, weight: '1250', price: '4500' }, RATES),
    ),
  ).toMatchObject({ code: 'invalid', fields: { reason: ['reasonRequired'] } })
  expect(await snapshot()).toEqual(before)
  // Another price moves money: refused until confirmed, and the page gets the amounts to confirm.
  const override = {
    id: shipment.id,
    version: 0,
    weight: '1250',
    price: '¥4,500',
    reason: 'Same box as last week: agreed',
  }
  expect(await refusal(packShipment(orders.as(admin), override, RATES))).toMatchObject({
    code: 'invalid',
    reason: 'priceConfirmationRequired',
    fields: { confirm: ['confirmRequired'] },
  })
  expect(await snapshot()).toEqual(before)
  expect(await previewPacking(orders.as(admin), override, RATES)).toMatchObject({
    number: shipment.number,
    weightG: 1250,
    ratePriceJpy: 5000,
    priceJpy: 4500,
    totals: { shippingJpy: 4500, storageFeeJpy: 2200, taxJpy: 220, totalJpy: 4500 + 2200 + 220 },
  })
  expect(await snapshot()).toEqual(before)
  const packed = await packShipment(orders.as(admin), { ...override, confirm: 'yes' }, RATES)
  expect(packed.totalJpy).toBe(4500 + 2200 + 220)
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, packed.invoiceId))
  expect(invoice).toMatchObject({ shippingJpy: 4500, storageFeeJpy: 2200, taxableJpy: 2200, taxJpy: 220 })
  expect(
    (await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, packed.invoiceId)))
      .filter((line) => line.kind === 'storage_fee')
      .map((line) => [line.quantity, line.unitPriceJpy, line.amountJpy, line.taxable]),
  ).toEqual([
    [11, 100, 1100, true],
    [11, 100, 1100, true],
  ])
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.kind, 'shipment.price_override'))
  expect(audit).toMatchObject({
    actorId: admin.id,
    subjectId: shipment.id,
    before: { priceJpy: 5000 },
    after: expect.objectContaining({ priceJpy: 4500, reason: 'Same box as last week: agreed' }),
  })
  // The reason is the staff's: the customer sees the price, not why.
  expect((await getShipment(orders.as(ana), shipment.id)).packing?.priceReason).toBeNull()
  expect((await getShipment(orders.as(admin), shipment.id)).packing?.priceReason).toBe(
    'Same box as last week: agreed',
  )
})

test('bad packing input and the wrong people are refused with nothing written', async () => {
  const { orders, shipment, snapshot } = await setup()
  const before = await snapshot()
  const pack = (actor: Actor | null, input: Record<string, unknown>, photos: Blob[] = []) =>
    refusal(packShipment(orders.as(actor), { id: shipment.id, version: 0, ...input }, RATES, photos))
  expect(await pack(null, { weight: '1000' })).toMatchObject({ code: 'unauthorized' })
  expect(await pack(ana, { weight: '1000' })).toMatchObject({ code: 'forbidden' })
  expect(await pack(moderator, { weight: '' })).toMatchObject({ fields: { weight: ['weightRequired'] } })
  expect(await pack(moderator, { weight: '1.5' })).toMatchObject({ fields: { weight: ['weightWhole'] } })
  expect(await pack(moderator, { weight: '2,500' })).toMatchObject({
    code: 'invalid',
    fields: { weight: ['packedTooHeavy.economic'] },
  })
  expect(await pack(moderator, { weight: '1000', length: '30' })).toMatchObject({
    fields: { width: ['sizeIncomplete'], height: ['sizeIncomplete'] },
  })
  expect(await pack(moderator, { weight: '1000', length: '30', width: '20', height: '900' })).toMatchObject({
    fields: { height: ['sizeRange'] },
  })
  expect(await pack(moderator, { weight: '1000', price: '0', reason: 'free' })).toMatchObject({
    fields: { price: ['priceRange'] },
  })
  expect(await pack(moderator, { weight: '1000', price: '3000', reason: 'x'.repeat(501) })).toMatchObject({
    fields: { reason: ['reasonTooLong'] },
  })
  expect(await pack(moderator, { weight: '1000', version: 7 })).toMatchObject({
    code: 'conflict',
    reason: 'shipmentChanged',
  })
  expect(
    await pack(moderator, { weight: '1000' }, [new Blob(['<svg/>'], { type: 'image/png' })]),
  ).toMatchObject({ fields: { photos: ['photoType'] } })
  expect(await pack(moderator, { weight: '1000', id: 'nope' })).toMatchObject({ code: 'invalid' })
  expect(await snapshot()).toEqual(before)
  // No file of a refused packing stays behind (a good photo with a refused form included).
  expect(
    await pack(moderator, { weight: '9,000' }, [
      new Blob([new Uint8Array(await plainPng())], { type: 'image/png' }),
    ]),
  ).toMatchObject({ fields: { weight: ['packedTooHeavy.economic'] } })
  const left = await readdir(path.join(orders.files.root, 'shipments'), { recursive: true }).catch(() => [])
  expect(left.filter((name) => name.endsWith('.webp'))).toEqual([])
})

test('a packed shipment cancelled before it is paid: the receipt is voided, the items go back, a late transfer is refused', async () => {
  const { db, orders, shipment } = await setup()
  const packed = await packShipment(
    orders.as(moderator),
    { id: shipment.id, version: 0, weight: '1000' },
    RATES,
  )
  expect(
    await refusal(
      cancelShipment(orders.as(bruno), { id: shipment.id, version: packed.version, confirm: 'yes' }),
    ),
  ).toMatchObject({
    code: 'not_found',
  })
  await cancelShipment(orders.as(ana), {
    id: shipment.id,
    version: packed.version,
    reason: 'Changed my mind',
    confirm: 'yes',
  })
  // The customer's own cancellation comes back to them with the voided receipt and their reason.
  const [told] = await db
    .select()
    .from(notifications)
    .where(eq(notifications.type, 'shipment_cancelled_by_you'))
  expect(told?.params).toEqual({
    number: shipment.number,
    reason: 'Changed my mind',
    invoice: packed.invoiceNumber,
    invoiceJpy: packed.totalJpy,
  })
  const [receipt] = await db.select().from(invoices).where(eq(invoices.id, packed.invoiceId))
  expect(receipt?.status).toBe('void')
  const detail = await getShipment(orders.as(ana), shipment.id)
  expect(detail.status).toBe('cancelled')
  expect(detail.events.map((event) => event.event)).toEqual(['request', 'pack', 'cancel'])
  const items = await db
    .select({ reservedAt: requestItems.reservedAt, status: requestItems.status })
    .from(requestItems)
  expect(items.every((item) => item.reservedAt === null && item.status === 'received')).toBe(true)
  expect(
    await refusal(
      recordManualPayment(orders.as(admin), {
        invoiceId: packed.invoiceId,
        version: 1,
        amountJpy: '4000',
        reference: 'BANK late',
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'invoiceNotPayable' })
  // Paid shipments stay: once paid, only shipping, delivery or a claim move it.
  expect(
    await refusal(
      cancelShipment(orders.as(ana), { id: shipment.id, version: detail.version, confirm: 'yes' }),
    ),
  ).toMatchObject({
    code: 'conflict',
  })
})
