import { and, desc, eq, sql } from 'drizzle-orm'
import { recordAudit } from '#core/audit/audit-log.ts'
import { appendMovement, balanceOf } from '#core/balance-ledger/ledger.ts'
import { hasPendingTransfer } from '#core/billing/pending-transfers.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { applyPaymentEvent, PAYMENT_ENTITY } from '#core/payments/payment-events.ts'
import { canRecordPayment } from '#core/payments/payment-policy.ts'
import { isBeingConfirmed, isOpenVoucher } from '#core/payments/payment-service.ts'
import {
  assertPayable,
  invoiceNotFound,
  invoiceWithOwner,
  moveOf,
  PAYMENTS_NEED_SIGN_IN,
  PROVIDER_ACTOR,
  payInvoice,
} from '#core/payments/settle-payment.ts'
import {
  invoiceOfPayment,
  nothingDue,
  refundBalance,
  refundInProgress,
  refundSent,
  refundUnderWay,
} from '#core/payments/staff-payments.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { isConstraintViolation } from '#core/shared/database-errors.ts'
import { AppError } from '#core/shared/errors.ts'
import { recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { invalidInput } from '#core/shared/input-errors.ts'
import { type Actor, requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import type { Executor } from '#db/client.ts'
import {
  balanceMovements,
  invoices,
  payments,
  purchaseRequests,
  refunds,
  shipments,
  users,
} from '#db/schema/index.ts'
import {
  type AdjustBalanceInput,
  AdjustBalanceSchema,
  type PayFromBalanceInput,
  PayFromBalanceSchema,
  type RecordTopUpInput,
  RecordTopUpSchema,
  RefundToBalanceSchema,
} from './balance-schemas.ts'

/**
 * The customer balance (issue 32, docs/decisions/050-customer-balance.md): what moves it. Each
 * movement is one row of the append-only ledger (./ledger.ts), written in the same transaction
 * as what it pays or comes from:
 * - a customer pays an open quote or shipping receipt from their balance, whole or in part (the
 *   rest then by a provider or a bank transfer: the invoice's amount due is its total less the
 *   balance part);
 * - an admin records a top-up the customer sent by bank transfer;
 * - an admin sends a refund due to the balance (at once) instead of the original method;
 * - an admin adjusts a balance, with a reason (audited); moderators and customers are refused.
 */

const BALANCE_INVALID = { message: 'Balance input refused', reason: 'balanceInvalid' }

const userNotFound = (userId: string) =>
  new AppError('not_found', `User ${userId} not found`, { reason: 'userNotFound' })

/** Anyone but an admin: anonymous `unauthorized`, everyone else `forbidden` (`balanceAdminsOnly`). */
function requireAdmin(actor: Actor | null): Actor {
  const user = requireActor(actor, PAYMENTS_NEED_SIGN_IN)
  if (!canRecordPayment(user)) {
    throw new AppError('forbidden', 'Only admins move a balance', { reason: 'balanceAdminsOnly' })
  }
  return user
}

async function requireCustomerUser(tx: Executor, userId: string) {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId))
  if (!user) throw userNotFound(userId)
  return user
}

// ---------------------------------------------------------------------------------------------
// The customer pays from their balance
// ---------------------------------------------------------------------------------------------

export type BalancePaymentResult = {
  paymentId: string
  amountJpy: number
  /** The invoice is paid (the balance covered what was due); otherwise the rest is still to pay. */
  paid: boolean
  dueJpy: number
  balanceJpy: number
}

/**
 * The customer pays an open invoice of theirs from their balance: `amountJpy` (at most what is
 * due) or, without it, as much as the balance covers. A `balance` payment of the invoice,
 * succeeded at once, and its `payment` movement; when it covers all that was due the invoice is
 * paid as by any provider (its owner moves, the customer and staff are told). Parallel payments
 * of the same balance wait for each other on its row: the second finds what the first left.
 * @throws AppError `unauthorized`; `not_found` (someone else's invoice, as a missing one);
 *   `forbidden` (staff do not pay for customers); `invalid` (the amount, with field errors);
 *   `conflict` (`invoicePaid`, `invoiceNotPayable`, `paymentUnderReview`, `transferBeingChecked`,
 *   `paymentBeingConfirmed`, `balanceEmpty`, `balanceTooLow`, `balanceAboveDue`).
 */
export async function payFromBalance(
  ctx: OrderContext,
  input: Partial<Record<keyof PayFromBalanceInput, unknown>>,
): Promise<BalancePaymentResult> {
  const actor = requireActor(ctx.actor, PAYMENTS_NEED_SIGN_IN)
  const parsed = PayFromBalanceSchema.safeParse(input)
  if (!parsed.success) {
    if (!isUuid(String(input.invoiceId ?? ''))) throw invoiceNotFound(String(input.invoiceId ?? ''))
    throw invalidInput(parsed.error.issues, BALANCE_INVALID)
  }
  const { invoiceId, amountJpy } = parsed.data
  return ctx.db.transaction(async (tx) => {
    // The lock order of every order service: the owner, its invoice, then the balance row.
    const invoice = await invoiceWithOwner(tx, invoiceId, true)
    if (!invoice || (invoice.userId !== actor.id && actor.role === 'user')) throw invoiceNotFound(invoiceId)
    if (invoice.userId !== actor.id) {
      throw new AppError('forbidden', `Only the customer pays invoice ${invoice.number}`)
    }
    assertPayable(invoice)
    const attempts = await tx
      .select({
        status: payments.status,
        returnedAt: payments.returnedAt,
        voucherReference: payments.voucherReference,
        expiresAt: payments.expiresAt,
      })
      .from(payments)
      .where(eq(payments.invoiceId, invoice.id))
    if (attempts.some((attempt) => attempt.status === 'held')) {
      throw new AppError('conflict', `Invoice ${invoice.number} has a payment under review`, {
        reason: 'paymentUnderReview',
      })
    }
    if (await hasPendingTransfer(tx, invoice.id)) {
      throw new AppError('conflict', `Invoice ${invoice.number} has a bank transfer being checked`, {
        reason: 'transferBeingChecked',
      })
    }
    if (attempts.some((attempt) => isBeingConfirmed(attempt))) {
      throw new AppError('conflict', `Invoice ${invoice.number} has a payment being confirmed`, {
        reason: 'paymentBeingConfirmed',
      })
    }
    // A voucher (OXXO, SPEI…) for the rest may be paid at a shop right now (docs/decisions/051):
    // paying that rest from the balance too would take it twice.
    if (attempts.some((attempt) => isOpenVoucher(attempt))) {
      throw new AppError('conflict', `Invoice ${invoice.number} has a voucher to pay`, {
        reason: 'paymentVoucherOpen',
      })
    }
    if (amountJpy !== undefined && amountJpy > invoice.dueJpy) {
      throw new AppError('invalid', `¥${amountJpy} is above the ¥${invoice.dueJpy} due`, {
        reason: 'balanceAboveDue',
        fieldErrors: { amountJpy: ['balanceAboveDue'] },
      })
    }
    const available = await balanceOf(tx, actor.id)
    const take = amountJpy ?? Math.min(available, invoice.dueJpy)
    if (take <= 0) {
      throw new AppError('conflict', `Balance of ${actor.id} is empty`, { reason: 'balanceEmpty' })
    }
    const start = moveOf(null, 'start', 'customer')
    const [created] = await tx
      .insert(payments)
      .values({ invoiceId: invoice.id, provider: 'balance', status: start.to, requestedJpy: take })
      .returning({ id: payments.id })
    if (!created) throw new Error('Unable to store a payment: no row returned')
    await recordOrderEvent(tx, {
      entityType: PAYMENT_ENTITY,
      entityId: created.id,
      event: 'start',
      to: start.to,
      actor: { kind: 'customer', id: actor.id },
      data: { invoiceId: invoice.id, provider: 'balance', requestedJpy: take },
      visibleToCustomer: false,
    })
    // Taken from the balance (refused, and everything above rolled back, when it is too low).
    const movement = await appendMovement(tx, {
      userId: actor.id,
      kind: 'payment',
      amountJpy: -take,
      invoiceId: invoice.id,
      paymentId: created.id,
      actorId: actor.id,
    })
    const settledAt = new Date()
    await applyPaymentEvent(tx, {
      id: created.id,
      event: 'succeed',
      actor: PROVIDER_ACTOR,
      at: settledAt,
      set: { amount: take, currency: 'JPY', settledAt },
      data: { source: 'balance', amount: take, currency: 'JPY' },
    })
    const dueJpy = invoice.dueJpy - take
    if (dueJpy === 0) {
      // The balance is the provider here: the invoice is paid as a provider's payment pays it.
      await payInvoice(
        tx,
        ctx.jobs,
        invoice,
        { id: created.id, provider: 'balance', amountJpy: invoice.dueJpy },
        PROVIDER_ACTOR,
      )
    }
    return {
      paymentId: created.id,
      amountJpy: take,
      paid: dueJpy === 0,
      dueJpy,
      balanceJpy: movement.balanceAfterJpy,
    }
  })
}

// ---------------------------------------------------------------------------------------------
// Admins: top-ups, adjustments, refunds to the balance
// ---------------------------------------------------------------------------------------------

/**
 * An admin records a top-up the customer sent by bank transfer: a `topup` movement with the
 * bank's reference (one top-up per reference: the same transfer is never counted twice) and the
 * audit record; the customer is told.
 * @throws AppError `unauthorized`, `forbidden` (not an admin), `not_found` (`userNotFound`),
 *   `invalid` (field errors), `conflict` (`topUpReferenceUsed`).
 */
export async function recordTopUp(
  ctx: OrderContext,
  input: Partial<Record<keyof RecordTopUpInput, unknown>>,
): Promise<{ balanceJpy: number }> {
  const actor = requireAdmin(ctx.actor)
  const parsed = RecordTopUpSchema.safeParse(input)
  if (!parsed.success) throw invalidInput(parsed.error.issues, BALANCE_INVALID)
  const { userId, amountJpy, reference } = parsed.data
  return ctx.db.transaction(async (tx) => {
    await requireCustomerUser(tx, userId)
    let movement: { balanceAfterJpy: number }
    try {
      movement = await tx.transaction((savepoint) =>
        appendMovement(savepoint, {
          userId,
          kind: 'topup',
          amountJpy,
          reference,
          actorId: actor.id,
          reason: 'bank_transfer',
        }),
      )
    } catch (error) {
      if (isConstraintViolation(error, 'unique', 'balance_movements_topup_reference_key')) {
        throw new AppError('conflict', `Top-up reference ${reference} was recorded already`, {
          reason: 'topUpReferenceUsed',
          fieldErrors: { reference: ['referenceUsed'] },
        })
      }
      throw error
    }
    await recordAudit(tx, {
      actorId: actor.id,
      kind: 'balance.topup',
      subject: { type: 'user', id: userId },
      before: {},
      after: { amountJpy, reference, balanceJpy: movement.balanceAfterJpy },
    })
    await tellCustomer(tx, ctx, userId, 'balance_topped_up', amountJpy, movement.balanceAfterJpy)
    return { balanceJpy: movement.balanceAfterJpy }
  })
}

/**
 * An admin adds to (`credit`) or takes from (`debit`) a customer's balance, with a reason: an
 * `adjustment` movement and the audit record. A debit never takes the balance below zero.
 * @throws AppError as recordTopUp; `conflict` `balanceTooLow`.
 */
export async function adjustBalance(
  ctx: ServiceContext,
  input: Partial<Record<keyof AdjustBalanceInput, unknown>>,
): Promise<{ balanceJpy: number }> {
  const actor = requireAdmin(ctx.actor)
  const parsed = AdjustBalanceSchema.safeParse(input)
  if (!parsed.success) throw invalidInput(parsed.error.issues, BALANCE_INVALID)
  const { userId, direction, amountJpy, reason } = parsed.data
  const signed = direction === 'credit' ? amountJpy : -amountJpy
  return ctx.db.transaction(async (tx) => {
    await requireCustomerUser(tx, userId)
    const before = await balanceOf(tx, userId)
    const movement = await appendMovement(tx, {
      userId,
      kind: 'adjustment',
      amountJpy: signed,
      actorId: actor.id,
      reason,
    })
    await recordAudit(tx, {
      actorId: actor.id,
      kind: 'balance.adjust',
      subject: { type: 'user', id: userId },
      before: { balanceJpy: before },
      after: { balanceJpy: movement.balanceAfterJpy, amountJpy: signed, reason },
    })
    return { balanceJpy: movement.balanceAfterJpy }
  })
}

/**
 * An admin sends what is still due back on a payment (an unavailable item, a lost parcel, a
 * duplicate, a re-issued receipt) to the customer's balance, at once, instead of the original
 * method: a `done` refund row (the database refuses more done than due) and its `refund`
 * movement, in one transaction; never more, over all the invoice's payments, than they captured.
 * The customer is told as for any refund sent. An admin chooses it for anyone; the customer for a
 * refund of their own while it is on its way (docs/decisions/050); moderators are refused.
 * @throws AppError `unauthorized`, `forbidden`, `not_found` (`paymentNotFound`, also another
 *   customer's), `conflict`
 *   (`refundNothingDue`, `refundInProgress`, `refundAboveCaptured`).
 */
export async function refundToBalance(
  ctx: OrderContext,
  input: { paymentId?: unknown },
): Promise<{ amountJpy: number; balanceJpy: number }> {
  const actor = requireActor(ctx.actor, PAYMENTS_NEED_SIGN_IN)
  const byAdmin = canRecordPayment(actor)
  if (!byAdmin && actor.role !== 'user') requireAdmin(actor)
  const parsed = RefundToBalanceSchema.safeParse(input)
  const paymentNotFound = () =>
    new AppError('not_found', `Payment ${String(input.paymentId)} not found`, { reason: 'paymentNotFound' })
  if (!parsed.success) throw paymentNotFound()
  const { paymentId } = parsed.data
  return ctx.db.transaction(async (tx) => {
    const invoice = await invoiceOfPayment(tx, paymentId)
    const [payment] = await tx
      .select({ id: payments.id, refundingAt: payments.refundingAt })
      .from(payments)
      .where(eq(payments.id, paymentId))
      .for('update')
    // The customer chooses for a refund of their own; another customer's is as a missing one.
    if (!payment || !invoice || (!byAdmin && invoice.userId !== actor.id)) throw paymentNotFound()
    if (refundUnderWay(payment.refundingAt)) throw refundInProgress(payment.id)
    const owed = await refundBalance(tx, payment.id)
    const outstanding = owed.due - owed.done
    if (outstanding <= 0) throw nothingDue(payment.id)
    // Never more back, over the invoice's payments, than they took.
    const [money] = await tx
      .select({
        captured: sql<number>`coalesce(sum(${payments.amount}) filter (where ${payments.status} in ('succeeded', 'duplicate', 'refunded')), 0)::bigint`,
        refunded: sql<number>`coalesce((select sum(r.amount_jpy) from refunds r join payments p on p.id = r.payment_id where p.invoice_id = ${invoice.id} and r.status = 'done'), 0)::bigint`,
      })
      .from(payments)
      .where(eq(payments.invoiceId, invoice.id))
    if (Number(money?.refunded ?? 0) + outstanding > Number(money?.captured ?? 0)) {
      throw new AppError(
        'conflict',
        `Refund of ¥${outstanding} is above what invoice ${invoice.number} captured`,
        {
          reason: 'refundAboveCaptured',
        },
      )
    }
    const [refund] = await tx
      .insert(refunds)
      .values({
        paymentId: payment.id,
        amountJpy: outstanding,
        status: 'done',
        reason: 'balance',
        recordedBy: actor.id,
      })
      .returning({ id: refunds.id })
    if (!refund) throw new Error('Unable to store a refund: no row returned')
    await setIfVersion(tx, payments, { id: payment.id, set: { refundingAt: null } })
    const movement = await appendMovement(tx, {
      userId: invoice.userId,
      kind: 'refund',
      amountJpy: outstanding,
      invoiceId: invoice.id,
      paymentId: payment.id,
      refundId: refund.id,
      actorId: actor.id,
    })
    await recordOrderEvent(tx, {
      entityType: PAYMENT_ENTITY,
      entityId: payment.id,
      event: 'refund_done',
      actor: { kind: byAdmin ? 'staff' : 'customer', id: actor.id },
      data: { amountJpy: outstanding, via: 'balance' },
      visibleToCustomer: false,
    })
    // Staff actions are audited; the customer's own choice is in the ledger and the history.
    if (byAdmin) {
      await recordAudit(tx, {
        actorId: actor.id,
        kind: 'balance.refund',
        subject: { type: 'payment', id: payment.id },
        before: { refundDueJpy: outstanding },
        after: { refundDoneJpy: outstanding, invoice: invoice.number, balanceJpy: movement.balanceAfterJpy },
      })
    }
    await refundSent(tx, ctx, invoice, outstanding, actor.id, true, byAdmin ? 'staff' : 'customer')
    return { amountJpy: outstanding, balanceJpy: movement.balanceAfterJpy }
  })
}

async function tellCustomer(
  tx: Executor,
  ctx: OrderContext,
  userId: string,
  type: 'balance_topped_up',
  amountJpy: number,
  balanceJpy: number,
) {
  await notifyCustomer(tx, ctx.jobs, {
    userId,
    type,
    params: { amountJpy, balanceJpy },
    link: BALANCE_PATH,
  })
}

export const BALANCE_PATH = '/user-dashboard/balance'

// ---------------------------------------------------------------------------------------------
// Reading: the statement
// ---------------------------------------------------------------------------------------------

export type StatementRow = {
  id: number
  kind: 'topup' | 'payment' | 'refund' | 'adjustment' | 'reversal'
  amountJpy: number
  balanceAfterJpy: number
  createdAt: Date
  reason: string | null
  reference: string | null
  invoice: { id: string; number: string } | null
  /** What the invoice paid for: a request (R-…) or a shipment (SH-…). */
  owner: { kind: 'request' | 'shipment'; id: string; number: string } | null
}

export type Statement = { balanceJpy: number; rows: StatementRow[] }

export const STATEMENT_LIMIT = 500

/** The CSV download: every movement (the pages show the latest STATEMENT_LIMIT). */
export const STATEMENT_CSV_LIMIT = 100_000

/**
 * A customer's statement, newest first: every movement with its running balance and what it
 * paid. The customer reads their own; staff read anyone's; another customer gets `not_found`.
 */
export async function getStatement(
  ctx: ServiceContext,
  userId: string,
  { limit = STATEMENT_LIMIT }: { limit?: number } = {},
): Promise<Statement> {
  const actor = requireActor(ctx.actor, PAYMENTS_NEED_SIGN_IN)
  if (actor.role === 'user' && actor.id !== userId) throw userNotFound(userId)
  const rows = await ctx.db
    .select({
      id: balanceMovements.id,
      kind: balanceMovements.kind,
      amountJpy: balanceMovements.amountJpy,
      balanceAfterJpy: balanceMovements.balanceAfterJpy,
      createdAt: balanceMovements.createdAt,
      reason: balanceMovements.reason,
      reference: balanceMovements.reference,
      invoiceId: invoices.id,
      invoiceNumber: invoices.number,
      requestId: purchaseRequests.id,
      requestNumber: purchaseRequests.number,
      shipmentId: shipments.id,
      shipmentNumber: shipments.number,
    })
    .from(balanceMovements)
    .leftJoin(invoices, eq(invoices.id, balanceMovements.invoiceId))
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, invoices.requestId))
    .leftJoin(shipments, eq(shipments.id, invoices.shipmentId))
    .where(and(eq(balanceMovements.userId, userId)))
    .orderBy(desc(balanceMovements.id))
    .limit(limit)
  return {
    balanceJpy: await balanceOf(ctx.db, userId),
    rows: rows.map((row) => ({
      id: row.id,
      kind: row.kind as StatementRow['kind'],
      amountJpy: row.amountJpy,
      balanceAfterJpy: row.balanceAfterJpy,
      createdAt: row.createdAt,
      reason: row.reason,
      reference: row.reference,
      invoice: row.invoiceId && row.invoiceNumber ? { id: row.invoiceId, number: row.invoiceNumber } : null,
      owner:
        row.requestId && row.requestNumber
          ? { kind: 'request', id: row.requestId, number: row.requestNumber }
          : row.shipmentId && row.shipmentNumber
            ? { kind: 'shipment', id: row.shipmentId, number: row.shipmentNumber }
            : null,
    })),
  }
}
