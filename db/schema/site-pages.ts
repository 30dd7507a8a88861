import { sql } from 'drizzle-orm'
import { check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Public pages whose text staff write, in both languages (ADR 038): what we will not buy or
 * ship, and the seller disclosure Japanese law asks of a shop (特定商取引法に基づく表記). The
 * body is plain text: "## " starts a section, "- " a list item, a blank line a paragraph.
 * Edited by admins on /admin-dashboard/pages; every save is audited.
 */
export const sitePages = pgTable(
  'site_pages',
  {
    slug: text().primaryKey(),
    title: jsonb().$type<{ es: string; en: string }>().notNull(),
    lead: jsonb().$type<{ es: string; en: string }>().notNull(),
    body: jsonb().$type<{ es: string; en: string }>().notNull(),
    // Moves on with every save: a form showing an older version is refused (two admins at once).
    version: integer().notNull().default(1),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('site_pages_slug_check', sql`${table.slug} in ('prohibited-items', 'seller-disclosure')`),
  ],
)
