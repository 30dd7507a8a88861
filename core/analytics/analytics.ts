import { and, count, eq, gte, lt, lte, notInArray, sql } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'
import { can } from '#core/shared/staff-policy.ts'
import type { Database } from '#db/client.ts'
import {
  claims,
  invoices,
  payments,
  purchaseRequests,
  refunds,
  requestItems,
  requestShopDays,
  shipments,
  stores,
  users,
} from '#db/schema/index.ts'
import { buckets, type Period } from './period.ts'

/**
 * The admin panel's analytics (docs/decisions/025-admin-analytics.md): figures for a period in
 * Japan time, read from the orders themselves, summed in SQL (whole yen, bigint): part 1's
 * (requests, quotes, purchase revenue) and part 2's (shipping receipts, the office, shipments,
 * lost-parcel claims).
 */

export type Analytics = {
  requestsReceived: number
  quotesIssued: number
  quotesPaid: number
  /** quotesPaid / quotesIssued, 0 when none were issued. */
  paidShare: number
  revenue: {
    invoices: number
    /** The split of the paid quotes, as frozen on them (before refunds). */
    itemsJpy: number
    serviceFeeJpy: number
    domesticShippingJpy: number
    taxJpy: number
    /** What the paid quotes charged: the four parts above. */
    grossJpy: number
    /** Owed back in the period on purchase invoices for what they charged (see REFUNDS_OUTSIDE_REVENUE). */
    refundedJpy: number
    /** Net revenue: gross less refunded. */
    totalJpy: number
    /** Gross over paid invoices (what an order was), rounded down to the yen; 0 when none. */
    averageJpy: number
  }
  newUsers: number
  topShops: { host: string; name: string | null; requests: number }[]
  /** Shipping receipts paid in the period, by frozen invoice amounts. */
  shippingRevenue: {
    invoices: number
    shippingJpy: number
    storageFeeJpy: number
    taxJpy: number
    grossJpy: number
    /** Owed back in the period on shipping receipts for what they charged. */
    refundedJpy: number
    /** Net: gross less refunded. */
    totalJpy: number
  }
  /** Now, whatever the period: items at the office, and how long they have been there on average. */
  office: { items: number; averageDaysStored: number; longestDaysStored: number }
  /** Shipments handed to the carrier in the period, by method and region. */
  shipped: { method: string; region: string; shipments: number }[]
  /** Lost-parcel claims opened in the period, and of all claims, those resolved in it. */
  claims: { opened: number; lost: number; closed: number; refundJpy: number }
  /** Requests received and net revenue per bucket (Japan days or months), every bucket present. */
  series: { bucket: string; requests: number; revenueJpy: number }[]
}

/**
 * Refund reasons that give back money the revenue never counted (docs/decisions/034): a second
 * payment of a paid invoice, a payment held and returned, what a payment took above its invoice
 * (and a failed provider refund owed again: counted once, when first owed).
 * Every other refund due on an invoice (an item the shop could not supply, half of a lost
 * parcel's product value) gives back what the invoice charged: revenue is net of it, in the
 * period it is owed (when the admin decided it), as revenue counts an invoice when it is paid.
 */
export const REFUNDS_OUTSIDE_REVENUE = [
  'duplicate_payment',
  'held_payment',
  'overpayment',
  // A provider refund that failed, owed again: the first due row already counted.
  'refund_failed',
] as const

/**
 * The figures for a period. Admins only: revenue is the business's.
 * - requests received: submitted in the period;
 * - quotes issued: purchase invoices issued in the period (a revised quote counts again);
 * - quotes paid: of those, the ones paid (whenever);
 * - revenue: purchase invoices paid in the period, by line kind as frozen on the invoice, less
 *   the refunds of what they charged owed in the period (REFUNDS_OUTSIDE_REVENUE);
 * - new users: accounts created in the period;
 * - top shops: by requests received in the period that link to them (a request with two links
 *   to one shop counts once);
 * - shipping revenue: shipping receipts paid in the period (international shipping, storage
 *   fees, their tax), likewise net of their refunds;
 * - at the office: items received and not shipped or disposed, now, with their average and
 *   longest days since arrival;
 * - shipped: shipments handed to the carrier in the period, by method and region;
 * - claims: opened in the period; confirmed lost or closed in the period, with the refunds.
 * @throws AppError `unauthorized`, `forbidden`.
 */
export async function getAnalytics({ db, actor }: ServiceContext, period: Period): Promise<Analytics> {
  if (!actor) throw new AppError('unauthorized', 'Sign in to read analytics')
  if (!can(actor, 'view_analytics')) {
    throw new AppError('forbidden', 'Analytics are for admins', { reason: 'analyticsAdminsOnly' })
  }
  const refundsOwed = readRefundsOwed(db, period)
  const partTwo = readPartTwo(db, period)
  const partOne = await readPartOne(db, period)
  return shapeAnalytics(period, partOne, await partTwo, await refundsOwed)
}

type PartOne = Awaited<ReturnType<typeof readPartOne>>
type PartTwo = Awaited<ReturnType<typeof readPartTwo>>
type RefundsOwed = Awaited<ReturnType<typeof readRefundsOwed>>

/** The Japan day or month (`YYYY-MM-DD`, `YYYY-MM`) of a timestamp column, by the period's bucket. */
function bucketOf(
  period: Period,
  column: typeof purchaseRequests.submittedAt | typeof invoices.paidAt | typeof refunds.createdAt,
) {
  const unit = period.bucket === 'day' ? 'day' : 'month'
  return sql<string>`to_char(date_trunc(${unit}, ${column} at time zone 'Asia/Tokyo'), ${unit === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM'})`
}

/** Starts the reads of the refunds owed in the period of what invoices charged: by kind, and purchase ones by bucket. */
function readRefundsOwed(db: Database, period: Period) {
  const { from, to } = period
  // Refunds owed in the period of what invoices charged (not duplicates, held or excess payments).
  const refundsOfRevenue = and(
    eq(refunds.status, 'due'),
    notInArray(refunds.reason, [...REFUNDS_OUTSIDE_REVENUE]),
    gte(refunds.createdAt, from),
    lt(refunds.createdAt, to),
  )
  return Promise.all([
    db
      .select({
        purchaseJpy: sql<string>`coalesce(sum(${refunds.amountJpy}) filter (where ${invoices.kind} = 'purchase'), 0)::bigint`,
        shippingJpy: sql<string>`coalesce(sum(${refunds.amountJpy}) filter (where ${invoices.kind} = 'shipping'), 0)::bigint`,
      })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(refundsOfRevenue),
    db
      .select({
        bucket: bucketOf(period, refunds.createdAt),
        total: sql<string>`sum(${refunds.amountJpy})::bigint`,
      })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(and(refundsOfRevenue, eq(invoices.kind, 'purchase')))
      .groupBy(sql`1`),
  ])
}

/** Starts part 2's reads: shipping receipts paid, items at the office, shipments handed over, claims. */
function readPartTwo(db: Database, period: Period) {
  const { from, to } = period
  return Promise.all([
    db
      .select({
        invoices: count(),
        shippingJpy: sql<string>`coalesce(sum(${invoices.shippingJpy}), 0)::bigint`,
        storageFeeJpy: sql<string>`coalesce(sum(${invoices.storageFeeJpy}), 0)::bigint`,
        taxJpy: sql<string>`coalesce(sum(${invoices.taxJpy}), 0)::bigint`,
        totalJpy: sql<string>`coalesce(sum(${invoices.totalJpy}), 0)::bigint`,
      })
      .from(invoices)
      .where(
        and(
          eq(invoices.kind, 'shipping'),
          eq(invoices.status, 'paid'),
          gte(invoices.paidAt, from),
          lt(invoices.paidAt, to),
        ),
      ),
    // From the partial index of the items at the office (request_items_stored_idx).
    db
      .select({
        items: count(),
        averageDays: sql<string>`coalesce(avg(extract(epoch from now() - ${requestItems.receivedAt})) / 86400, 0)`,
        longestDays: sql<string>`coalesce(max(extract(epoch from now() - ${requestItems.receivedAt})) / 86400, 0)`,
      })
      .from(requestItems)
      .where(and(eq(requestItems.status, 'received'), sql`${requestItems.receivedAt} is not null`)),
    db
      .select({ method: shipments.method, region: shipments.region, shipments: count() })
      .from(shipments)
      .where(and(gte(shipments.shippedAt, from), lt(shipments.shippedAt, to)))
      .groupBy(shipments.method, shipments.region)
      .orderBy(shipments.method, shipments.region),
    db
      .select({
        opened: sql<number>`count(*) filter (where ${claims.openedAt} >= ${from.toISOString()} and ${claims.openedAt} < ${to.toISOString()})::int`,
        lost: sql<number>`count(*) filter (where ${claims.status} = 'lost' and ${claims.resolvedAt} >= ${from.toISOString()} and ${claims.resolvedAt} < ${to.toISOString()})::int`,
        closed: sql<number>`count(*) filter (where ${claims.status} = 'closed' and ${claims.resolvedAt} >= ${from.toISOString()} and ${claims.resolvedAt} < ${to.toISOString()})::int`,
        refundJpy: sql<string>`coalesce(sum(${claims.refundJpy}) filter (where ${claims.status} = 'lost' and ${claims.resolvedAt} >= ${from.toISOString()} and ${claims.resolvedAt} < ${to.toISOString()}), 0)::bigint`,
      })
      .from(claims),
  ])
}

/** Starts part 1's reads: requests, quotes, purchase revenue, new users, top shops and their series. */
function readPartOne(db: Database, period: Period) {
  const { from, to } = period
  const submittedIn = and(gte(purchaseRequests.submittedAt, from), lt(purchaseRequests.submittedAt, to))
  return Promise.all([
    db.select({ n: count() }).from(purchaseRequests).where(submittedIn),
    db
      .select({
        issued: count(),
        paid: sql<number>`count(*) filter (where ${invoices.status} = 'paid')::int`,
      })
      .from(invoices)
      .where(and(eq(invoices.kind, 'purchase'), gte(invoices.issuedAt, from), lt(invoices.issuedAt, to))),
    db
      .select({
        invoices: count(),
        itemsJpy: sql<string>`coalesce(sum(${invoices.itemsJpy}), 0)::bigint`,
        serviceFeeJpy: sql<string>`coalesce(sum(${invoices.serviceFeeJpy}), 0)::bigint`,
        domesticShippingJpy: sql<string>`coalesce(sum(${invoices.domesticShippingJpy}), 0)::bigint`,
        taxJpy: sql<string>`coalesce(sum(${invoices.taxJpy}), 0)::bigint`,
        totalJpy: sql<string>`coalesce(sum(${invoices.totalJpy}), 0)::bigint`,
      })
      .from(invoices)
      .where(
        and(
          eq(invoices.kind, 'purchase'),
          eq(invoices.status, 'paid'),
          gte(invoices.paidAt, from),
          lt(invoices.paidAt, to),
        ),
      ),
    db
      .select({ n: count() })
      .from(users)
      .where(and(gte(users.createdAt, from), lt(users.createdAt, to))),
    // From the daily roll-up the database keeps (db/schema/analytics.ts): a request is on one
    // day, so summing the period's days counts each (shop, request) pair once.
    db
      .select({
        host: requestShopDays.shopHost,
        name: sql<string | null>`max(${stores.name})`,
        requests: sql<number>`sum(${requestShopDays.requests})::int`,
      })
      .from(requestShopDays)
      .leftJoin(stores, eq(stores.id, requestShopDays.storeId))
      .where(and(gte(requestShopDays.day, period.fromDay), lte(requestShopDays.day, period.toDay)))
      .groupBy(requestShopDays.shopHost)
      .orderBy(sql`3 desc`, requestShopDays.shopHost)
      .limit(10),
    db
      .select({ bucket: bucketOf(period, purchaseRequests.submittedAt), n: count() })
      .from(purchaseRequests)
      .where(submittedIn)
      .groupBy(sql`1`),
    db
      .select({
        bucket: bucketOf(period, invoices.paidAt),
        total: sql<string>`sum(${invoices.totalJpy})::bigint`,
      })
      .from(invoices)
      .where(
        and(
          eq(invoices.kind, 'purchase'),
          eq(invoices.status, 'paid'),
          gte(invoices.paidAt, from),
          lt(invoices.paidAt, to),
        ),
      )
      .groupBy(sql`1`),
  ])
}

/** Shapes the figures read into the analytics, with every bucket of the series present. */
function shapeAnalytics(
  period: Period,
  [[requests], [quotes], [revenue], [newUsers], shops, requestSeries, revenueSeries]: PartOne,
  [[shipping], [office], shipped, [claimed]]: PartTwo,
  [[owed], owedSeries]: RefundsOwed,
): Analytics {
  const yen = (value: string | number | undefined) => Number(value ?? 0)
  const paidCount = revenue?.invoices ?? 0
  const grossJpy = yen(revenue?.totalJpy)
  const refundedJpy = yen(owed?.purchaseJpy)
  const shippingRefundedJpy = yen(owed?.shippingJpy)
  const issued = quotes?.issued ?? 0
  const paid = Number(quotes?.paid ?? 0)
  const byBucket = new Map<string, { requests: number; revenueJpy: number }>()
  for (const bucket of buckets(period)) byBucket.set(bucket, { requests: 0, revenueJpy: 0 })
  for (const row of requestSeries) {
    const entry = byBucket.get(row.bucket)
    if (entry) entry.requests = row.n
  }
  for (const row of revenueSeries) {
    const entry = byBucket.get(row.bucket)
    if (entry) entry.revenueJpy += yen(row.total)
  }
  for (const row of owedSeries) {
    const entry = byBucket.get(row.bucket)
    if (entry) entry.revenueJpy -= yen(row.total)
  }
  return {
    requestsReceived: requests?.n ?? 0,
    quotesIssued: issued,
    quotesPaid: paid,
    paidShare: issued === 0 ? 0 : paid / issued,
    revenue: {
      invoices: paidCount,
      itemsJpy: yen(revenue?.itemsJpy),
      serviceFeeJpy: yen(revenue?.serviceFeeJpy),
      domesticShippingJpy: yen(revenue?.domesticShippingJpy),
      taxJpy: yen(revenue?.taxJpy),
      grossJpy,
      refundedJpy,
      totalJpy: grossJpy - refundedJpy,
      averageJpy: paidCount === 0 ? 0 : Math.floor(grossJpy / paidCount),
    },
    newUsers: newUsers?.n ?? 0,
    shippingRevenue: {
      invoices: shipping?.invoices ?? 0,
      shippingJpy: yen(shipping?.shippingJpy),
      storageFeeJpy: yen(shipping?.storageFeeJpy),
      taxJpy: yen(shipping?.taxJpy),
      grossJpy: yen(shipping?.totalJpy),
      refundedJpy: shippingRefundedJpy,
      totalJpy: yen(shipping?.totalJpy) - shippingRefundedJpy,
    },
    office: {
      items: office?.items ?? 0,
      averageDaysStored: Math.floor(Number(office?.averageDays ?? 0)),
      longestDaysStored: Math.floor(Number(office?.longestDays ?? 0)),
    },
    shipped: shipped.map((row) => ({ method: row.method, region: row.region, shipments: row.shipments })),
    claims: {
      opened: Number(claimed?.opened ?? 0),
      lost: Number(claimed?.lost ?? 0),
      closed: Number(claimed?.closed ?? 0),
      refundJpy: yen(claimed?.refundJpy),
    },
    topShops: shops.map((row) => ({ host: row.host, name: row.name, requests: row.requests })),
    series: [...byBucket].map(([bucket, values]) => ({ bucket, ...values })),
  }
}
