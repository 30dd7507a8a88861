import { sql } from 'drizzle-orm'
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { invoices, payments, refunds } from './billing.ts'

// The customer balance in yen (issue 32, docs/decisions/050-customer-balance.md).

/**
 * One row per customer who ever had a movement: the running balance, locked FOR UPDATE by every
 * movement so parallel spends of the same balance wait for each other. Never negative (a check).
 * It is a cache of the ledger's sum, kept in the same transaction as each movement; the ledger
 * (`balance_movements`) is the record.
 */
export const balanceAccounts = pgTable(
  'balance_accounts',
  {
    userId: text()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balanceJpy: bigint({ mode: 'number' }).notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('balance_accounts_never_negative', sql`${table.balanceJpy} >= 0`)],
)

/**
 * The ledger: every movement of a customer's balance, added and never changed (a trigger refuses
 * UPDATE and TRUNCATE, and DELETE unless the account itself is being erased). Signed whole yen:
 * top-ups, refunds and reversals add, payments take, adjustments either. `balanceAfter` is the
 * running balance after it (never negative). Who did it (`actorId`, null for the system) and why.
 */
export const balanceMovements = pgTable(
  'balance_movements',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // topup | payment | refund | adjustment | reversal (a balance part given back when the
    // invoice it was applied to is voided or expires unpaid).
    kind: text().notNull(),
    amountJpy: bigint({ mode: 'number' }).notNull(),
    balanceAfterJpy: bigint({ mode: 'number' }).notNull(),
    // What it paid or came from (no cascade: the ledger outlives nothing but its customer).
    invoiceId: uuid().references(() => invoices.id),
    paymentId: uuid().references(() => payments.id),
    refundId: uuid().references(() => refunds.id),
    // A top-up by bank transfer: the bank's reference (one top-up per reference).
    reference: text(),
    actorId: text(),
    reason: text(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index('balance_movements_user_idx').on(table.userId, table.id),
    index('balance_movements_invoice_idx').on(table.invoiceId),
    uniqueIndex('balance_movements_topup_reference_key')
      .on(table.reference)
      .where(sql`${table.kind} = 'topup'`),
    // One refund movement per refund row.
    uniqueIndex('balance_movements_refund_key').on(table.refundId),
    check(
      'balance_movements_kind_check',
      sql`${table.kind} in ('topup', 'payment', 'refund', 'adjustment', 'reversal')`,
    ),
    check(
      'balance_movements_sign_check',
      sql`(${table.kind} in ('topup', 'refund', 'reversal') and ${table.amountJpy} > 0) or (${table.kind} = 'payment' and ${table.amountJpy} < 0) or (${table.kind} = 'adjustment' and ${table.amountJpy} <> 0)`,
    ),
    check('balance_movements_after_check', sql`${table.balanceAfterJpy} >= 0`),
    check(
      'balance_movements_reason_check',
      sql`${table.reason} is null or char_length(${table.reason}) between 1 and 500`,
    ),
    check(
      'balance_movements_adjustment_reason_check',
      sql`${table.kind} <> 'adjustment' or ${table.reason} is not null`,
    ),
    check(
      'balance_movements_reference_check',
      sql`${table.reference} is null or char_length(${table.reference}) between 1 and 120`,
    ),
  ],
)

export type BalanceMovementRow = typeof balanceMovements.$inferSelect
