import type pg from 'pg'
import { createAddress } from '#core/customers/profile-service.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import type { RateTables } from '#core/pricing/pricing.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import { requestShipment } from '#core/shipping/shipment-service.ts'
import type { Database } from '#db/client.ts'
import { bookedItems, insertPeople } from './warehouse-fixtures.ts'

// What the shipping tests start from: people of every role, two of Ana's paid requests with one
// item each at the office (400 g at ¥3,000 and 700 g at ¥5,000), a shipment of both to Lima by
// economy; then packed, and paid.

export const ana: Actor = { id: 'user-ana', role: 'user' }
export const bruno: Actor = { id: 'user-bruno', role: 'user' }
export const admin: Actor = { id: 'user-admin', role: 'admin' }
export const moderator: Actor = { id: 'user-mod', role: 'moderator' }

const prices = (n: number) => ({
  asia: n,
  europe_canada_mexico: n + 1000,
  usa: n + 2000,
  central_south_america: n + 3000,
})

/** Economy to Peru: ¥4,000 up to 1 kg, ¥5,000 up to 2 kg; express ¥6,000 / ¥12,000. */
export const RATES: RateTables = {
  economic: [
    { ceilingG: 1000, prices: prices(1000) },
    { ceilingG: 2000, prices: prices(2000) },
  ],
  express: [
    { ceilingG: 2000, prices: prices(3000) },
    { ceilingG: 10_000, prices: prices(9000) },
  ],
}

type Orders = { as: (actor: Actor | null) => OrderContext }
type Queryable = Pick<pg.Pool | pg.Client, 'query'>

/**
 * The people, Ana's two items at the office (received `storedDaysAgo` days ago when given: one
 * number for both, or one each) and her address in Lima; nothing asked yet.
 */
export async function itemsAtOffice(
  db: Database,
  pool: Queryable,
  orders: Orders,
  { storedDaysAgo = 0 }: { storedDaysAgo?: number | readonly [number, number] } = {},
) {
  await insertPeople(db, [
    { ...ana, name: 'Ana Pérez' },
    { ...bruno, name: 'Bruno Díaz' },
    { ...admin, name: 'Admin' },
    { ...moderator, name: 'Mod' },
  ])
  const first = await bookedItems(orders, pool, {
    userId: ana.id,
    staff: admin,
    weight: '400',
    items: [{ unitPriceJpy: 3000 }],
  })
  const second = await bookedItems(orders, pool, {
    userId: ana.id,
    staff: admin,
    weight: '700',
    items: [{ unitPriceJpy: 5000 }],
  })
  const [firstDays, secondDays] =
    typeof storedDaysAgo === 'number' ? [storedDaysAgo, storedDaysAgo] : storedDaysAgo
  for (const [itemId, days] of [
    [first.itemIds[0], firstDays],
    [second.itemIds[0], secondDays],
  ] as const) {
    if (days > 0) {
      await pool.query(
        `UPDATE request_items SET received_at = now() - $2::int * interval '1 day' WHERE id = $1`,
        [itemId, days],
      )
    }
  }
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
  return { first, second, address }
}

/** As `itemsAtOffice`, then Ana's shipment request of both, by economy to Lima. */
export async function requestedShipment(
  db: Database,
  pool: Queryable,
  orders: Orders,
  options: { storedDaysAgo?: number | readonly [number, number] } = {},
) {
  const { first, second, address } = await itemsAtOffice(db, pool, orders, options)
  const shipment = await requestShipment(
    orders.as(ana),
    { items: [first.itemIds[0], second.itemIds[0]], addressId: address.id, method: 'economic' },
    RATES,
    { locale: 'es' },
  )
  return { shipment, first, second, address }
}

/** As `requestedShipment`, then packed (1,250 g: ¥5,000) by a moderator and paid by bank transfer. */
export async function paidShipment(db: Database, pool: Queryable, orders: Orders) {
  const requested = await requestedShipment(db, pool, orders)
  const packed = await packShipment(
    orders.as(moderator),
    { id: requested.shipment.id, version: 0, weight: '1250' },
    RATES,
  )
  await recordManualPayment(orders.as(admin), {
    invoiceId: packed.invoiceId,
    version: 0,
    amountJpy: String(packed.totalJpy),
    reference: `BANK ${requested.shipment.number}`,
  })
  return { ...requested, packed, version: packed.version + 1 }
}
