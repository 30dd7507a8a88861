import { and, eq, inArray, sql } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import type { Executor } from '#db/client.ts'
import { balanceAccounts, balanceMovements } from '#db/schema/index.ts'

/**
 * The customer balance's ledger (docs/decisions/050-customer-balance.md): the one function that
 * moves a balance, and what the rest of the code asks of it. Only the database and the shared
 * error type: the invoice service calls `returnBalancePart` without importing the payment code.
 */

export const MOVEMENT_KINDS = ['topup', 'payment', 'refund', 'adjustment', 'reversal'] as const
export type MovementKind = (typeof MOVEMENT_KINDS)[number]

export type MovementInput = {
  userId: string
  kind: MovementKind
  /** Signed whole yen: positive adds, negative takes. */
  amountJpy: number
  invoiceId?: string | null
  paymentId?: string | null
  refundId?: string | null
  reference?: string | null
  /** Who did it (the customer, an admin); null: the system (a reversal when an invoice expires). */
  actorId: string | null
  reason?: string | null
}

export const balanceTooLow = (userId: string, balanceJpy: number, amountJpy: number) =>
  new AppError('conflict', `Balance of ${userId} is ¥${balanceJpy}, cannot take ¥${-amountJpy}`, {
    reason: 'balanceTooLow',
  })

/**
 * Appends one movement inside the caller's transaction: the customer's running-balance row is
 * created if missing, then locked FOR UPDATE, so two movements of the same balance (two tabs
 * spending it at once) run one after the other and the second sees what the first left. A
 * movement that would take the balance below zero is refused (`conflict`, `balanceTooLow`) and
 * writes nothing; the database's checks refuse it too.
 */
export async function appendMovement(tx: Executor, input: MovementInput) {
  if (!Number.isSafeInteger(input.amountJpy) || input.amountJpy === 0) {
    throw new Error(`A balance movement needs a whole, non-zero amount (got ${input.amountJpy})`)
  }
  await tx.insert(balanceAccounts).values({ userId: input.userId }).onConflictDoNothing()
  const [account] = await tx
    .select({ balanceJpy: balanceAccounts.balanceJpy })
    .from(balanceAccounts)
    .where(eq(balanceAccounts.userId, input.userId))
    .for('update')
  if (!account) throw new Error(`No balance row for ${input.userId}`)
  const after = account.balanceJpy + input.amountJpy
  if (after < 0) throw balanceTooLow(input.userId, account.balanceJpy, input.amountJpy)
  const now = new Date()
  await tx
    .update(balanceAccounts)
    .set({ balanceJpy: after, updatedAt: now })
    .where(eq(balanceAccounts.userId, input.userId))
  const [movement] = await tx
    .insert(balanceMovements)
    .values({
      userId: input.userId,
      kind: input.kind,
      amountJpy: input.amountJpy,
      balanceAfterJpy: after,
      invoiceId: input.invoiceId ?? null,
      paymentId: input.paymentId ?? null,
      refundId: input.refundId ?? null,
      reference: input.reference ?? null,
      actorId: input.actorId,
      reason: input.reason ?? null,
      createdAt: now,
    })
    .returning({ id: balanceMovements.id })
  if (!movement) throw new Error('Unable to store a balance movement: no row returned')
  return { id: movement.id, balanceAfterJpy: after }
}

/** A customer's balance now (0 for one who never had a movement). */
export async function balanceOf(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ balanceJpy: balanceAccounts.balanceJpy })
    .from(balanceAccounts)
    .where(eq(balanceAccounts.userId, userId))
  return row?.balanceJpy ?? 0
}

/**
 * The part of an invoice paid from the balance and not given back: what its `payment` movements
 * took less its `reversal` movements. An SQL expression for a query that reads `invoices` (not
 * aliased): the column is written qualified, since a single-table select writes its own columns
 * bare and `id` would then be the movement's.
 */
export function balanceAppliedSql() {
  return sql<number>`coalesce((select -sum(bm.amount_jpy) from balance_movements bm where bm.invoice_id = "invoices"."id" and bm.kind in ('payment', 'reversal')), 0)::bigint`
}

/** The same, read for one invoice. */
export async function balanceAppliedTo(db: Executor, invoiceId: string): Promise<number> {
  const [row] = await db
    .select({ applied: sql<number>`coalesce(-sum(${balanceMovements.amountJpy}), 0)::bigint` })
    .from(balanceMovements)
    .where(
      and(eq(balanceMovements.invoiceId, invoiceId), inArray(balanceMovements.kind, ['payment', 'reversal'])),
    )
  return Number(row?.applied ?? 0)
}

/**
 * An invoice left open with part of it paid from the balance is voided (replaced, its request
 * cancelled) or expires unpaid: that part goes back to the balance at once, as a `reversal`
 * movement (docs/decisions/050). Called by the invoice service in the transaction that moves
 * the invoice; nothing to do for an invoice with no balance part.
 */
export async function returnBalancePart(
  tx: Executor,
  invoice: { id: string; userId: string },
  actorId: string | null,
  why: 'void' | 'expire',
) {
  const applied = await balanceAppliedTo(tx, invoice.id)
  if (applied <= 0) return 0
  await appendMovement(tx, {
    userId: invoice.userId,
    kind: 'reversal',
    amountJpy: applied,
    invoiceId: invoice.id,
    actorId,
    reason: why === 'void' ? 'invoice_void' : 'invoice_expired',
  })
  return applied
}
