import { sql } from 'drizzle-orm'
import { check, pgTable, primaryKey, smallint, timestamp, uuid } from 'drizzle-orm/pg-core'
import { requestItems } from './orders.ts'

/**
 * Storage reminders already sent (core/warehouse/storage-reminders.ts): one row per item and
 * threshold (the days left it announced; 0: free storage has ended), so the daily job tells each
 * customer once, however often it runs and in however many processes.
 */
export const storageReminders = pgTable(
  'storage_reminders',
  {
    itemId: uuid()
      .notNull()
      .references(() => requestItems.id, { onDelete: 'cascade' }),
    thresholdDays: smallint().notNull(),
    sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.itemId, table.thresholdDays] }),
    check('storage_reminders_threshold_check', sql`${table.thresholdDays} between 0 and 365`),
  ],
)
