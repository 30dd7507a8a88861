import { sql } from 'drizzle-orm'
import { bigint, check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Every staff action that changes how the business runs (roles, settings, rate tables, and what
 * later issues add: accounts disabled, stores, payments recorded, refunds, price overrides): who,
 * when, what, old → new. Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE (migration
 * 0014, hand-written part). Written by core/audit/audit-log.ts `recordAudit`, inside the same
 * transaction as the change it records. docs/decisions/023-admin-settings-rates-audit.md.
 *
 * No foreign keys: a record outlives the accounts it names (an ON DELETE SET NULL would be an
 * UPDATE, which the trigger refuses). The actor's e-mail is a snapshot taken when it happened.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // Null for a change made outside a session (a script, a job).
    actorId: text(),
    actorEmail: text(),
    // What was done, dotted: role.assign, settings.update, rates.update…
    kind: text().notNull(),
    // What it was done to: a user, the settings, a rate table (its method)…
    subjectType: text().notNull(),
    subjectId: text(),
    // Only what changed, as flat paths → values ("yenRates.USD": 0.0068).
    before: jsonb().notNull().default({}),
    after: jsonb().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('audit_log_actor_idx').on(table.actorEmail, table.id.desc()),
    index('audit_log_kind_idx').on(table.kind, table.id.desc()),
    check('audit_log_kind_check', sql`${table.kind} ~ '^[a-z_]+(\\.[a-z_]+)+$'`),
    check('audit_log_subject_type_check', sql`${table.subjectType} ~ '^[a-z_]+$'`),
  ],
)

export type AuditLogRow = typeof auditLog.$inferSelect
