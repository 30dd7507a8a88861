import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { requestItems } from './orders.ts'

// Orders, part 2: what leaves the office. A shipment is the customer's request to send items
// they have at our office (from any of their requests: consolidation is free) to one address by
// one method; staff then pack, price, and ship it (docs/decisions/028-shipments.md).

/** Human numbers: SH-000001… */
export const shipmentNumberSeq = pgSequence('shipment_number_seq')

/** The address as it was when the customer asked: an address book change does not move a parcel. */
export type ShipmentAddress = {
  fullName: string
  street: string
  city: string
  region: string
  postalCode: string
  country: string
  phone: string
}

export const shipments = pgTable(
  'shipments',
  {
    id: uuid().primaryKey().defaultRandom(),
    number: text()
      .notNull()
      .unique()
      .default(sql`('SH-' || lpad(nextval('shipment_number_seq')::text, 6, '0'))`),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // core/shipping/shipment-machine.ts
    status: text().notNull().default('requested'),
    method: text().notNull(),
    address: jsonb().$type<ShipmentAddress>().notNull(),
    // The destination as the rate tables see it (core/shipping/destinations.ts).
    country: text().notNull(),
    region: text().notNull(),
    route: text().notNull(),
    // What the customer saw when asking: the items' weights plus the packing allowance, and the
    // rate table's price for it (staff weigh and price the packed box).
    estimatedWeightG: integer().notNull(),
    estimatedPriceJpy: integer().notNull(),
    // The rest of that estimate (docs/decisions/037): the storage fees the items had run up when
    // they were reserved (their clock stops then) and the tax on them. The estimate's total is
    // price + storage + tax.
    estimatedStorageFeeJpy: integer().notNull().default(0),
    estimatedTaxJpy: integer().notNull().default(0),
    // Packed (staff): the box's weight and, when measured, its size; the price the rate table
    // gives for them (`ratePriceJpy`) and the price charged, which differs only with a reason
    // (audited); a photo of the box (the file store's keys).
    packedWeightG: integer(),
    lengthCm: integer(),
    widthCm: integer(),
    heightCm: integer(),
    ratePriceJpy: integer(),
    priceJpy: integer(),
    priceReason: text(),
    boxPhotoKey: text(),
    boxThumbKey: text(),
    // Shipped (staff): who carries it and its tracking number.
    carrier: text(),
    trackingNumber: text(),
    locale: text().notNull(),
    version: integer().notNull().default(0),
    requestedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    cancelledAt: timestamp({ withTimezone: true }),
    packedAt: timestamp({ withTimezone: true }),
    paidAt: timestamp({ withTimezone: true }),
    shippedAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Newest first for the customer and the staff queue (backward scans, as requests: ADR 022).
    index('shipments_user_idx').on(table.userId, table.requestedAt, table.id),
    index('shipments_queue_idx').on(table.status, table.requestedAt, table.id),
    index('shipments_requested_idx').on(table.requestedAt, table.id),
    check(
      'shipments_status_check',
      sql`${table.status} in ('requested', 'cancelled', 'packed', 'paid', 'shipped', 'delivered', 'lost')`,
    ),
    check('shipments_method_check', sql`${table.method} in ('economic', 'express')`),
    check(
      'shipments_region_check',
      sql`${table.region} in ('asia', 'europe_canada_mexico', 'usa', 'central_south_america')`,
    ),
    check('shipments_route_check', sql`${table.route} in ('direct', 'courier_via_usa')`),
    check('shipments_country_check', sql`${table.country} ~ '^[A-Z]{2}$'`),
    check('shipments_estimate_check', sql`${table.estimatedWeightG} > 0 and ${table.estimatedPriceJpy} > 0`),
    check(
      'shipments_estimate_storage_check',
      sql`${table.estimatedStorageFeeJpy} >= 0 and ${table.estimatedTaxJpy} >= 0`,
    ),
    check(
      'shipments_packed_check',
      sql`${table.packedWeightG} is null or (${table.packedWeightG} > 0 and ${table.ratePriceJpy} >= 0 and ${table.priceJpy} > 0)`,
    ),
    check(
      'shipments_size_check',
      sql`(${table.lengthCm} is null and ${table.widthCm} is null and ${table.heightCm} is null) or (${table.lengthCm} between 1 and 300 and ${table.widthCm} between 1 and 300 and ${table.heightCm} between 1 and 300)`,
    ),
    check(
      'shipments_price_reason_check',
      sql`${table.priceJpy} is not distinct from ${table.ratePriceJpy} or char_length(${table.priceReason}) between 1 and 500`,
    ),
    check('shipments_tracking_check', sql`char_length(${table.trackingNumber}) between 1 and 40`),
    check('shipments_locale_check', sql`${table.locale} in ('es', 'en')`),
    check('shipments_version_check', sql`${table.version} >= 0`),
  ],
)

/**
 * The items in a shipment. `active` while the shipment is open or sent; a cancelled shipment's
 * rows stay (its history) with `active` false. An item is in at most one active shipment: the
 * partial unique index decides when two tabs or two requests race for it.
 */
export const shipmentItems = pgTable(
  'shipment_items',
  {
    shipmentId: uuid()
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => requestItems.id, { onDelete: 'cascade' }),
    active: boolean().notNull().default(true),
  },
  (table) => [
    primaryKey({ columns: [table.shipmentId, table.itemId] }),
    uniqueIndex('shipment_items_one_active_key').on(table.itemId).where(sql`${table.active}`),
  ],
)

/**
 * A lost-parcel claim (docs/decisions/030): the customer reports a shipped parcel that has not
 * arrived; staff investigate with the carrier (notes in the shipment's history, the carrier's
 * case reference here), then confirm it lost (50 % of the items' product value refunded, the
 * shipment `lost`) or close it with a reason. One claim per shipment.
 */
export const claims = pgTable(
  'claims',
  {
    id: uuid().primaryKey().defaultRandom(),
    shipmentId: uuid()
      .notNull()
      .unique()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // open → investigating → lost | closed (open → lost | closed too).
    status: text().notNull().default('open'),
    customerNote: text(),
    carrierReference: text(),
    closeReason: text(),
    refundJpy: integer(),
    version: integer().notNull().default(0),
    openedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('claims_open_idx').on(table.openedAt).where(sql`${table.status} in ('open', 'investigating')`),
    check('claims_status_check', sql`${table.status} in ('open', 'investigating', 'lost', 'closed')`),
    check('claims_note_check', sql`char_length(${table.customerNote}) <= 2000`),
    check('claims_reference_check', sql`char_length(${table.carrierReference}) <= 100`),
    check('claims_reason_check', sql`char_length(${table.closeReason}) <= 2000`),
    check('claims_refund_check', sql`${table.refundJpy} >= 0`),
    check(
      'claims_resolved_check',
      sql`(${table.status} in ('lost', 'closed')) = (${table.resolvedAt} is not null)`,
    ),
    check('claims_version_check', sql`${table.version} >= 0`),
  ],
)
