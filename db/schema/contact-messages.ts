import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/**
 * Every message sent through the contact form, stored before anything else happens to it.
 * Forwarding to the external form service is tracked here, so a failed forward is retried and
 * the message is never lost.
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    language: text().notNull(),
    // Ticked the hidden bot-check box: answered like a success, kept out of the inbox, never forwarded.
    isSpam: boolean().notNull().default(false),
    // not_configured: no form service key; skipped: spam; pending: its contact.forward job is queued
    // or retrying; sent; failed: the job's last try failed (the job is in contact.forward.dead).
    forwardStatus: text().notNull(),
    forwardAttempts: integer().notNull().default(0),
    // While an attempt to forward is in flight: when its claim lapses (see forwardContactMessage).
    nextAttemptAt: timestamp({ withTimezone: true }),
    lastError: text(),
    forwardedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // The staff inbox (/admin-dashboard/messages): when a message was marked handled, and by whom
    // (null again when reopened; the person stays null if their account is deleted).
    handledAt: timestamp({ withTimezone: true }),
    handledBy: text().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('contact_messages_created_at_idx').on(table.createdAt),
    // The inbox's pages: newest first, the id breaking ties (keyset paging).
    index('contact_messages_inbox_idx').on(table.createdAt.desc(), table.id.desc()),
    // The messages still to answer: counted on the staff's work for today (docs/decisions/036).
    index('contact_messages_open_idx')
      .on(table.createdAt)
      .where(sql`${table.handledAt} is null and not ${table.isSpam}`),
    check(
      'contact_messages_forward_status_check',
      sql`${table.forwardStatus} in ('not_configured', 'skipped', 'pending', 'sent', 'failed')`,
    ),
  ],
)

/**
 * Fixed-window counters for rate limits, shared by every app process. A row per key and window;
 * old windows are deleted as new ones are used.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.windowStart] }),
    index('rate_limits_window_idx').on(table.windowStart),
  ],
)
