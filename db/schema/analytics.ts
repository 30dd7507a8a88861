import { date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

/**
 * A roll-up for the analytics' top shops (docs/decisions/025-admin-analytics.md): per Japan day of
 * submission and shop host, how many requests link to that shop (a request with two links to one
 * shop counts once), and the store the guide recognised. Kept by triggers on `request_items` and
 * `purchase_requests` (migration 0019), which recompute the days a statement touched from the
 * rows themselves: never written by the application, never out of step with the requests.
 */
export const requestShopDays = pgTable(
  'request_shop_days',
  {
    day: date().notNull(),
    shopHost: text().notNull(),
    storeId: integer(),
    requests: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.shopHost] })],
)
