import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import {
  auditLog,
  claims,
  notifications,
  orderEvents,
  refunds,
  requestItems,
  shipments,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { admin, ana, bruno, moderator, paidShipment } from '#tests/support/shipment-fixtures.ts'
import { claimOfShipment, halfOf, investigateClaim, openClaim, resolveClaim } from './claims.ts'
import { confirmDelivery, shipShipment } from './shipment-delivery.ts'
import { getShipment } from './shipment-service.ts'

// After payment (docs/decisions/030): tracking, delivery, and lost-parcel claims refunded at 50 %.
// Every refusal writes nothing.

const DAY = 86_400_000
const TRACKING = 'EE123456785JP'

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const paid = await paidShipment(db, pool, orders)
  const snapshot = async () => ({
    shipments: (await db.select().from(shipments)).map((row) => [
      row.status,
      row.version,
      row.trackingNumber,
    ]),
    items: (await db.select({ status: requestItems.status }).from(requestItems))
      .map((row) => row.status)
      .sort(),
    claims: (await db.select().from(claims)).map((row) => [row.status, row.version]),
    refunds: (await db.select().from(refunds)).length,
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
  })
  return { db, pool, orders, ...paid, snapshot }
}

test('staff ship with a Japan Post number, the items become shipped, the customer is told and confirms receipt', async () => {
  const { db, orders, shipment, version, snapshot } = await setup()
  const before = await snapshot()
  const ship = (actor: Actor | null, input: Record<string, unknown>) =>
    refusal(shipShipment(orders.as(actor), { id: shipment.id, version, carrier: 'japan_post', ...input }))
  expect(await ship(null, { trackingNumber: TRACKING })).toMatchObject({ code: 'unauthorized' })
  expect(await ship(ana, { trackingNumber: TRACKING })).toMatchObject({ code: 'forbidden' })
  expect(await ship(moderator, { trackingNumber: '' })).toMatchObject({
    fields: { trackingNumber: ['trackingRequired'] },
  })
  expect(await ship(moderator, { trackingNumber: 'EE123456784JP' })).toMatchObject({
    fields: { trackingNumber: ['trackingCheckDigit'] },
  })
  expect(await ship(moderator, { trackingNumber: 'x'.repeat(61) })).toMatchObject({
    fields: { trackingNumber: ['trackingShape'] },
  })
  expect(await ship(moderator, { carrier: 'pigeon', trackingNumber: TRACKING })).toMatchObject({
    fields: { carrier: ['invalid'] },
  })
  expect(await ship(moderator, { trackingNumber: TRACKING, version: version - 1 })).toMatchObject({
    code: 'conflict',
    reason: 'shipmentChanged',
  })
  // The customer cannot confirm a parcel that has not left.
  expect(await refusal(confirmDelivery(orders.as(ana), { id: shipment.id, version }))).toMatchObject({
    reason: 'shipmentNotAllowed',
  })
  expect(await snapshot()).toEqual(before)

  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version,
    carrier: 'japan_post',
    trackingNumber: 'ee 1234 5678 5 jp',
  })
  const detail = await getShipment(orders.as(ana), shipment.id)
  expect(detail.status).toBe('shipped')
  expect(detail.tracking).toMatchObject({ carrier: 'japan_post', number: TRACKING })
  expect(
    (await db.select({ status: requestItems.status }).from(requestItems)).map((row) => row.status),
  ).toEqual(['shipped', 'shipped'])
  const [told] = await db.select().from(notifications).where(eq(notifications.type, 'shipment_shipped'))
  expect(told?.params).toEqual({ number: shipment.number, carrier: 'Japan Post', tracking: TRACKING })
  // Another customer: not found; the owner confirms; twice is a stale page.
  expect(
    await refusal(confirmDelivery(orders.as(bruno), { id: shipment.id, version: shipped.version })),
  ).toMatchObject({
    code: 'not_found',
  })
  await confirmDelivery(orders.as(ana), { id: shipment.id, version: shipped.version })
  expect(
    await refusal(confirmDelivery(orders.as(ana), { id: shipment.id, version: shipped.version })),
  ).toMatchObject({
    code: 'conflict',
  })
  const delivered = await getShipment(orders.as(admin), shipment.id)
  expect(delivered.status).toBe('delivered')
  expect(delivered.events.map((event) => [event.event, event.actorKind])).toEqual([
    ['request', 'customer'],
    ['pack', 'staff'],
    ['pay', 'staff'],
    ['ship', 'staff'],
    ['deliver', 'customer'],
  ])
})

test('a lost parcel: reported after the waiting days, investigated, confirmed lost by an admin: 50 % of the items refunded once', async () => {
  const { db, pool, orders, shipment, version, first, second, snapshot } = await setup()
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version,
    carrier: 'japan_post',
    trackingNumber: TRACKING,
  })
  const open = (actor: Actor, when: Date, input: Record<string, unknown> = {}) =>
    openClaim(
      orders.as(actor),
      { id: shipment.id, version: shipped.version, note: 'Nada llegó', ...input },
      when,
    )
  const soon = new Date(Date.now() + 10 * DAY)
  const later = new Date(Date.now() + 31 * DAY)
  const before = await snapshot()
  expect(await refusal(open(ana, soon))).toMatchObject({ code: 'conflict', reason: 'claimNotYet' })
  expect(await refusal(open(bruno, later))).toMatchObject({ code: 'not_found' })
  expect(await refusal(open(ana, later, { note: 'x'.repeat(2001) }))).toMatchObject({
    fields: { note: ['noteTooLong'] },
  })
  expect(await snapshot()).toEqual(before)

  const staffMails = await countJobs(pool, 'notification.staff-email')
  const { claimId } = await open(ana, later)
  expect(await countJobs(pool, 'notification.staff-email')).toBe(staffMails + 1)
  expect(await refusal(open(ana, later))).toMatchObject({ code: 'conflict', reason: 'claimExists' })

  // Staff record the carrier's case; a customer may not.
  expect(
    await refusal(investigateClaim(orders.as(ana), { claimId, version: 0, carrierReference: 'JP-1' })),
  ).toMatchObject({ code: 'forbidden' })
  expect(await refusal(investigateClaim(orders.as(moderator), { claimId, version: 0 }))).toMatchObject({
    fields: { note: ['noteOrReference'] },
  })
  await investigateClaim(orders.as(moderator), {
    claimId,
    version: 0,
    carrierReference: 'JP-CASE-88123',
    note: 'Called Japan Post: last scan in Narita',
  })
  expect((await claimOfShipment(db, shipment.id))?.status).toBe('investigating')
  // The staff note stays internal.
  expect((await getShipment(orders.as(ana), shipment.id)).events.map((event) => event.event)).not.toContain(
    'claim_investigate',
  )

  // Money: only admins confirm a loss; a moderator may only close with a reason.
  const lost = { claimId, version: 1, resolution: 'lost', reason: 'Japan Post confirmed the loss' }
  expect(await refusal(resolveClaim(orders.as(moderator), lost))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(resolveClaim(orders.as(admin), { ...lost, reason: '' }))).toMatchObject({
    fields: { reason: ['reasonRequired'] },
  })
  const resolved = await resolveClaim(orders.as(admin), lost)
  // Items of ¥3,000 and ¥5,000, each from its own request and payment: ¥1,500 + ¥2,500.
  expect(resolved).toEqual({ status: 'lost', refundJpy: 4000 })
  const due = await db.select().from(refunds)
  expect(due.map((row) => [row.paymentId, row.amountJpy, row.status]).sort()).toEqual(
    [
      [first.paymentId, 1500, 'due'],
      [second.paymentId, 2500, 'due'],
    ].sort(),
  )
  expect((await getShipment(orders.as(ana), shipment.id)).status).toBe('lost')
  expect((await db.select().from(auditLog).where(eq(auditLog.kind, 'claim.lost'))).length).toBe(1)
  const [told] = await db.select().from(notifications).where(eq(notifications.type, 'claim_lost'))
  expect(told?.params).toEqual({ number: shipment.number, refundJpy: 4000 })
  // Resolved once: a second resolution is refused and nothing is refunded twice.
  expect(await refusal(resolveClaim(orders.as(admin), { ...lost, version: 2 }))).toMatchObject({
    code: 'conflict',
    reason: 'claimResolved',
  })
  expect((await db.select().from(refunds)).length).toBe(2)
})

test('a claim closed with a reason refunds nothing; a parcel not shipped cannot be claimed; halves round down', async () => {
  const { db, orders, shipment, version } = await setup()
  expect(
    await refusal(openClaim(orders.as(ana), { id: shipment.id, version }, new Date(Date.now() + 60 * DAY))),
  ).toMatchObject({ reason: 'claimNotYet' })
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version,
    carrier: 'ups',
    trackingNumber: '1Z999AA10123456784',
  })
  const { claimId } = await openClaim(
    orders.as(ana),
    { id: shipment.id, version: shipped.version },
    new Date(Date.now() + 40 * DAY),
  )
  await resolveClaim(orders.as(moderator), {
    claimId,
    version: 0,
    resolution: 'closed',
    reason: 'UPS delivered it to the building’s reception on 3 March: signed by J. Soto.',
  })
  expect(await claimOfShipment(db, shipment.id)).toMatchObject({ status: 'closed', refundJpy: null })
  expect((await getShipment(orders.as(ana), shipment.id)).status).toBe('shipped')
  expect((await db.select().from(refunds)).length).toBe(0)
  expect(halfOf(3001)).toBe(1500)
  expect(halfOf(0)).toBe(0)
})
