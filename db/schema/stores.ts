import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'
import { bytea } from './columns.ts'

/**
 * Japanese shops we recommend in the store guide, edited by admins on /admin-dashboard/stores
 * (docs/decisions/026-store-guide-editor.md).
 */
export const stores = pgTable(
  'stores',
  {
    id: serial().primaryKey(),
    slug: text().notNull().unique(),
    name: text().notNull(),
    url: text().notNull(),
    descriptionEs: text().notNull(),
    descriptionEn: text().notNull(),
    // Without an uploaded logo, our own monogram artwork: the letters and a background colour.
    logoText: text().notNull(),
    logoColor: text().notNull(),
    // An uploaded logo, always our own PNG re-encoding (an SVG is rasterised: none of its markup
    // is kept), and the SHA-256 its public address carries.
    logoPng: bytea(),
    logoSha256: text(),
    sortOrder: integer().notNull().default(0),
    // Hidden stores stay in the editor (and still name the shop of a requested link).
    hidden: boolean().notNull().default(false),
    // Bumped by every edit: a save made from an older form is refused, not silently applied.
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('stores_url_check', sql`${table.url} ~ '^https://'`),
    check('stores_logo_color_check', sql`${table.logoColor} ~ '^#[0-9a-f]{6}$'`),
    check('stores_logo_check', sql`(${table.logoPng} is null) = (${table.logoSha256} is null)`),
    check('stores_logo_size_check', sql`octet_length(${table.logoPng}) <= 262144`),
    index('stores_order_idx').on(table.sortOrder, table.name),
  ],
)

/** A store appears in one or more categories (Amazon and Rakuten in two). */
export const storeCategories = pgTable(
  'store_categories',
  {
    storeId: integer()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    category: text().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.storeId, table.category] }),
    index('store_categories_category_idx').on(table.category),
    check(
      'store_categories_category_check',
      sql`${table.category} in ('general_and_anime_goods', 'official_anime_stores', 'figures_and_collectibles', 'fashion_and_lifestyle', 'household_and_misc', 'beauty_and_cosmetics')`,
    ),
  ],
)
