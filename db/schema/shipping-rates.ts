import { sql } from 'drizzle-orm'
import { check, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Shipping rate tables: per method, one row per weight ceiling with the yen price for each of
 * the four regions. Seeded from Japan Post tariffs (core/seed/data/shipping-rates.ts); staff edit
 * them in the admin panel.
 */
export const shippingRates = pgTable(
  'shipping_rates',
  {
    method: text().notNull(),
    ceilingG: integer().notNull(),
    asia: integer().notNull(),
    europeCanadaMexico: integer().notNull(),
    usa: integer().notNull(),
    centralSouthAmerica: integer().notNull(),
    // Null when every price traces to a published tariff; otherwise what was assumed.
    assumption: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.method, table.ceilingG] }),
    check('shipping_rates_method_check', sql`${table.method} in ('economic', 'express')`),
    check('shipping_rates_ceiling_check', sql`${table.ceilingG} > 0`),
    check(
      'shipping_rates_prices_check',
      sql`${table.asia} >= 0 and ${table.europeCanadaMexico} >= 0 and ${table.usa} >= 0 and ${table.centralSouthAmerica} >= 0`,
    ),
  ],
)

export type ShippingRateRow = typeof shippingRates.$inferSelect
