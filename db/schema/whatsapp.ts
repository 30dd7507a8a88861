import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { notifications } from './customers.ts'

/**
 * WhatsApp updates (issue 34, core/whatsapp/, docs/decisions/049): one row per customer who gave
 * a number. `pending` while the code sent to it is not confirmed (its HMAC, expiry and tries
 * here), `active` once confirmed, `stopped` after the customer stops (the button or STOP). The
 * updates they chose are `categories` (core/whatsapp/templates.ts `WHATSAPP_CATEGORIES`).
 */
export const whatsappContacts = pgTable(
  'whatsapp_contacts',
  {
    userId: text()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** E.164 without spaces: +5215512345678. */
    phone: text().notNull(),
    status: text().notNull().default('pending'),
    categories: text().array().notNull().default(sql`'{}'::text[]`),
    codeHash: text(),
    codeExpiresAt: timestamp({ withTimezone: true }),
    codeAttempts: integer().notNull().default(0),
    /** The codes sent in the current hour, for the limit. */
    codesSent: integer().notNull().default(0),
    codesWindowStart: timestamp({ withTimezone: true }),
    verifiedAt: timestamp({ withTimezone: true }),
    stoppedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('whatsapp_contacts_status_check', sql`${table.status} in ('pending', 'active', 'stopped')`),
    check('whatsapp_contacts_phone_check', sql`${table.phone} ~ '^\\+[1-9][0-9]{7,14}$'`),
    index('whatsapp_contacts_phone_idx').on(table.phone),
  ],
)

/**
 * Each WhatsApp message we tried to send: its template, Meta's id (wamid) once accepted, and the
 * receipts the webhook brought (never back from read to delivered). `fallbackAt`: the e-mail went
 * instead (a permanent failure).
 */
export const whatsappMessages = pgTable(
  'whatsapp_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    notificationId: uuid().references(() => notifications.id, { onDelete: 'cascade' }),
    phone: text().notNull(),
    template: text().notNull(),
    language: text().notNull(),
    wamid: text(),
    status: text().notNull().default('queued'),
    errorCode: integer(),
    sentAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    readAt: timestamp({ withTimezone: true }),
    failedAt: timestamp({ withTimezone: true }),
    fallbackAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    check(
      'whatsapp_messages_status_check',
      sql`${table.status} in ('queued', 'sent', 'delivered', 'read', 'failed', 'skipped')`,
    ),
    uniqueIndex('whatsapp_messages_wamid_idx').on(table.wamid),
    uniqueIndex('whatsapp_messages_notification_idx').on(table.notificationId),
    index('whatsapp_messages_user_idx').on(table.userId, table.createdAt.desc()),
  ],
)

/** Webhook events already handled (a status of a message, an inbound message): each once. */
export const whatsappWebhookEvents = pgTable('whatsapp_webhook_events', {
  id: text().primaryKey(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
