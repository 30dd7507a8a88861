import type pg from 'pg'
import type { OrderContext } from '#core/orders/order-context.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { bookArrival } from '#core/warehouse/arrival-service.ts'
import type { Database } from '#db/client.ts'
import { users } from '#db/schema/index.ts'
import { insertQuotedRequest, type QuotedItem, type QuotedRequest } from './invoices.ts'

// What the warehouse tests start from: people of every role, a request the customer has paid
// (quoted straight into the database, paid as staff record a bank transfer), and items of it
// booked in at the office as staff do when the parcel arrives.
//
//   const orders = await createOrderTestDeps(db, pool)
//   await insertPeople(db, [{ ...ana, name: 'Ana' }, { ...admin, name: 'Admin' }])
//   const quoted = await bookedItems(orders, pool, { userId: ana.id, staff: admin, weight: '400' })

/** What both pg.Pool and pg.Client offer. */
type Queryable = Pick<pg.Pool | pg.Client, 'query'>

/** The services' context for an actor: createOrderTestDeps's `as`, or a route test's own. */
type Orders = { as: (actor: Actor | null) => OrderContext }

export type Person = Actor & { name: string; email?: string; language?: 'es' | 'en' }

/**
 * Users written straight into the database, e-mail verified, with the id and role of their
 * actor; the address is the id without `user-` at example.com unless given.
 */
export async function insertPeople(db: Database, people: readonly Person[]): Promise<void> {
  const now = new Date()
  await db.insert(users).values(
    people.map(({ id, role, name, email, language }) => ({
      id,
      role,
      name,
      email: email ?? `${id.replace(/^user-/, '')}@example.com`,
      emailVerified: true,
      createdAt: now,
      updatedAt: now,
      ...(language ? { language } : {}),
    })),
  )
}

/** A request's version now (what a staff page would send back). */
export async function requestVersion(pool: Queryable, requestId: string): Promise<number> {
  const { rows } = await pool.query('SELECT version FROM purchase_requests WHERE id = $1', [requestId])
  return Number(rows[0].version)
}

export type PaidRequest = QuotedRequest & { paymentId: string }

/**
 * A quoted request of `userId`'s (insertQuotedRequest's items unless given) with its invoice paid
 * in full by bank transfer, recorded by `staff` (an admin) with `reference`.
 */
export async function paidRequest(
  orders: Orders,
  pool: Queryable,
  {
    userId,
    staff,
    items,
    reference,
  }: { userId: string; staff: Actor; items?: QuotedItem[]; reference?: string },
): Promise<PaidRequest> {
  const quoted = await insertQuotedRequest(pool, { userId, items })
  const { paymentId } = await recordManualPayment(orders.as(staff), {
    invoiceId: quoted.invoiceId,
    version: 0,
    amountJpy: String(quoted.totalJpy),
    reference: reference ?? `BANK ${quoted.requestNumber}`,
  })
  return { ...quoted, paymentId }
}

export type BookedRequest = PaidRequest & { packageId: string; packageNumber: string }

/**
 * A request paid as paidRequest pays one (by `staff`), then every item of it booked in at the
 * office in one package by `bookedBy` (`staff` unless given): `weight` grams each, on `shelf`.
 * One item at ¥1,000 unless `items` are given.
 */
export async function bookedItems(
  orders: Orders,
  pool: Queryable,
  {
    userId,
    staff,
    bookedBy = staff,
    items = [{ unitPriceJpy: 1000 }],
    weight = '500',
    shelf = 'A-1',
    reference,
  }: {
    userId: string
    staff: Actor
    bookedBy?: Actor
    items?: QuotedItem[]
    weight?: string
    shelf?: string
    reference?: string
  },
): Promise<BookedRequest> {
  const paid = await paidRequest(orders, pool, { userId, staff, items, reference })
  const booked = await bookArrival(orders.as(bookedBy), {
    id: paid.requestId,
    version: await requestVersion(pool, paid.requestId),
    items: paid.itemIds.map((id) => ({ id, received: 'on', weight })),
    shelf,
  })
  return { ...paid, packageId: booked.packageId, packageNumber: booked.number }
}
