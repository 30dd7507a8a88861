import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { exportAccountData } from '#core/accounts/data-export.ts'
import { createAddress } from '#core/customers/profile-service.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import type { RateTables } from '#core/pricing/pricing.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { bookArrival } from '#core/warehouse/arrival-service.ts'
import { listStoredItems } from '#core/warehouse/stored-items.ts'
import {
  notifications,
  orderEvents,
  requestItems,
  shipmentItems,
  shipments,
  users,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import {
  cancelShipment,
  estimateMyShipment,
  getShipment,
  listMyShipments,
  listShipmentQueue,
  requestShipment,
} from './shipment-service.ts'

// Shipment requests (docs/decisions/028): the customer's own items at the office, from several
// requests at once, an address from their book; reserved once; storage paused; cancel gives the
// items back. Every refusal writes nothing.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

const prices = (n: number) => ({
  asia: n,
  europe_canada_mexico: n + 1000,
  usa: n + 2000,
  central_south_america: n + 3000,
})
const RATES: RateTables = {
  economic: [
    { ceilingG: 1000, prices: prices(1000) },
    { ceilingG: 2000, prices: prices(2000) },
  ],
  express: [
    { ceilingG: 2000, prices: prices(3000) },
    { ceilingG: 10_000, prices: prices(9000) },
  ],
}

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user' },
    { ...base, id: bruno.id, name: 'Bruno Díaz', email: 'bruno@example.com', role: 'user' },
    { ...base, id: admin.id, name: 'Admin', email: 'admin@example.com', role: 'admin' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator' },
  ])
  // Two paid requests of Ana's, each with one item booked in (400 g and 700 g), and one of Bruno's.
  const arrived = async (userId: string, weight: string) => {
    const quoted = await insertQuotedRequest(pool, { userId, items: [{ unitPriceJpy: 3000 }] })
    await recordManualPayment(orders.as(admin), {
      invoiceId: quoted.invoiceId,
      version: 0,
      amountJpy: String(quoted.totalJpy),
      reference: `BANK ${quoted.requestNumber}`,
    })
    const version = (
      await pool.query('SELECT version FROM purchase_requests WHERE id = $1', [quoted.requestId])
    ).rows[0].version
    await bookArrival(orders.as(moderator), {
      id: quoted.requestId,
      version,
      items: [{ id: quoted.itemIds[0], received: 'on', weight }],
      shelf: 'A-1',
    })
    return quoted.itemIds[0] as string
  }
  const first = await arrived(ana.id, '400')
  const second = await arrived(ana.id, '700')
  const brunos = await arrived(bruno.id, '300')
  const address = {
    fullName: 'Ana Pérez',
    street: 'Av. Larco 123',
    city: 'Lima',
    region: 'Lima',
    postalCode: '15074',
    country: 'PE' as const,
    phone: '+51 1 234 5678',
    makeDefault: false,
  }
  const peru = await createAddress(orders.as(ana), address)
  const brunoAddress = await createAddress(orders.as(bruno), { ...address, fullName: 'Bruno' })
  const snapshot = async () => ({
    shipments: (await db.select().from(shipments)).map((row) => [row.status, row.version]),
    items: (await db.select().from(shipmentItems)).map((row) => [row.itemId, row.active]),
    reserved: (
      await db
        .select({ at: requestItems.reservedAt, paused: requestItems.storagePausedDays })
        .from(requestItems)
    ).map((row) => [row.at !== null, row.paused]),
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
  })
  return { db, pool, orders, first, second, brunos, peru: peru.id, brunoAddress: brunoAddress.id, snapshot }
}

test('a customer ships two items from two requests together: estimate, reservation, storage paused, staff told, cancel gives them back', async () => {
  const { db, pool, orders, first, second, peru, snapshot } = await setup()
  const choice = { items: [first, second], addressId: peru, method: 'economic' }
  // 400 + 700 + the 200 g packing allowance = 1,300 g: the 2 kg row for Peru.
  expect(await estimateMyShipment(orders.as(ana), choice, RATES)).toEqual({
    choice,
    country: 'PE',
    estimate: {
      ok: true,
      weightG: 1300,
      priceJpy: 5000,
      deliveryTime: 'economic',
      route: 'direct',
      region: 'central_south_america',
      // Within their free days: no storage fee, no tax on it.
      storage: [],
      storageFeeJpy: 0,
      taxJpy: 0,
      totalJpy: 5000,
    },
  })
  const staffMails = await countJobs(pool, 'notification.staff-email')
  const created = await requestShipment(orders.as(ana), choice, RATES, { locale: 'es' })
  expect(created.number).toMatch(/^SH-\d{6}$/)
  const [row] = await db.select().from(shipments)
  expect(row).toMatchObject({
    userId: ana.id,
    status: 'requested',
    method: 'economic',
    country: 'PE',
    region: 'central_south_america',
    route: 'direct',
    estimatedWeightG: 1300,
    estimatedPriceJpy: 5000,
    address: expect.objectContaining({ city: 'Lima', country: 'PE' }),
  })
  expect(await countJobs(pool, 'notification.staff-email')).toBe(staffMails + 1)
  // Reserved: in no second shipment, paused in the storage list, shown as waiting.
  const stored = await listStoredItems(orders.as(ana), {
    now: new Date(Date.now() + 20 * 86_400_000),
    freeDays: 30,
    feePerDayJpy: 100,
  })
  expect(stored.map((item) => [item.id, item.shipment?.number, item.storage.daysLeft])).toEqual([
    [first, created.number, 30],
    [second, created.number, 30],
  ])
  const before = await snapshot()
  expect(
    await refusal(requestShipment(orders.as(ana), { ...choice, items: [first] }, RATES, { locale: 'es' })),
  ).toMatchObject({
    code: 'conflict',
    reason: 'itemNotShippable',
  })
  expect(await snapshot()).toEqual(before)

  // Lists and pages: the owner and staff; another customer gets "not found".
  expect(await listMyShipments(orders.as(ana))).toEqual([
    expect.objectContaining({ number: created.number, items: 2 }),
  ])
  expect(await listMyShipments(orders.as(bruno))).toEqual([])
  const mine = await getShipment(orders.as(ana), created.id)
  expect(mine.lines.map((line) => [line.id, line.shelf])).toEqual(
    expect.arrayContaining([
      [first, null],
      [second, null],
    ]),
  )
  expect(
    (await getShipment(orders.as(moderator), created.id)).lines.every((line) => line.shelf === 'A-1'),
  ).toBe(true)
  expect(await refusal(getShipment(orders.as(bruno), created.id))).toMatchObject({ code: 'not_found' })
  const queue = await listShipmentQueue(orders.as(moderator), { status: 'requested' })
  expect(queue.rows.map((r) => r.number)).toEqual([created.number])
  expect(queue.counts).toEqual({ requested: 1 })
  expect(await refusal(listShipmentQueue(orders.as(ana)))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(listShipmentQueue(orders.as(admin), { status: "requested' or 1=1" }))).toMatchObject({
    code: 'invalid',
  })
  expect(await refusal(listShipmentQueue(orders.as(admin), { cursor: 'nonsense' }))).toMatchObject({
    code: 'invalid',
  })

  // Cancel: another customer cannot; a stale page cannot; not without confirming; the owner can, once.
  const yes = { confirm: 'yes' }
  expect(
    await refusal(cancelShipment(orders.as(bruno), { id: created.id, version: 0, ...yes })),
  ).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(cancelShipment(orders.as(ana), { id: created.id, version: 7, ...yes }))).toMatchObject(
    {
      reason: 'shipmentChanged',
    },
  )
  const unconfirmed = await snapshot()
  for (const confirm of [undefined, '', 'no', 'on']) {
    expect(
      await refusal(cancelShipment(orders.as(ana), { id: created.id, version: 0, confirm })),
    ).toMatchObject({
      code: 'invalid',
      reason: 'actionNotConfirmed',
      fields: { confirm: ['confirmRequired'] },
    })
  }
  expect(await snapshot()).toEqual(unconfirmed)
  // Pretend the items waited 3 days: the days come back to their free storage.
  await pool.query(
    "UPDATE request_items SET reserved_at = reserved_at - interval '3 days' WHERE reserved_at IS NOT NULL",
  )
  await cancelShipment(orders.as(ana), { id: created.id, version: 0, ...yes })
  expect(await refusal(cancelShipment(orders.as(ana), { id: created.id, version: 1, ...yes }))).toMatchObject(
    {
      code: 'conflict',
      reason: 'shipmentChanged',
    },
  )
  const after = await db
    .select({ id: requestItems.id, at: requestItems.reservedAt, paused: requestItems.storagePausedDays })
    .from(requestItems)
  expect(
    after.filter((item) => item.id === first || item.id === second).map((item) => [item.at, item.paused]),
  ).toEqual([
    [null, 3],
    [null, 3],
  ])
  expect((await db.select().from(shipmentItems)).every((item) => !item.active)).toBe(true)
  // The same items can be asked for again.
  await requestShipment(orders.as(ana), { ...choice, items: [first] }, RATES, { locale: 'es' })
  // The customer cancelled it themselves: told so (no reason given, none shown), never as if staff had.
  expect(
    (await db.select().from(notifications).where(eq(notifications.type, 'shipment_cancelled'))).length,
  ).toBe(0)
  expect(
    await db.select().from(notifications).where(eq(notifications.type, 'shipment_cancelled_by_you')),
  ).toEqual([expect.objectContaining({ userId: ana.id, params: { number: created.number } })])
  // Staff stop packing it: each of them told once, in their own list, with no reason given.
  const staffTold = async () =>
    (
      await db
        .select({ userId: notifications.userId, params: notifications.params, link: notifications.link })
        .from(notifications)
        .where(
          and(eq(notifications.audience, 'staff'), eq(notifications.type, 'shipment_cancelled_by_customer')),
        )
        .orderBy(notifications.userId, notifications.createdAt)
    ).map((row) => [row.userId, row.params, row.link])
  expect(await staffTold()).toEqual([
    [admin.id, { number: created.number }, `/admin-dashboard/shipments/${created.id}`],
    [moderator.id, { number: created.number }, `/admin-dashboard/shipments/${created.id}`],
  ])
  // "Download my data" lists the customer's packages and shipments, and nobody else's.
  const exported = await exportAccountData(db, ana.id)
  expect(exported?.packages).toHaveLength(2)
  expect(exported?.shipments).toEqual([
    expect.objectContaining({ number: created.number, status: 'cancelled' }),
    expect.objectContaining({ status: 'requested' }),
  ])
  expect((await exportAccountData(db, bruno.id))?.shipments).toEqual([])
  // With a reason: staff read it.
  const withReason = await requestShipment(orders.as(ana), { ...choice, items: [second] }, RATES, {
    locale: 'es',
  })
  await cancelShipment(orders.as(ana), {
    id: withReason.id,
    version: 0,
    reason: 'Quiero juntarlo con otra compra',
    confirm: 'yes',
  })
  expect((await staffTold()).filter(([userId]) => userId === admin.id).map(([, params]) => params)).toEqual([
    { number: created.number },
    { number: withReason.number, reason: 'Quiero juntarlo con otra compra' },
  ])
})

test('staff cancelling tells the customer; a paid shipment cannot be cancelled', async () => {
  const { db, pool, orders, first, peru } = await setup()
  const created = await requestShipment(
    orders.as(ana),
    { items: [first], addressId: peru, method: 'express' },
    RATES,
    { locale: 'en' },
  )
  // Staff must say why (the customer reads it), and confirm.
  expect(
    await refusal(cancelShipment(orders.as(moderator), { id: created.id, version: 0, confirm: 'yes' })),
  ).toMatchObject({ code: 'invalid', fields: { reason: ['reasonRequired'] } })
  expect(
    await refusal(
      cancelShipment(orders.as(moderator), { id: created.id, version: 0, reason: 'Address incomplete' }),
    ),
  ).toMatchObject({ code: 'invalid', reason: 'actionNotConfirmed' })
  expect(await db.select().from(notifications).where(eq(notifications.type, 'shipment_cancelled'))).toEqual(
    [],
  )
  await cancelShipment(orders.as(moderator), {
    id: created.id,
    version: 0,
    reason: 'The address has no street number: please add it and ask again',
    confirm: 'yes',
  })
  expect(await db.select().from(notifications).where(eq(notifications.type, 'shipment_cancelled'))).toEqual([
    expect.objectContaining({
      userId: ana.id,
      link: `/user-dashboard/shipments/${created.id}`,
      params: {
        number: created.number,
        reason: 'The address has no street number: please add it and ask again',
      },
    }),
  ])
  // The reason is in the shipment's history too, for the customer and staff.
  // Staff cancelling it themselves tell no other staff.
  expect(
    await db.select().from(notifications).where(eq(notifications.type, 'shipment_cancelled_by_customer')),
  ).toEqual([])
  const history = (await getShipment(orders.as(ana), created.id)).events.at(-1)
  expect(history).toMatchObject({
    event: 'cancel',
    actorKind: 'staff',
    note: 'The address has no street number: please add it and ask again',
  })
  const again = await requestShipment(
    orders.as(ana),
    { items: [first], addressId: peru, method: 'express' },
    RATES,
    { locale: 'en' },
  )
  await pool.query("UPDATE shipments SET status = 'paid' WHERE id = $1", [again.id])
  expect(
    await refusal(cancelShipment(orders.as(ana), { id: again.id, version: 0, confirm: 'yes' })),
  ).toMatchObject({
    code: 'conflict',
    reason: 'shipmentNotAllowed',
  })
})

test('bad input, someone else’s items or address, too heavy: a clear refusal and nothing written', async () => {
  const { pool, orders, first, second, brunos, peru, brunoAddress, snapshot } = await setup()
  const good = { items: [first], addressId: peru, method: 'economic' }
  const before = await snapshot()
  const cases: [string, () => Promise<unknown>, Record<string, unknown>][] = [
    [
      'anonymous',
      () => requestShipment(orders.as(null), good, RATES, { locale: 'es' }),
      { code: 'unauthorized' },
    ],
    [
      'no items',
      () => requestShipment(orders.as(ana), { ...good, items: [] }, RATES, { locale: 'es' }),
      { code: 'invalid', fields: { items: ['noItems'] } },
    ],
    [
      'no address',
      () => requestShipment(orders.as(ana), { ...good, addressId: '' }, RATES, { locale: 'es' }),
      { code: 'invalid', fields: { addressId: ['addressRequired'] } },
    ],
    [
      'no method',
      () => requestShipment(orders.as(ana), { ...good, method: '' }, RATES, { locale: 'es' }),
      { code: 'invalid', fields: { method: ['methodRequired'] } },
    ],
    [
      'a made-up method',
      () => requestShipment(orders.as(ana), { ...good, method: 'teleport' }, RATES, { locale: 'es' }),
      { code: 'invalid', fields: { method: ['invalid'] } },
    ],
    [
      'hostile ids',
      () => requestShipment(orders.as(ana), { ...good, items: ["' OR 1=1 --"] }, RATES, { locale: 'es' }),
      { code: 'invalid', fields: { 'items[0]': ['invalid'] } },
    ],
    [
      'the same item twice',
      () => requestShipment(orders.as(ana), { ...good, items: [first, first] }, RATES, { locale: 'es' }),
      { code: 'invalid', fields: { items: ['invalid'] } },
    ],
    [
      'items as an object',
      () => requestShipment(orders.as(ana), { ...good, items: { a: first } }, RATES, { locale: 'es' }),
      { code: 'invalid' },
    ],
    [
      'too many items',
      () =>
        requestShipment(
          orders.as(ana),
          {
            ...good,
            items: Array.from(
              { length: 101 },
              (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
            ),
          },
          RATES,
          { locale: 'es' },
        ),
      { code: 'invalid', fields: { items: ['tooManyItems'] } },
    ],
    [
      'another customer’s item',
      () => requestShipment(orders.as(ana), { ...good, items: [first, brunos] }, RATES, { locale: 'es' }),
      { code: 'conflict', reason: 'itemNotShippable' },
    ],
    [
      'another customer’s address',
      () => requestShipment(orders.as(ana), { ...good, addressId: brunoAddress }, RATES, { locale: 'es' }),
      { code: 'not_found', reason: 'addressNotFound' },
    ],
    [
      'an item not at the office',
      () =>
        requestShipment(orders.as(ana), { ...good, items: ['00000000-0000-4000-8000-000000000000'] }, RATES, {
          locale: 'es',
        }),
      { code: 'conflict', reason: 'itemNotShippable' },
    ],
  ]
  for (const [name, run, expected] of cases) expect(await refusal(run()), name).toMatchObject(expected)
  // 400 + 700 + 200 = 1,300 g fits economy; a 1 kg table tops out: no rate. Over 2 kg: too heavy.
  const small: RateTables = { ...RATES, economic: [{ ceilingG: 1000, prices: prices(1000) }] }
  expect(
    await refusal(
      requestShipment(orders.as(ana), { ...good, items: [first, second] }, small, { locale: 'es' }),
    ),
  ).toMatchObject({
    code: 'invalid',
    reason: 'shipmentNoRate',
    fields: { method: ['noRate'] },
  })
  await pool.query('UPDATE request_items SET weight_grams = 1900 WHERE id = $1', [first])
  expect(await refusal(requestShipment(orders.as(ana), good, RATES, { locale: 'es' }))).toMatchObject({
    code: 'invalid',
    reason: 'shipmentTooHeavy',
    fields: { method: ['tooHeavy'] },
  })
  await pool.query('UPDATE request_items SET weight_grams = 400 WHERE id = $1', [first])
  const heavy: RateTables = { ...RATES, economic: [{ ceilingG: 2000, prices: prices(1000) }] }
  expect(
    (await estimateMyShipment(orders.as(ana), { ...good, items: [first, second] }, heavy)).estimate.ok,
  ).toBe(true)
  expect(await snapshot()).toEqual(before)
})

test('two tabs asking to ship the same item at once: one shipment, the other refused', async () => {
  const { db, orders, first, peru } = await setup()
  const choice = { items: [first], addressId: peru, method: 'economic' }
  const results = await Promise.allSettled([
    requestShipment(orders.as(ana), choice, RATES, { locale: 'es' }),
    requestShipment(orders.as(ana), choice, RATES, { locale: 'es' }),
  ])
  expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
  const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
  expect(isAppError(rejected.reason) && rejected.reason.details.reason).toBe('itemNotShippable')
  expect((await db.select().from(shipments)).length).toBe(1)
})

test('staff search the shipments queue by number, customer name or e-mail; text is text, never a pattern', async () => {
  const { orders, first, second, brunos, peru, brunoAddress } = await setup()
  const mine = await requestShipment(
    orders.as(ana),
    { items: [first, second], addressId: peru, method: 'economic' },
    RATES,
    {
      locale: 'es',
    },
  )
  const his = await requestShipment(
    orders.as(bruno),
    { items: [brunos], addressId: brunoAddress, method: 'express' },
    RATES,
    {
      locale: 'en',
    },
  )
  const found = async (q: string, status?: string) =>
    (await listShipmentQueue(orders.as(moderator), { q, status })).rows.map((row) => row.number)
  expect(await found(mine.number)).toEqual([mine.number])
  expect(await found(mine.number.toLowerCase())).toEqual([mine.number])
  expect(await found('bruno@example')).toEqual([his.number])
  expect(await found('Pérez')).toEqual([mine.number])
  expect(await found('SH-')).toEqual([his.number, mine.number])
  expect(await found('%')).toEqual([])
  expect(await found("' or 1=1 --")).toEqual([])
  expect(await found('Pérez', 'cancelled')).toEqual([])
  expect((await listShipmentQueue(orders.as(admin), { q: 'bruno' })).counts).toEqual({ requested: 1 })
})
