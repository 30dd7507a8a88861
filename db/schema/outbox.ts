import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/** E-mails "sent" while no SMTP server is configured (development): readable at /dev/outbox. */
export const outboxEmails = pgTable('outbox_emails', {
  id: uuid().primaryKey().defaultRandom(),
  to: text().notNull(),
  subject: text().notNull(),
  text: text().notNull(),
  html: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/** Text messages "sent" while no SMS provider is configured (development): shown at /dev/outbox. */
export const outboxSms = pgTable('outbox_sms', {
  id: uuid().primaryKey().defaultRandom(),
  to: text().notNull(),
  text: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
