import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/**
 * Second factors (the spec's "auth user factors"): an authenticator app (TOTP) or a phone that
 * receives codes by SMS. A factor is usable for sign-in once its status is `verified`.
 */
export const authFactors = pgTable(
  'auth_factors',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    friendlyName: text().notNull(),
    status: text().notNull().default('unverified'),
    /** TOTP: the name authenticator apps show. */
    issuer: text(),
    /** TOTP: the shared secret, encrypted with AUTH_SECRET. */
    secret: text(),
    /** Phone: E.164 number. */
    phone: text(),
    /** TOTP: the newest time step accepted; a code of that step or older is refused (replay). */
    lastUsedStep: bigint({ mode: 'number' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    verifiedAt: timestamp({ withTimezone: true }),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('auth_factors_user_idx').on(table.userId),
    uniqueIndex('auth_factors_user_name_idx').on(table.userId, table.friendlyName),
    check('auth_factors_type_check', sql`${table.type} in ('totp', 'phone')`),
    check('auth_factors_status_check', sql`${table.status} in ('unverified', 'verified')`),
    check(
      'auth_factors_shape_check',
      sql`(${table.type} = 'totp' and ${table.secret} is not null) or (${table.type} = 'phone' and ${table.phone} is not null)`,
    ),
  ],
)

/** One-time recovery codes, stored as argon2id hashes (ASVS 6.5.2); each works once. */
export const authBackupCodes = pgTable(
  'auth_backup_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('auth_backup_codes_user_idx').on(table.userId)],
)

/**
 * A sign-in that passed the first factor and waits for the second. The browser holds the token in
 * a signed cookie; only its SHA-256 is stored. No session exists until the second factor passes.
 */
export const authPendingSignIns = pgTable(
  'auth_pending_sign_ins',
  {
    tokenHash: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    failedAttempts: integer().notNull().default(0),
    dontRemember: boolean().notNull().default(false),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('auth_pending_sign_ins_user_idx').on(table.userId)],
)

/** A challenge of one factor: for a phone, the code sent (HMAC, never in clear). Used once. */
export const authFactorChallenges = pgTable(
  'auth_factor_challenges',
  {
    id: uuid().primaryKey().defaultRandom(),
    factorId: uuid()
      .notNull()
      .references(() => authFactors.id, { onDelete: 'cascade' }),
    codeHash: text(),
    failedAttempts: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    verifiedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('auth_factor_challenges_factor_idx').on(table.factorId)],
)
