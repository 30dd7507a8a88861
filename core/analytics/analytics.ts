import { and, count, eq, gte, lt, lte, sql } from 'drizzle-orm'
import { can } from '#core/orders/staff-policy.ts'
import { AppError } from '#core/shared/errors.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'
import {
  claims,
  invoices,
  purchaseRequests,
  requestItems,
  requestShopDays,
  shipments,
  stores,
  users,
} from '#db/schema/index.ts'

/**
 * The admin panel's analytics (docs/decisions/025-admin-analytics.md): figures for a period in
 * Japan time, read from the orders themselves, summed in SQL (whole yen, bigint): part 1's
 * (requests, quotes, purchase revenue) and part 2's (shipping receipts, the office, shipments,
 * lost-parcel claims).
 */

export const ANALYTICS_PRESETS = [
  'this_month',
  'last_month',
  'last_30_days',
  'this_year',
  'last_year',
  'custom',
] as const
export type AnalyticsPreset = (typeof ANALYTICS_PRESETS)[number]

/** The longest custom period: five years of days. */
export const MAX_PERIOD_DAYS = 5 * 366

const JAPAN_OFFSET_MS = 9 * 3_600_000
const DAY_MS = 86_400_000
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** A Japan calendar day as `YYYY-MM-DD`, from an instant. */
export function japanDay(at: Date): string {
  return new Date(at.getTime() + JAPAN_OFFSET_MS).toISOString().slice(0, 10)
}

/** The instant a Japan calendar day starts (Japan has no daylight saving time). */
function japanMidnight(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - JAPAN_OFFSET_MS)
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

function validDay(value: string): boolean {
  if (!ISO_DATE.test(value)) return false
  const parsed = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value
}

export type Period = {
  preset: AnalyticsPreset
  /** First and last Japan day, inclusive. */
  fromDay: string
  toDay: string
  /** The instants: [from, to). */
  from: Date
  to: Date
  /** How the series is bucketed: days up to two months, months beyond. */
  bucket: 'day' | 'month'
}

/** What `parsePeriod` reads from an address: `preset`, `from`, `to`, `shown_from`, `shown_to`. */
export function periodInput(search: URLSearchParams) {
  return {
    preset: search.get('preset'),
    from: search.get('from'),
    to: search.get('to'),
    shownFrom: search.get('shown_from'),
    shownTo: search.get('shown_to'),
  }
}

/**
 * The period a URL asks for: a preset (this month by default), or custom first and last days.
 * @throws AppError `invalid` (`periodInvalid`: a date that is not one, first after last;
 *   `periodTooLong`: over five years).
 */
export function parsePeriod(
  input: {
    preset?: string | null
    from?: string | null
    to?: string | null
    /** The dates the form showed before the reader touched it (hidden fields). */
    shownFrom?: string | null
    shownTo?: string | null
  },
  now: Date = new Date(),
): Period {
  const today = japanDay(now)
  const [year, month] = today.split('-').map(Number) as [number, number]
  const pad = (value: number) => String(value).padStart(2, '0')
  const monthStart = (y: number, m: number) => `${y}-${pad(m)}-01`
  const preset: AnalyticsPreset = ANALYTICS_PRESETS.includes(input.preset as AnalyticsPreset)
    ? (input.preset as AnalyticsPreset)
    : input.from || input.to
      ? 'custom'
      : 'this_month'
  let fromDay: string
  let toDay: string
  switch (preset) {
    case 'this_month':
      ;[fromDay, toDay] = [monthStart(year, month), today]
      break
    case 'last_month': {
      const [y, m] = month === 1 ? [year - 1, 12] : [year, month - 1]
      ;[fromDay, toDay] = [monthStart(y, m), addDays(monthStart(year, month), -1)]
      break
    }
    case 'last_30_days':
      ;[fromDay, toDay] = [addDays(today, -29), today]
      break
    case 'this_year':
      ;[fromDay, toDay] = [`${year}-01-01`, today]
      break
    case 'last_year':
      ;[fromDay, toDay] = [`${year - 1}-01-01`, `${year - 1}-12-31`]
      break
    default: {
      const from = (input.from ?? '').trim()
      const to = (input.to ?? '').trim()
      if (!validDay(from) || !validDay(to) || from > to) {
        throw new AppError('invalid', `Bad period ${from.slice(0, 20)}..${to.slice(0, 20)}`, {
          reason: 'periodInvalid',
        })
      }
      if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_PERIOD_DAYS) {
        throw new AppError('invalid', `Period ${from}..${to} too long`, { reason: 'periodTooLong' })
      }
      ;[fromDay, toDay] = [from, to]
    }
  }
  // The form sends the preset, the dates and, hidden, the dates it showed: a date changed by hand
  // wins over the preset. Without the hidden ones (a hand-made address), a date is changed when it
  // is not the preset's own.
  const edited = (sent: string | null | undefined, shown: string | null | undefined, own: string) => {
    const value = sent?.trim()
    return Boolean(value) && value !== (shown?.trim() || own)
  }
  const editedFrom = edited(input.from, input.shownFrom, fromDay)
  const editedTo = edited(input.to, input.shownTo, toDay)
  if (preset !== 'custom' && (editedFrom || editedTo)) {
    return parsePeriod({ preset: 'custom', from: input.from ?? fromDay, to: input.to ?? toDay }, now)
  }
  const days = (Date.parse(toDay) - Date.parse(fromDay)) / DAY_MS + 1
  return {
    preset,
    fromDay,
    toDay,
    from: japanMidnight(fromDay),
    to: japanMidnight(addDays(toDay, 1)),
    bucket: days <= 62 ? 'day' : 'month',
  }
}

export type Analytics = {
  requestsReceived: number
  quotesIssued: number
  quotesPaid: number
  /** quotesPaid / quotesIssued, 0 when none were issued. */
  paidShare: number
  revenue: {
    invoices: number
    itemsJpy: number
    serviceFeeJpy: number
    domesticShippingJpy: number
    taxJpy: number
    totalJpy: number
    /** Total over paid invoices, rounded down to the yen; 0 when none. */
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
    totalJpy: number
  }
  /** Now, whatever the period: items at the office, and how long they have been there on average. */
  office: { items: number; averageDaysStored: number; longestDaysStored: number }
  /** Shipments handed to the carrier in the period, by method and region. */
  shipped: { method: string; region: string; shipments: number }[]
  /** Lost-parcel claims opened in the period, and of all claims, those resolved in it. */
  claims: { opened: number; lost: number; closed: number; refundJpy: number }
  /** Requests received and revenue per bucket (Japan days or months), every bucket present. */
  series: { bucket: string; requests: number; revenueJpy: number }[]
}

/**
 * The figures for a period. Admins only: revenue is the business's.
 * - requests received: submitted in the period;
 * - quotes issued: purchase invoices issued in the period (a revised quote counts again);
 * - quotes paid: of those, the ones paid (whenever);
 * - revenue: purchase invoices paid in the period, by line kind as frozen on the invoice;
 * - new users: accounts created in the period;
 * - top shops: by requests received in the period that link to them (a request with two links
 *   to one shop counts once);
 * - shipping revenue: shipping receipts paid in the period (international shipping, storage
 *   fees, their tax);
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
  const { from, to } = period
  const submittedIn = and(gte(purchaseRequests.submittedAt, from), lt(purchaseRequests.submittedAt, to))
  const unit = period.bucket === 'day' ? 'day' : 'month'
  const bucketOf = (column: typeof purchaseRequests.submittedAt | typeof invoices.paidAt) =>
    sql<string>`to_char(date_trunc(${unit}, ${column} at time zone 'Asia/Tokyo'), ${unit === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM'})`
  const partTwo = Promise.all([
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
  const [[requests], [quotes], [revenue], [newUsers], shops, requestSeries, revenueSeries] =
    await Promise.all([
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
        .select({ bucket: bucketOf(purchaseRequests.submittedAt), n: count() })
        .from(purchaseRequests)
        .where(submittedIn)
        .groupBy(sql`1`),
      db
        .select({ bucket: bucketOf(invoices.paidAt), total: sql<string>`sum(${invoices.totalJpy})::bigint` })
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
  const [[shipping], [office], shipped, [claimed]] = await partTwo
  const yen = (value: string | number | undefined) => Number(value ?? 0)
  const paidCount = revenue?.invoices ?? 0
  const totalJpy = yen(revenue?.totalJpy)
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
    if (entry) entry.revenueJpy = yen(row.total)
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
      totalJpy,
      averageJpy: paidCount === 0 ? 0 : Math.floor(totalJpy / paidCount),
    },
    newUsers: newUsers?.n ?? 0,
    shippingRevenue: {
      invoices: shipping?.invoices ?? 0,
      shippingJpy: yen(shipping?.shippingJpy),
      storageFeeJpy: yen(shipping?.storageFeeJpy),
      taxJpy: yen(shipping?.taxJpy),
      totalJpy: yen(shipping?.totalJpy),
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

/** Every bucket of the period, in order: its Japan days, or its months. */
export function buckets(period: Pick<Period, 'fromDay' | 'toDay' | 'bucket'>): string[] {
  const out: string[] = []
  if (period.bucket === 'day') {
    for (let day = period.fromDay; day <= period.toDay; day = addDays(day, 1)) out.push(day)
    return out
  }
  let [year, month] = period.fromDay.split('-').map(Number) as [number, number]
  const last = period.toDay.slice(0, 7)
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`
    if (key > last) break
    out.push(key)
    if (month === 12) {
      year += 1
      month = 1
    } else month += 1
  }
  return out
}
