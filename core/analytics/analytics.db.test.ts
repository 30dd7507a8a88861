import { expect, test } from 'vitest'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { openClaim, resolveClaim } from '#core/shipping/claims.ts'
import { shipShipment } from '#core/shipping/shipment-delivery.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { admin, ana, moderator, paidShipment } from '#tests/support/shipment-fixtures.ts'
import { bookedItems } from '#tests/support/warehouse-fixtures.ts'
import { getAnalytics } from './analytics.ts'
import { japanDay, parsePeriod } from './period.ts'

// Each figure against a hand-computed fixture for March 2026 in Japan time, with orders just
// either side of its edges (Japan midnight is 15:00 UTC the day before).

const jst = (local: string) => new Date(`${local}+09:00`)

async function setup() {
  const { db, pool } = await createTestDatabase()
  const account = async (email: string, role: 'user' | 'admin' | 'moderator', createdAt: string) => {
    const { id } = await insertPasswordAccount(pool, { email, role })
    await pool.query('UPDATE users SET created_at = $2 WHERE id = $1', [id, jst(createdAt)])
    return { id, role } as Actor
  }
  const admin = await account('boss@example.com', 'admin', '2025-06-01T10:00:00')
  const moderator = await account('mod@example.com', 'moderator', '2026-02-28T23:59:59')
  const ana = await account('ana@example.com', 'user', '2026-03-15T12:00:00')
  await account('luis@example.com', 'user', '2026-04-01T00:00:00')
  const paid = async (invoiceId: string, requestId: string, at: string) => {
    await pool.query(`UPDATE invoices SET status = 'paid', paid_at = $2 WHERE id = $1`, [invoiceId, jst(at)])
    await pool.query(`UPDATE purchase_requests SET status = 'paid', paid_at = $2 WHERE id = $1`, [
      requestId,
      jst(at),
    ])
  }
  const quote = (at: string, items: Parameters<typeof insertQuotedRequest>[1]['items']) =>
    insertQuotedRequest(pool, { userId: ana.id ?? '', at: jst(at), items })
  const mercari = (n: number) => `https://jp.mercari.com/item/m${n}`
  // R1: the first minute of March in Japan; paid in March. 5,000 + fee 1,000 + tax 600 + 800.
  const r1 = await quote('2026-03-01T00:00:30', [
    { url: mercari(1), unitPriceJpy: 2500, quantity: 2, domesticShippingJpy: 800 },
  ])
  await paid(r1.invoiceId, r1.requestId, '2026-03-05T12:00:00')
  // R2: the last minute of February; paid on 2 March. 10,000 + fee 500 + tax 1,050.
  const r2 = await quote('2026-02-28T23:59:30', [
    { url: 'https://www.amazon.co.jp/dp/B0C1', unitPriceJpy: 10000 },
  ])
  await paid(r2.invoiceId, r2.requestId, '2026-03-02T12:00:00')
  // R3: the last minute of March; two shops; never paid.
  await quote('2026-03-31T23:59:30', [
    { url: 'https://www.amazon.co.jp/dp/B0C2', unitPriceJpy: 3000 },
    { url: mercari(2), unitPriceJpy: 1000 },
  ])
  // R4: the first second of April; paid in April.
  const r4 = await quote('2026-04-01T00:00:00', [{ url: mercari(3), unitPriceJpy: 900 }])
  await paid(r4.invoiceId, r4.requestId, '2026-04-02T00:00:00')
  // R5: in March, paid at the first second of April.
  const r5 = await quote('2026-03-10T09:00:00', [
    { url: 'https://item.rakuten.co.jp/shop/x', unitPriceJpy: 4000 },
  ])
  await paid(r5.invoiceId, r5.requestId, '2026-04-01T00:00:00')
  return { db, pool, admin, moderator, ana, r1, r2, totals: { r1: r1.totalJpy, r2: r2.totalJpy } }
}

test('March 2026: every figure as counted by hand', async () => {
  const { db, admin, totals } = await setup()
  expect(totals).toEqual({ r1: 7400, r2: 11550 })
  const march = parsePeriod({ preset: 'custom', from: '2026-03-01', to: '2026-03-31' })
  const figures = await getAnalytics({ db, actor: admin }, march)
  expect(figures).toMatchObject({
    // R1, R3, R5 were sent in March.
    requestsReceived: 3,
    // Their quotes were issued with them; R1 and R5 are paid (R5 in April: paid whenever).
    quotesIssued: 3,
    quotesPaid: 2,
    // R1 and R2 were paid in March (R2 was sent in February).
    revenue: {
      invoices: 2,
      itemsJpy: 15000,
      serviceFeeJpy: 1500,
      domesticShippingJpy: 800,
      taxJpy: 1650,
      totalJpy: 18950,
      averageJpy: 9475,
    },
    // Ana joined in March; the moderator a second before it, Luis at its end.
    newUsers: 1,
    // Requests sent in March by the shops they link to (R3 counts for two shops).
    topShops: [
      { host: 'jp.mercari.com', name: null, requests: 2 },
      { host: 'amazon.co.jp', name: null, requests: 1 },
      { host: 'item.rakuten.co.jp', name: null, requests: 1 },
    ],
  })
  expect(figures.paidShare).toBeCloseTo(2 / 3)
  expect(figures.series).toHaveLength(31)
  const days = Object.fromEntries(figures.series.map((entry) => [entry.bucket, entry]))
  expect(days['2026-03-01']).toEqual({ bucket: '2026-03-01', requests: 1, revenueJpy: 0 })
  expect(days['2026-03-02']).toEqual({ bucket: '2026-03-02', requests: 0, revenueJpy: 11550 })
  expect(days['2026-03-05']).toEqual({ bucket: '2026-03-05', requests: 0, revenueJpy: 7400 })
  expect(days['2026-03-10']).toEqual({ bucket: '2026-03-10', requests: 1, revenueJpy: 0 })
  expect(days['2026-03-31']).toEqual({ bucket: '2026-03-31', requests: 1, revenueJpy: 0 })
  expect(figures.series.reduce((sum, entry) => sum + entry.requests, 0)).toBe(3)
  expect(figures.series.reduce((sum, entry) => sum + entry.revenueJpy, 0)).toBe(18950)
})

test('revenue is net of the refunds of what quotes charged, owed in the period; money never counted is not taken off', async () => {
  const { db, pool, admin, r1, r2 } = await setup()
  const payment = async (invoiceId: string, status: string, amount: number) => {
    const { rows } = await pool.query(
      `INSERT INTO payments (invoice_id, provider, status, requested_jpy, amount, currency, settled_at)
       VALUES ($1, 'manual', $2, $3, $3, 'JPY', now()) RETURNING id`,
      [invoiceId, status, amount],
    )
    return String(rows[0].id)
  }
  const owe = (paymentId: string, amount: number, reason: string, at: string, status = 'due') =>
    pool.query(
      'INSERT INTO refunds (payment_id, amount_jpy, status, reason, created_at) VALUES ($1, $2, $3, $4, $5)',
      [paymentId, amount, status, reason, jst(at)],
    )
  const first = await payment(r1.invoiceId, 'succeeded', 7400)
  const second = await payment(r2.invoiceId, 'succeeded', 11550)
  const twice = await payment(r2.invoiceId, 'duplicate', 11550)
  // In March: an item R1 charged for could not be bought (owed back 1,000), and sent back the
  // same day (a done row: not counted twice).
  await owe(first, 1000, 'item 1 unavailable: Sold out', '2026-03-20T10:00:00')
  await owe(first, 1000, 'BANK-R-1', '2026-03-20T11:00:00', 'done')
  // A second payment of R2 and an overpayment: never revenue, not taken off.
  await owe(twice, 11550, 'duplicate_payment', '2026-03-21T10:00:00')
  await owe(second, 50, 'overpayment', '2026-03-21T10:00:00')
  // Half of a lost parcel's items, owed on the first second of April: April's.
  await owe(second, 5000, 'lost parcel SH-000001: 50% of ¥10000', '2026-04-01T00:00:00')
  const march = await getAnalytics(
    { db, actor: admin },
    parsePeriod({ preset: 'custom', from: '2026-03-01', to: '2026-03-31' }),
  )
  expect(march.revenue).toEqual({
    invoices: 2,
    itemsJpy: 15000,
    serviceFeeJpy: 1500,
    domesticShippingJpy: 800,
    taxJpy: 1650,
    grossJpy: 18950,
    refundedJpy: 1000,
    totalJpy: 17950,
    // What an order was: before refunds.
    averageJpy: 9475,
  })
  const days = Object.fromEntries(march.series.map((entry) => [entry.bucket, entry.revenueJpy]))
  expect(days['2026-03-20']).toBe(-1000)
  expect(days['2026-03-21']).toBe(0)
  expect(march.series.reduce((sum, entry) => sum + entry.revenueJpy, 0)).toBe(17950)
  const april = await getAnalytics(
    { db, actor: admin },
    parsePeriod({ preset: 'custom', from: '2026-04-01', to: '2026-04-30' }),
  )
  expect(april.revenue).toMatchObject({ grossJpy: 900 + 500 + 140 + 4000 + 500 + 450, refundedJpy: 5000 })
  expect(april.revenue.totalJpy).toBe(april.revenue.grossJpy - 5000)
})

test('a year by month, and an empty period: zeros, no division by zero', async () => {
  const { db, admin } = await setup()
  const year = await getAnalytics(
    { db, actor: admin },
    parsePeriod({ preset: 'custom', from: '2026-01-01', to: '2026-12-31' }),
  )
  expect(year.series.map((entry) => entry.bucket)).toHaveLength(12)
  expect(year.series.find((entry) => entry.bucket === '2026-04')).toEqual({
    bucket: '2026-04',
    requests: 1,
    revenueJpy: 900 + 500 + 140 + 4000 + 500 + 450,
  })
  expect(year).toMatchObject({
    requestsReceived: 5,
    quotesIssued: 5,
    quotesPaid: 4,
    revenue: { invoices: 4 },
  })
  const empty = await getAnalytics(
    { db, actor: admin },
    parsePeriod({ preset: 'custom', from: '2020-01-01', to: '2020-01-31' }),
  )
  expect(empty).toMatchObject({
    requestsReceived: 0,
    quotesIssued: 0,
    paidShare: 0,
    revenue: { invoices: 0, totalJpy: 0, averageJpy: 0 },
    topShops: [],
  })
})

test('analytics are for admins only', async () => {
  const { db, moderator, ana } = await setup()
  const period = parsePeriod({})
  for (const [actor, code] of [
    [null, 'unauthorized'],
    [ana, 'forbidden'],
    [moderator, 'forbidden'],
  ] as const) {
    const refused = await getAnalytics({ db, actor }, period).then(
      () => null,
      (error: unknown) => (isAppError(error) ? error.code : error),
    )
    expect(refused).toBe(code)
  }
})

test('part 2: shipping receipts, the office now, shipments by method and region, lost-parcel claims', async () => {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const { shipment, version } = await paidShipment(db, pool, orders)
  // One more item of Ana's at the office, there for 10 days; the shipped ones no longer count.
  const stays = await bookedItems(orders, pool, { userId: ana.id, staff: admin })
  await pool.query(`UPDATE request_items SET received_at = now() - interval '10 days 1 hour' WHERE id = $1`, [
    stays.itemIds[0],
  ])
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version,
    carrier: 'japan_post',
    trackingNumber: 'EE123456785JP',
  })
  const later = new Date(Date.now() + 31 * 86_400_000)
  const { claimId } = await openClaim(orders.as(ana), { id: shipment.id, version: shipped.version }, later)
  await resolveClaim(orders.as(admin), { claimId, version: 0, resolution: 'lost', reason: 'Lost in transit' })
  const period = parsePeriod({
    preset: 'custom',
    from: japanDay(new Date(Date.now() - 86_400_000)),
    to: japanDay(new Date(Date.now() + 40 * 86_400_000)),
  })
  const figures = await getAnalytics(orders.as(admin), period)
  expect(figures.shippingRevenue).toEqual({
    invoices: 1,
    shippingJpy: 5000,
    storageFeeJpy: 0,
    taxJpy: 0,
    grossJpy: 5000,
    refundedJpy: 0,
    totalJpy: 5000,
  })
  // The lost parcel's halves are owed back now: revenue is net of them (docs/decisions/034).
  expect(figures.revenue.refundedJpy).toBe(4000)
  expect(figures.revenue.totalJpy).toBe(figures.revenue.grossJpy - 4000)
  expect(figures.series.reduce((sum, entry) => sum + entry.revenueJpy, 0)).toBe(figures.revenue.totalJpy)
  expect(figures.office).toEqual({ items: 1, averageDaysStored: 10, longestDaysStored: 10 })
  expect(figures.shipped).toEqual([{ method: 'economic', region: 'central_south_america', shipments: 1 }])
  // Items of ¥3,000 and ¥5,000: half of each refunded.
  expect(figures.claims).toEqual({ opened: 1, lost: 1, closed: 0, refundJpy: 4000 })
  // A period before any of it: zeros (the office is now, whatever the period).
  const before = await getAnalytics(
    orders.as(admin),
    parsePeriod({ preset: 'custom', from: '2020-01-01', to: '2020-01-31' }),
  )
  expect(before.shippingRevenue.totalJpy).toBe(0)
  expect(before.shipped).toEqual([])
  expect(before.claims).toEqual({ opened: 0, lost: 0, closed: 0, refundJpy: 0 })
  expect(before.office.items).toBe(1)
})
