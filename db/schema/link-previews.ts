import { sql } from 'drizzle-orm'
import { check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { bytea } from './columns.ts'

/**
 * What reading a shop's link gave (issue 31, core/link-preview/, docs/decisions/047): one row per
 * link as pasted, shared by every app process, so a link pasted twice within the hour is fetched
 * once. `outcome` is the item read (title, price, photo…) or why it could not be read; neither
 * names who pasted it.
 */
export const linkPreviews = pgTable(
  'link_previews',
  {
    url: text().primaryKey(),
    outcome: jsonb().notNull(),
    readAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    check('link_previews_url_check', sql`char_length(${table.url}) <= 2000`),
    // Old rows are cleared by age.
    index('link_previews_read_at_idx').on(table.readAt),
  ],
)

/**
 * The photos those pages named, read by the server and kept small (WebP, at most 480 px), so the
 * visitor's browser loads them from this site and never calls the shop. Kept 30 days; a request's
 * item can have its photo read again while its preview names it.
 */
export const linkPreviewImages = pgTable(
  'link_preview_images',
  {
    url: text().primaryKey(),
    bytes: bytea().notNull(),
    readAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    check('link_preview_images_url_check', sql`char_length(${table.url}) <= 2000`),
    index('link_preview_images_read_at_idx').on(table.readAt),
  ],
)
