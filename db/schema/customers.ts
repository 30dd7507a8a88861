import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { purchaseRequests } from './orders.ts'

// What a customer keeps with us besides their orders: the addresses we ship to (part 2 ships to
// them) and their in-app notifications. The profile's own fields (name, phone, language) are on
// `users`.

export const addresses = pgTable(
  'addresses',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text().notNull(),
    street: text().notNull(),
    city: text().notNull(),
    region: text().notNull(),
    postalCode: text().notNull(),
    // ISO 3166-1 alpha-2.
    country: text().notNull(),
    phone: text().notNull(),
    isDefault: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('addresses_user_idx').on(table.userId),
    uniqueIndex('addresses_one_default_key').on(table.userId).where(sql`${table.isDefault}`),
    check('addresses_country_check', sql`${table.country} ~ '^[A-Z]{2}$'`),
    check(
      'addresses_lengths_check',
      sql`char_length(${table.fullName}) between 1 and 120 and char_length(${table.street}) between 1 and 300 and char_length(${table.city}) between 1 and 120 and char_length(${table.region}) <= 120 and char_length(${table.postalCode}) <= 20 and char_length(${table.phone}) between 1 and 40`,
    ),
  ],
)

/**
 * What the customer sees in their notifications tab and the header's unread count, and (audience
 * `staff`) what staff see in theirs: one row per staff member who may act on it, written with the
 * change (docs/decisions/036). The text is not stored: `type` is a locale key
 * (`customerNotifications.<type>` or `staffNotifications.<type>`) and `params` its values, so it
 * reads in the language of the page (e-mails go out in the reader's language at the time).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // info | success | warning: the icon and colour.
    tone: text().notNull().default('info'),
    type: text().notNull(),
    params: jsonb().$type<Record<string, string | number>>().notNull().default({}),
    // Where it takes the reader (a path of this site).
    link: text(),
    // Whose list it is in: the customer's own (their orders) or the staff's (work to do).
    audience: text().notNull().default('customer'),
    requestId: uuid().references(() => purchaseRequests.id, { onDelete: 'cascade' }),
    readAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    // Each reader's list, newest first, and their unread count: per audience, so a staff member's
    // work notices never crowd out their own orders' (or the other way round).
    index('notifications_user_idx').on(table.userId, table.audience, table.createdAt.desc(), table.id.desc()),
    index('notifications_unread_idx').on(table.userId, table.audience).where(sql`${table.readAt} is null`),
    check('notifications_audience_check', sql`${table.audience} in ('customer', 'staff')`),
    check('notifications_tone_check', sql`${table.tone} in ('info', 'success', 'warning')`),
    check('notifications_type_check', sql`${table.type} ~ '^[a-zA-Z_]+$'`),
    check('notifications_link_check', sql`${table.link} ~ '^/[^/]'`),
  ],
)
