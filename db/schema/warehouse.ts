import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  pgSequence,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

// Orders, part 2: what arrives at the Osaka office. A package is one shop parcel as staff book
// it (one customer's paid items, a shelf, condition notes, up to 8 photos); each item it holds
// keeps its own weight and arrival in request_items (db/schema/orders.ts), since items are
// shipped, stored and refunded one by one (docs/decisions/027-warehouse-arrivals.md).

/** Human numbers: PK-000001… (gaps are fine, as for requests). */
export const packageNumberSeq = pgSequence('package_number_seq')

/** The most photos staff attach to one package. */
export const MAX_PACKAGE_PHOTOS = 8

export const packages = pgTable(
  'packages',
  {
    id: uuid().primaryKey().defaultRandom(),
    number: text()
      .notNull()
      .unique()
      .default(sql`('PK-' || lpad(nextval('package_number_seq')::text, 6, '0'))`),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shelf: text().notNull(),
    conditionNote: text(),
    // The staff member who booked it. Not a foreign key: the history stays when an account goes.
    receivedBy: text(),
    arrivedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('packages_user_idx').on(table.userId, table.arrivedAt),
    check('packages_shelf_check', sql`char_length(${table.shelf}) between 1 and 40`),
    check('packages_note_check', sql`char_length(${table.conditionNote}) <= 2000`),
  ],
)

/**
 * A package's photos: our own re-encoding (core/uploads/images.ts) and a thumbnail, kept in the
 * file store (core/uploads/file-store.ts: DATA_DIR by default) under these keys; served only to
 * the package's owner and staff.
 */
export const packagePhotos = pgTable(
  'package_photos',
  {
    id: uuid().primaryKey().defaultRandom(),
    packageId: uuid()
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    position: smallint().notNull(),
    contentType: text().notNull(),
    fileKey: text().notNull(),
    thumbKey: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    byteSize: integer().notNull(),
    thumbByteSize: integer().notNull(),
    sha256: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('package_photos_position_key').on(table.packageId, table.position),
    check(
      'package_photos_position_check',
      sql`${table.position} between 1 and ${sql.raw(String(MAX_PACKAGE_PHOTOS))}`,
    ),
    check('package_photos_type_check', sql`${table.contentType} in ('image/webp', 'image/jpeg')`),
    check(
      'package_photos_key_check',
      sql`${table.fileKey} ~ '^[a-z0-9/-]+\\.[a-z]+$' and ${table.thumbKey} ~ '^[a-z0-9/-]+\\.[a-z]+$'`,
    ),
  ],
)
