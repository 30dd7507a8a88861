import { sql } from 'drizzle-orm'
import { boolean, check, date, index, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core'

/** Our own customer reviews, shown on the home page with their aggregate rating. */
export const reviews = pgTable(
  'reviews',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    // ISO 3166-1 alpha-2; the page names the country in the visitor's language.
    country: text().notNull(),
    rating: smallint().notNull(),
    text: text().notNull(),
    language: text().notNull(),
    reviewedOn: date({ mode: 'string' }).notNull(),
    // Seeded examples stay labelled until real reviews replace them.
    isDemo: boolean().notNull().default(false),
    isPublished: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('reviews_published_date_idx').on(table.isPublished, table.reviewedOn),
    check('reviews_rating_check', sql`${table.rating} between 1 and 5`),
    check('reviews_country_check', sql`${table.country} ~ '^[A-Z]{2}$'`),
    check('reviews_language_check', sql`${table.language} in ('es', 'en')`),
  ],
)
