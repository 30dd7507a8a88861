import { sql } from 'drizzle-orm'
import { check, index, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/** Every role change: whose, to what, by whom, when (the spec's user_roles with assigned_by). */
export const roleAssignments = pgTable(
  'role_assignments',
  {
    id: serial().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().notNull(),
    assignedBy: text().references(() => users.id, { onDelete: 'set null' }),
    assignedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('role_assignments_user_idx').on(table.userId, table.assignedAt),
    check('role_assignments_role_check', sql`${table.role} in ('user', 'admin', 'moderator')`),
  ],
)
