import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core'

/** Japanese shops we recommend in the store guide. */
export const stores = pgTable(
  'stores',
  {
    id: serial().primaryKey(),
    slug: text().notNull().unique(),
    name: text().notNull(),
    url: text().notNull(),
    descriptionEs: text().notNull(),
    descriptionEn: text().notNull(),
    // The logo is our own monogram artwork: the letters and a background colour.
    logoText: text().notNull(),
    logoColor: text().notNull(),
    sortOrder: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('stores_url_check', sql`${table.url} ~ '^https://'`),
    check('stores_logo_color_check', sql`${table.logoColor} ~ '^#[0-9a-f]{6}$'`),
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
