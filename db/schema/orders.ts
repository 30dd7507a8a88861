import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { bytea } from './columns.ts'
import { stores } from './stores.ts'
import { packages } from './warehouse.ts'

// Orders, part 1: a customer's purchase request (links to items in Japanese shops), its items,
// and the append-only history of everything that happens to it. Part 2 (quotes, invoices,
// payments, shipments) adds columns and tables beside these; it changes none of them.
// docs/decisions/019-orders-model.md. The status lists here are the machine's
// (core/orders/request-machine.ts), checked by core/orders/request-service.db.test.ts.

/** Human numbers: PR-000001, PR-000002… (gaps are fine: a rolled-back submit uses one up). */
export const purchaseRequestNumberSeq = pgSequence('purchase_request_number_seq')

export const purchaseRequests = pgTable(
  'purchase_requests',
  {
    id: uuid().primaryKey().defaultRandom(),
    number: text()
      .notNull()
      .unique()
      .default(sql`('PR-' || lpad(nextval('purchase_request_number_seq')::text, 6, '0'))`),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text().notNull().default('submitted'),
    customerNote: text(),
    // The language the customer wrote in (and will be written to in).
    locale: text().notNull(),
    // Milliseconds, like a JavaScript Date: the keyset cursors compare it exactly.
    submittedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    // Milestones; part 2 fills quoted_at, quote_expires_at and paid_at.
    quotedAt: timestamp({ withTimezone: true }),
    quoteExpiresAt: timestamp({ withTimezone: true }),
    paidAt: timestamp({ withTimezone: true }),
    // Cancelled, rejected, expired or completed.
    closedAt: timestamp({ withTimezone: true }),
    // Compare-and-set: every transition is `UPDATE … WHERE id = $1 AND version = $2`.
    version: integer().notNull().default(0),
    // The form's one-time token (a hidden field): the same form sent twice is one request.
    submissionKey: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('purchase_requests_submission_key')
      .on(table.userId, table.submissionKey)
      .where(sql`${table.submissionKey} is not null`),
    // Newest first (ORDER BY submitted_at DESC, id DESC, and the keyset cursor's row comparison)
    // is a backward scan of these. Not `.desc()`: drizzle writes DESC NULLS LAST, which an
    // ORDER BY … DESC (NULLS FIRST) cannot use (docs/decisions/022-orders-at-scale.md).
    index('purchase_requests_queue_idx').on(table.status, table.submittedAt, table.id),
    index('purchase_requests_user_idx').on(table.userId, table.submittedAt, table.id),
    index('purchase_requests_submitted_idx').on(table.submittedAt, table.id),
    // The queue's counts by status: an index-only scan of this small one (8 values, deduplicated).
    index('purchase_requests_status_idx').on(table.status),
    // The staff search by number (pg_trgm, for ILIKE '%…%'); "C": numbers are ASCII, and its
    // case folding is the cheap one.
    index('purchase_requests_number_trgm_idx').using('gin', sql`${table.number} collate "C" gin_trgm_ops`),
    check(
      'purchase_requests_status_check',
      sql`${table.status} in ('submitted', 'quoted', 'rejected', 'cancelled', 'paid', 'expired', 'in_progress', 'completed')`,
    ),
    check('purchase_requests_locale_check', sql`${table.locale} in ('es', 'en')`),
    check('purchase_requests_note_check', sql`char_length(${table.customerNote}) <= 2000`),
    check('purchase_requests_version_check', sql`${table.version} >= 0`),
  ],
)

/** One link of a request. Part 2 adds the quote's columns (title, prices in yen, shop order ref). */
export const requestItems = pgTable(
  'request_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    requestId: uuid()
      .notNull()
      .references(() => purchaseRequests.id, { onDelete: 'cascade' }),
    // 1, 2, 3… in the order the customer gave them.
    position: smallint().notNull(),
    url: text().notNull(),
    // Lower case, without "www.": what staff search and group by.
    shopHost: text().notNull(),
    // The store-guide shop the host belongs to, when it is one of ours.
    storeId: integer().references(() => stores.id, { onDelete: 'set null' }),
    quantity: smallint().notNull().default(1),
    notes: text(),
    status: text().notNull().default('pending'),
    // The quote, entered by staff (whole yen; null until priced). Domestic shipping is what the
    // shop charges to send the item to our office (docs/decisions/021-quotes-invoices-payments.md).
    title: text(),
    unitPriceJpy: integer(),
    domesticShippingJpy: integer(),
    // What the shop's page said when the link was read (issue 31, core/link-preview/): title,
    // price, photo, the time it was read. Staff start the quote from it; never trusted as a price.
    preview: jsonb(),
    // At our office (part 2, db/schema/warehouse.ts): the package it came in, its weight in whole
    // grams and when it arrived (free storage counts from here).
    packageId: uuid().references(() => packages.id, { onDelete: 'set null' }),
    weightGrams: integer(),
    receivedAt: timestamp({ withTimezone: true, precision: 3 }),
    // Free storage pauses while the item waits in a shipment request (docs/decisions/028): since
    // when it waits, and the whole days it waited in requests since cancelled.
    reservedAt: timestamp({ withTimezone: true, precision: 3 }),
    storagePausedDays: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('request_items_position_key').on(table.requestId, table.position),
    // The staff search by link (pg_trgm, for ILIKE '%…%'); "C" as for the request number.
    index('request_items_url_trgm_idx').using('gin', sql`${table.url} collate "C" gin_trgm_ops`),
    index('request_items_package_idx').on(table.packageId),
    // A preview's photo is served only while a page read or an item names it (issue 31).
    index('request_items_preview_image_idx')
      .on(sql`(${table.preview} ->> 'imageUrl')`)
      .where(sql`${table.preview} is not null`),
    // Items at the office, oldest arrival first: storage reminders and the overdue list (ADR 031).
    index('request_items_stored_idx').on(table.receivedAt).where(sql`${table.status} = 'received'`),
    // The staff's work for today (docs/decisions/036): items to buy and items bought, not yet
    // here; few at a time, counted and listed (by request) from this small index.
    index('request_items_work_idx')
      .on(table.status, table.requestId)
      .where(sql`${table.status} in ('to_buy', 'ordered')`),
    check('request_items_paused_check', sql`${table.storagePausedDays} >= 0`),
    check('request_items_weight_check', sql`${table.weightGrams} between 1 and 30000`),
    check('request_items_position_check', sql`${table.position} between 1 and 10`),
    check('request_items_url_check', sql`char_length(${table.url}) <= 2000 and ${table.url} ~* '^https?://'`),
    check('request_items_quantity_check', sql`${table.quantity} between 1 and 99`),
    check('request_items_notes_check', sql`char_length(${table.notes}) <= 2000`),
    check('request_items_title_check', sql`char_length(${table.title}) <= 300`),
    check('request_items_unit_price_check', sql`${table.unitPriceJpy} between 1 and 10000000`),
    check('request_items_domestic_shipping_check', sql`${table.domesticShippingJpy} between 0 and 1000000`),
    check(
      'request_items_status_check',
      sql`${table.status} in ('pending', 'quoted', 'rejected', 'to_buy', 'ordered', 'received', 'unavailable', 'shipped', 'disposed', 'cancelled')`,
    ),
  ],
)

/**
 * What happened to a request (and, in part 2, to invoices, payments, packages and shipments):
 * append-only. A trigger refuses UPDATE; rows go only with their entity (a deleted request takes
 * its history with it, so deleting an account leaves nothing of the customer behind).
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    entityType: text().notNull(),
    entityId: uuid().notNull(),
    event: text().notNull(),
    fromStatus: text(),
    toStatus: text(),
    actorKind: text().notNull(),
    // The user who acted (customer or staff); none for the system and payment providers. Not a
    // foreign key: a staff member's account may go, the history stays.
    actorId: text(),
    note: text(),
    // Event-specific facts (part 2: the quote's total, the payment's provider reference).
    data: jsonb().notNull().default({}),
    visibleToCustomer: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('order_events_entity_idx').on(table.entityType, table.entityId, table.id),
    check('order_events_entity_type_check', sql`${table.entityType} ~ '^[a-z_]+$'`),
    check(
      'order_events_actor_kind_check',
      sql`${table.actorKind} in ('customer', 'staff', 'system', 'provider')`,
    ),
    check('order_events_note_check', sql`char_length(${table.note}) <= 2000`),
  ],
)

/**
 * The optional photo a customer attaches to an item: re-encoded by core/uploads/images.ts (never
 * the bytes they sent), stored here (docs/decisions/020-photo-uploads.md), served by an authorised route.
 */
export const requestPhotos = pgTable(
  'request_photos',
  {
    id: uuid().primaryKey().defaultRandom(),
    requestId: uuid()
      .notNull()
      .references(() => purchaseRequests.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => requestItems.id, { onDelete: 'cascade' }),
    contentType: text().notNull(),
    bytes: bytea().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    byteSize: integer().notNull(),
    sha256: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('request_photos_request_idx').on(table.requestId),
    unique('request_photos_item_key').on(table.itemId),
    check(
      'request_photos_type_check',
      sql`${table.contentType} in ('image/webp', 'image/jpeg', 'image/png')`,
    ),
    check('request_photos_size_check', sql`${table.byteSize} between 1 and 5242880`),
  ],
)
