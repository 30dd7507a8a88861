import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/**
 * Import rules per destination country (issue 30, docs/decisions/046), append-only: each row is
 * a version that took effect on `effectiveFrom`; the one in effect on a day is the latest on or
 * before it (of two with one date, the one written last). A rule's shape is owned by
 * core/landed-cost/import-rules.ts and checked on every read. Seeded rows say so (`isSeed`).
 */
export const importRules = pgTable(
  'import_rules',
  {
    id: uuid().primaryKey().defaultRandom(),
    country: text().notNull(),
    effectiveFrom: date({ mode: 'string' }).notNull(),
    // Checked by ImportRuleSchema (core/landed-cost/import-rules.ts) on every read.
    rule: jsonb().$type<Record<string, unknown>>().notNull(),
    isSeed: boolean().notNull().default(false),
    createdBy: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('import_rules_country_idx').on(table.country, table.effectiveFrom),
    check('import_rules_country_check', sql`${table.country} ~ '^[A-Z]{2}$'`),
  ],
)

/**
 * The shipping methods a destination cannot use (or can again), with why and since when: a
 * country and method without a row can use it. Changes are audited (`destination.methods`).
 */
export const destinationMethods = pgTable(
  'destination_methods',
  {
    country: text().notNull(),
    method: text().notNull(),
    available: boolean().notNull(),
    note: jsonb().$type<{ es: string; en: string }>().notNull(),
    source: text().notNull().default(''),
    effectiveFrom: date({ mode: 'string' }).notNull(),
    isSeed: boolean().notNull().default(false),
    updatedBy: text().references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.country, table.method] }),
    check('destination_methods_method_check', sql`${table.method} in ('economic', 'express')`),
    check('destination_methods_country_check', sql`${table.country} ~ '^[A-Z]{2}$'`),
  ],
)

export type ImportRuleRow = typeof importRules.$inferSelect
export type DestinationMethodRow = typeof destinationMethods.$inferSelect
