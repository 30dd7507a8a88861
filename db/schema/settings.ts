import { boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Business settings as key → JSON value. The shape of each value is owned by
 * core/settings/settings-schema.ts and checked on every read.
 */
export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  // Seeded placeholders (company details, messaging links) stay marked until staff replace them.
  isDemo: boolean().notNull().default(false),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

export type SettingRow = typeof settings.$inferSelect
