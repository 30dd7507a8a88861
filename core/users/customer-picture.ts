import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { balanceOf } from '#core/balance-ledger/ledger.ts'
import type { PaymentStatus } from '#core/payments/payment-machine.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Actor, ServiceContext } from '#core/shared/service-context.ts'
import { can } from '#core/shared/staff-policy.ts'
import type { Executor } from '#db/client.ts'
import {
  addresses,
  conversationMessages,
  conversations,
  invoices,
  payments,
  purchaseRequests,
  refunds,
  requestItems,
  shipments,
  users,
} from '#db/schema/index.ts'

/**
 * The customer's whole picture for staff (issue 34): on the user's page in the admin area, their
 * requests, shipments, items at the office now, address book, payments and refunds, and lifetime
 * totals (paid and refunded in yen, how many requests and shipments, items stored now). Each list
 * is the newest `PICTURE_LIST_LIMIT` with the count of all; the totals count everything. Staff
 * who may view users only (moderators and admins), refused as `getUserDetail` refuses.
 */

/** The most rows each list shows; its `total` counts them all. */
export const PICTURE_LIST_LIMIT = 50

export type Bounded<Row> = { rows: Row[]; total: number }

export type PictureRequest = { id: string; number: string; status: string; submittedAt: Date }

export type PictureShipment = {
  id: string
  number: string
  status: string
  method: string
  requestedAt: Date
}

export type PictureStoredItem = {
  id: string
  title: string | null
  url: string
  position: number
  requestId: string
  requestNumber: string
  receivedAt: Date
  /** While it waits in a shipment request its free storage is paused (core/warehouse/storage.ts `storageCountdown`). */
  reservedAt: Date | null
  pausedDays: number
}

export type PictureAddress = {
  id: string
  fullName: string
  street: string
  city: string
  region: string
  postalCode: string
  country: string
  phone: string
  isDefault: boolean
}

export type PictureProvider = 'manual' | 'paypal' | 'stripe' | 'balance' | 'dlocal'

/** A conversation on one of their requests or shipments (docs/decisions/048). */
export type PictureConversation = {
  id: string
  kind: 'request' | 'shipment'
  /** The request's or shipment's id and number. */
  orderId: string
  number: string
  messages: number
  lastMessageAt: Date
  /** Set while the customer waits for an answer. */
  waitingSince: Date | null
}

/** A payment (its status as the payment machine says) or a refund row (`due` or `done`). */
export type PictureMoneyEntry = {
  kind: 'payment' | 'refund'
  id: string
  invoiceId: string
  invoiceNumber: string
  amountJpy: number
  provider: PictureProvider
  status: string
  at: Date
}

export type PictureTotals = {
  /** Money taken (payments succeeded, held, duplicate or refunded later), in yen. */
  paidJpy: number
  /** Money sent back (refunds done, less provider refunds that failed afterwards), in yen. */
  refundedJpy: number
  requests: number
  shipments: number
  storedItems: number
  /** The customer balance now (docs/decisions/050), in yen. */
  balanceJpy: number
}

export type CustomerPicture = {
  userId: string
  requests: Bounded<PictureRequest>
  shipments: Bounded<PictureShipment>
  storedItems: Bounded<PictureStoredItem>
  addresses: Bounded<PictureAddress>
  money: Bounded<PictureMoneyEntry>
  conversations: Bounded<PictureConversation>
  totals: PictureTotals
}

const UserIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w-]+$/)

/** The same refusals as core/users/user-admin.ts `getUserDetail`. */
function requireUserViewer(actor: Actor | null): Actor {
  if (!actor) throw new AppError('unauthorized', 'Sign in to manage users')
  if (!can(actor, 'view_users')) throw new AppError('forbidden', `${actor.role} may not view_users`)
  return actor
}

function userNotFound(id: string) {
  return new AppError('not_found', `User ${id.slice(0, 100)} not found`, { reason: 'userNotFound' })
}

/** How many rows the query had before its LIMIT (a window count over the whole result). */
const totalRows = sql<number>`(count(*) over ())::int`

function bounded<Row extends { total: number }>(rows: Row[]): Bounded<Omit<Row, 'total'>> {
  return {
    rows: rows.map(({ total: _total, ...row }) => row),
    total: rows[0]?.total ?? 0,
  }
}

const PROVIDERS: readonly string[] = ['paypal', 'stripe', 'balance', 'dlocal'] satisfies PictureProvider[]
const providerOf = (value: string): PictureProvider =>
  PROVIDERS.includes(value) ? (value as PictureProvider) : 'manual'

async function conversationsOf(db: Executor, userId: string): Promise<Bounded<PictureConversation>> {
  const rows = await db
    .select({
      id: conversations.id,
      requestId: conversations.requestId,
      shipmentId: conversations.shipmentId,
      requestNumber: purchaseRequests.number,
      shipmentNumber: shipments.number,
      messages: sql<number>`(select count(*)::int from ${conversationMessages} where ${conversationMessages.conversationId} = ${conversations.id})`,
      lastMessageAt: conversations.lastMessageAt,
      waitingSince: conversations.waitingSince,
      total: totalRows,
    })
    .from(conversations)
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, conversations.requestId))
    .leftJoin(shipments, eq(shipments.id, conversations.shipmentId))
    .where(eq(conversations.customerId, userId))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(PICTURE_LIST_LIMIT)
  return bounded(
    rows.map(({ requestId, shipmentId, requestNumber, shipmentNumber, ...row }) => ({
      ...row,
      kind: requestId ? ('request' as const) : ('shipment' as const),
      orderId: requestId ?? shipmentId ?? '',
      number: requestNumber ?? shipmentNumber ?? '',
    })),
  )
}

async function requestsOf(db: Executor, userId: string) {
  const rows = await db
    .select({
      id: purchaseRequests.id,
      number: purchaseRequests.number,
      status: purchaseRequests.status,
      submittedAt: purchaseRequests.submittedAt,
      total: totalRows,
    })
    .from(purchaseRequests)
    .where(eq(purchaseRequests.userId, userId))
    .orderBy(desc(purchaseRequests.submittedAt), desc(purchaseRequests.id))
    .limit(PICTURE_LIST_LIMIT)
  return bounded(rows)
}

async function shipmentsOf(db: Executor, userId: string) {
  const rows = await db
    .select({
      id: shipments.id,
      number: shipments.number,
      status: shipments.status,
      method: shipments.method,
      requestedAt: shipments.requestedAt,
      total: totalRows,
    })
    .from(shipments)
    .where(eq(shipments.userId, userId))
    .orderBy(desc(shipments.requestedAt), desc(shipments.id))
    .limit(PICTURE_LIST_LIMIT)
  return bounded(rows)
}

/**
 * Items at the office now (received, not shipped), the oldest arrival (free storage ending first)
 * first, with what their free storage counts from (the page counts it with the setting in force).
 */
async function storedItemsOf(db: Executor, userId: string) {
  const rows = await db
    .select({
      id: requestItems.id,
      title: requestItems.title,
      url: requestItems.url,
      position: requestItems.position,
      requestId: purchaseRequests.id,
      requestNumber: purchaseRequests.number,
      receivedAt: sql<Date>`coalesce(${requestItems.receivedAt}, ${requestItems.updatedAt})`.mapWith(
        requestItems.updatedAt,
      ),
      reservedAt: requestItems.reservedAt,
      pausedDays: requestItems.storagePausedDays,
      total: totalRows,
    })
    .from(requestItems)
    .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
    .where(and(eq(purchaseRequests.userId, userId), eq(requestItems.status, 'received')))
    .orderBy(asc(requestItems.receivedAt), asc(purchaseRequests.number), asc(requestItems.position))
    .limit(PICTURE_LIST_LIMIT)
  return bounded(rows)
}

/** The address book, the default address first, then the oldest first (as the customer made them). */
async function addressesOf(db: Executor, userId: string) {
  const rows = await db
    .select({
      id: addresses.id,
      fullName: addresses.fullName,
      street: addresses.street,
      city: addresses.city,
      region: addresses.region,
      postalCode: addresses.postalCode,
      country: addresses.country,
      phone: addresses.phone,
      isDefault: addresses.isDefault,
      total: totalRows,
    })
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt), asc(addresses.id))
    .limit(PICTURE_LIST_LIMIT)
  return bounded(rows)
}

/** Payments that took money (as the customer's own money page counts them): pending and failed took none. */
const TAKEN: readonly PaymentStatus[] = ['succeeded', 'held', 'duplicate', 'refunded']

/** What a payment took in yen: the captured amount when captured in yen, else the yen asked. */
const paymentYen = sql<number>`(case when ${payments.currency} = 'JPY' and ${payments.amount} is not null then ${payments.amount} else ${payments.requestedJpy} end)::bigint`

async function paymentsOf(db: Executor, userId: string) {
  const rows = await db
    .select({
      id: payments.id,
      invoiceId: invoices.id,
      invoiceNumber: invoices.number,
      amountJpy: sql<number>`(${paymentYen})::float8`,
      provider: payments.provider,
      status: payments.status,
      at: sql<Date>`coalesce(${payments.settledAt}, ${payments.createdAt})`.mapWith(payments.createdAt),
      total: totalRows,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(eq(invoices.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(PICTURE_LIST_LIMIT)
  return bounded(rows)
}

async function refundsOf(db: Executor, userId: string) {
  const rows = await db
    .select({
      id: refunds.id,
      invoiceId: invoices.id,
      invoiceNumber: invoices.number,
      amountJpy: refunds.amountJpy,
      provider: payments.provider,
      status: refunds.status,
      at: refunds.createdAt,
      total: totalRows,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(eq(invoices.userId, userId))
    .orderBy(desc(refunds.createdAt), desc(refunds.id))
    .limit(PICTURE_LIST_LIMIT)
  return bounded(rows)
}

/** Payments and refunds in one list, newest first: the newest of the union are among the newest of each. */
function moneyOf(
  paid: Awaited<ReturnType<typeof paymentsOf>>,
  back: Awaited<ReturnType<typeof refundsOf>>,
): Bounded<PictureMoneyEntry> {
  const entries: PictureMoneyEntry[] = [
    ...paid.rows.map((row) => ({ ...row, kind: 'payment' as const, provider: providerOf(row.provider) })),
    ...back.rows.map((row) => ({ ...row, kind: 'refund' as const, provider: providerOf(row.provider) })),
  ]
  entries.sort((a, b) => b.at.getTime() - a.at.getTime() || a.id.localeCompare(b.id))
  return { rows: entries.slice(0, PICTURE_LIST_LIMIT), total: paid.total + back.total }
}

/** Money in and out over the customer's whole life with us. */
async function moneyTotalsOf(db: Executor, userId: string) {
  const [paid] = await db
    .select({ jpy: sql<number>`coalesce(sum(${paymentYen}), 0)::float8` })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(invoices.userId, userId), inArray(payments.status, [...TAKEN])))
  const [back] = await db
    .select({
      jpy: sql<number>`greatest(coalesce(sum(case when ${refunds.status} = 'done' then ${refunds.amountJpy} when ${refunds.reason} = 'refund_failed' then -${refunds.amountJpy} else 0 end), 0), 0)::float8`,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(eq(invoices.userId, userId))
  return { paidJpy: Number(paid?.jpy ?? 0), refundedJpy: Number(back?.jpy ?? 0) }
}

/**
 * Everything about one customer for staff, read in parallel.
 * @throws AppError `unauthorized` (anonymous), `forbidden` (customers), `not_found` (`userNotFound`).
 */
export async function getCustomerPicture(
  { db, actor }: ServiceContext,
  id: string,
): Promise<CustomerPicture> {
  requireUserViewer(actor)
  const parsed = UserIdSchema.safeParse(id)
  if (!parsed.success) throw userNotFound(id)
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, parsed.data))
  if (!user) throw userNotFound(id)
  const [requests, shipmentList, storedItems, addressBook, paid, back, moneyTotals, balanceJpy, talks] =
    await Promise.all([
      requestsOf(db, user.id),
      shipmentsOf(db, user.id),
      storedItemsOf(db, user.id),
      addressesOf(db, user.id),
      paymentsOf(db, user.id),
      refundsOf(db, user.id),
      moneyTotalsOf(db, user.id),
      balanceOf(db, user.id),
      conversationsOf(db, user.id),
    ])
  return {
    userId: user.id,
    requests,
    shipments: shipmentList,
    storedItems,
    addresses: addressBook,
    money: moneyOf(paid, back),
    conversations: talks,
    totals: {
      ...moneyTotals,
      requests: requests.total,
      shipments: shipmentList.total,
      storedItems: storedItems.total,
      balanceJpy,
    },
  }
}
