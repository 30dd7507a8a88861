import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { purchaseRequests } from './orders.ts'
import { shipments } from './shipments.ts'

// A conversation between a customer and staff on one request or one shipment (issue 34,
// docs/decisions/048): created with its first message. Staff notes (order_events) stay apart.

export const conversations = pgTable(
  'conversations',
  {
    id: uuid().primaryKey().defaultRandom(),
    requestId: uuid()
      .unique()
      .references(() => purchaseRequests.id, { onDelete: 'cascade' }),
    shipmentId: uuid()
      .unique()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    // The order's customer (the request's or shipment's owner), copied for reads and e-mails.
    customerId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // A customer message with no staff answer after it: since when. Cleared by a staff reply.
    waitingSince: timestamp({ withTimezone: true, precision: 3 }),
    assignedTo: text().references(() => users.id, { onDelete: 'set null' }),
    // Each side has read every message up to this time.
    customerReadAt: timestamp({ withTimezone: true, precision: 3 }),
    staffReadAt: timestamp({ withTimezone: true, precision: 3 }),
    // Each side has been e-mailed every message of the other up to this time (grouped e-mails).
    customerEmailedAt: timestamp({ withTimezone: true, precision: 3 }),
    staffEmailedAt: timestamp({ withTimezone: true, precision: 3 }),
    lastMessageAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('conversations_owner_check', sql`(${table.requestId} is null) <> (${table.shipmentId} is null)`),
    // The staff's list of conversations waiting, oldest first: only the waiting rows.
    index('conversations_waiting_idx')
      .on(table.waitingSince, table.id)
      .where(sql`${table.waitingSince} is not null`),
    index('conversations_customer_idx').on(table.customerId),
  ],
)

export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    conversationId: uuid()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    authorId: text().references(() => users.id, { onDelete: 'set null' }),
    authorSide: text().notNull(),
    body: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index('conversation_messages_conversation_idx').on(table.conversationId, table.createdAt),
    check('conversation_messages_side_check', sql`${table.authorSide} in ('customer', 'staff')`),
    check('conversation_messages_body_check', sql`char_length(${table.body}) <= 4000`),
  ],
)

export const conversationAttachments = pgTable(
  'conversation_attachments',
  {
    id: uuid().primaryKey().defaultRandom(),
    messageId: uuid()
      .notNull()
      .references(() => conversationMessages.id, { onDelete: 'cascade' }),
    position: smallint().notNull(),
    contentType: text().notNull(),
    // Where the bytes are (core/uploads/file-store.ts): `conversations/<id>/<id>.webp|pdf`.
    fileKey: text().notNull(),
    byteSize: integer().notNull(),
    width: integer(),
    height: integer(),
    sha256: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('conversation_attachments_message_idx').on(table.messageId),
    check(
      'conversation_attachments_type_check',
      sql`${table.contentType} in ('image/webp', 'application/pdf')`,
    ),
    check('conversation_attachments_size_check', sql`${table.byteSize} between 1 and 5242880`),
    check('conversation_attachments_position_check', sql`${table.position} between 1 and 4`),
  ],
)
