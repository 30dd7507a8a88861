import { and, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { recordAudit } from '#core/audit/audit-log.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { REQUEST_ENTITY } from '#core/orders/order-events.ts'
import { completeFinishedRequests } from '#core/orders/request-completion.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { requireConfirmation } from '#core/shared/confirmation.ts'
import { isConstraintViolation } from '#core/shared/database-errors.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { invalidInput } from '#core/shared/input-errors.ts'
import { type Actor, requireActor } from '#core/shared/service-context.ts'
import { SHIPMENT_ENTITY } from '#core/shipping/shipment-events.ts'
import type { Executor } from '#db/client.ts'
import { invoices, payments, refunds } from '#db/schema/index.ts'
import { MONEY_HISTORY_PATH } from './money-history.ts'
import { applyPaymentEvent, PAYMENT_ENTITY } from './payment-events.ts'
import { isPaymentStatus, paymentTransition } from './payment-machine.ts'
import { canRecordPayment } from './payment-policy.ts'
import {
  type MarkRefundDoneInput,
  MarkRefundDoneSchema,
  type RecordManualPaymentInput,
  RecordManualPaymentSchema,
  RefundThroughProviderSchema,
  type ResolveHeldPaymentInput,
  ResolveHeldPaymentSchema,
} from './payment-schemas.ts'
import {
  assertPayable,
  type InvoiceRow,
  invoiceNotFound,
  invoiceWithOwner,
  moveOf,
  ownerAwaitsPayment,
  PAYMENTS_NEED_SIGN_IN,
  PROVIDER_LABELS,
  payInvoice,
  providerOf,
} from './settle-payment.ts'
import { confirmTransferNotices } from './transfer-notices.ts'

/** A refused form: `invalid`, reason `paymentInvalid`. */
const REFUSED = { message: 'Payment input refused', reason: 'paymentInvalid' }

/**
 * What admins do with money by hand: record a bank transfer that arrived (the manual method,
 * the default when no provider is configured) and say that a refund due was made. Moderators
 * and customers are refused (payment-policy.ts). docs/decisions/021, "Payments".
 */

/**
 * Refuses anyone but an admin: anonymous `unauthorized`; a customer `not_found` (unless the
 * invoice is theirs: `forbidden`); a moderator `forbidden`. The invoice's owner is looked up
 * only to answer a customer as for any other missing id.
 */
async function requireRecorder(actor: Actor | null, ownerId: () => Promise<string | null>) {
  const user = requireActor(actor, PAYMENTS_NEED_SIGN_IN)
  if (canRecordPayment(user)) return user
  if (user.role === 'user' && (await ownerId()) !== user.id) {
    throw new AppError('not_found', 'Invoice not found', { reason: 'invoiceNotFound' })
  }
  throw new AppError('forbidden', 'Only admins record payments', { reason: 'paymentAdminsOnly' })
}

const paymentNotFound = (paymentId: string) =>
  new AppError('not_found', `Payment ${paymentId} not found`, { reason: 'paymentNotFound' })

/**
 * What every admin action on one payment checks first: an admin (requireRecorder, the payment's
 * customer looked up only to answer a customer as for a missing id), then the input by its
 * schema (a `paymentId` that is not one: `not_found`; anything else: field errors).
 */
async function adminPaymentInput<Schema extends z.ZodType<{ paymentId: string }>>(
  ctx: OrderContext,
  input: { paymentId?: unknown },
  schema: Schema,
): Promise<{ actor: Actor; data: z.output<Schema> }> {
  const paymentId = String(input.paymentId ?? '')
  const actor = await requireRecorder(ctx.actor, async () => {
    if (!isUuid(paymentId)) return null
    const [row] = await ctx.db
      .select({ userId: invoices.userId })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(eq(payments.id, paymentId))
    return row?.userId ?? null
  })
  const parsed = schema.safeParse(input)
  if (!parsed.success) {
    if (parsed.error.issues.some((issue) => issue.path[0] === 'paymentId')) throw paymentNotFound(paymentId)
    throw invalidInput(parsed.error.issues, REFUSED)
  }
  return { actor, data: parsed.data }
}

export const nothingDue = (paymentId: string) =>
  new AppError('conflict', `Nothing to refund on payment ${paymentId}`, { reason: 'refundNothingDue' })

/**
 * How long a refund through the provider holds the payment (its `refundingAt`): longer than the
 * provider's longest answer (PAYMENT_PROVIDER_TIMEOUT_SECONDS, at most 120 s), so a refund by hand
 * never goes out beside it; a process that died half-way holds it no longer than this.
 */
export const REFUND_HOLD_MINUTES = 5

export function refundUnderWay(refundingAt: Date | null, now = Date.now()): boolean {
  return refundingAt !== null && now - refundingAt.getTime() < REFUND_HOLD_MINUTES * 60_000
}

export const refundInProgress = (paymentId: string) =>
  new AppError('conflict', `A refund through the provider is under way on payment ${paymentId}`, {
    reason: 'refundInProgress',
  })

/**
 * An admin records a bank transfer that arrived: the amount must be exactly the invoice's total
 * (staff cannot type a wrong figure into "paid": a transfer of another amount is settled with
 * the customer first), with the bank's reference (unique: the same transfer is never recorded
 * twice). The invoice as the page showed it (version): a double submit records one payment.
 * @throws AppError `unauthorized`, `not_found`, `forbidden` (see requireRecorder); `invalid`
 *   with field errors; `conflict` (`invoiceChanged`, `invoicePaid`, `invoiceNotPayable`,
 *   `paymentReferenceUsed`).
 */
export async function recordManualPayment(
  ctx: OrderContext,
  input: Partial<Record<keyof RecordManualPaymentInput, unknown>>,
): Promise<{ paymentId: string }> {
  const invoiceId = String(input.invoiceId ?? '')
  const actor = await requireRecorder(ctx.actor, async () =>
    isUuid(invoiceId) ? ((await invoiceWithOwner(ctx.db, invoiceId, false))?.userId ?? null) : null,
  )
  const parsed = RecordManualPaymentSchema.safeParse(input)
  if (!parsed.success) {
    if (parsed.error.issues.some((issue) => issue.path[0] === 'invoiceId')) throw invoiceNotFound(invoiceId)
    throw invalidInput(parsed.error.issues, REFUSED)
  }
  const { version, amountJpy, reference, note } = parsed.data
  try {
    return await ctx.db.transaction(async (tx) => {
      const invoice = await invoiceWithOwner(tx, parsed.data.invoiceId, true)
      if (!invoice) throw invoiceNotFound(parsed.data.invoiceId)
      // A double submit finds the invoice paid by the first: said as such.
      assertPayable(invoice)
      if (invoice.version !== version) {
        throw new AppError('conflict', `Invoice ${invoice.number} changed`, { reason: 'invoiceChanged' })
      }
      if (amountJpy !== invoice.dueJpy) {
        // A shipment's invoice is its shipping receipt, and the message says so.
        const receipt = invoice.owner.kind === 'shipment'
        throw new AppError(
          'invalid',
          `Invoice ${invoice.number} asks ¥${invoice.dueJpy}, not ¥${amountJpy}`,
          {
            reason: receipt ? 'paymentAmountMismatchReceipt' : 'paymentAmountMismatch',
            fieldErrors: { amountJpy: [receipt ? 'amountMismatchReceipt' : 'amountMismatch'] },
          },
        )
      }
      const [used] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.provider, 'manual'), eq(payments.captureRef, reference)))
      if (used) throw referenceUsed()
      const step = moveOf(null, 'record', 'staff')
      const settledAt = new Date()
      const [payment] = await tx
        .insert(payments)
        .values({
          invoiceId: invoice.id,
          provider: 'manual',
          captureRef: reference,
          status: step.to,
          requestedJpy: invoice.dueJpy,
          amount: amountJpy,
          currency: 'JPY',
          recordedBy: actor.id,
          note: note ?? null,
          settledAt,
        })
        .returning({ id: payments.id })
      if (!payment) throw new Error('Unable to store a payment: no row returned')
      const staff: OrderActor = { kind: 'staff', id: actor.id }
      await recordOrderEvent(tx, {
        entityType: PAYMENT_ENTITY,
        entityId: payment.id,
        event: 'record',
        to: step.to,
        actor: staff,
        note: note ?? null,
        data: { invoiceId: invoice.id, reference, amountJpy },
        visibleToCustomer: false,
      })
      await payInvoice(tx, ctx.jobs, invoice, { id: payment.id, provider: 'manual', amountJpy }, staff)
      // The transfer the customer said they made, if they did: confirmed by this payment (ADR 036).
      const confirmed = await confirmTransferNotices(tx, {
        invoiceId: invoice.id,
        paymentId: payment.id,
        actorId: actor.id,
        at: settledAt,
      })
      await recordAudit(tx, {
        actorId: actor.id,
        kind: 'payment.record',
        subject: { type: 'payment', id: payment.id },
        before: {},
        after: {
          [invoice.owner.kind]: invoice.ownerNumber,
          invoice: invoice.number,
          amountJpy,
          reference,
          ...(confirmed > 0 ? { reportedByCustomer: true } : {}),
        },
      })
      return { paymentId: payment.id }
    })
  } catch (error) {
    // Two invoices recorded with one reference at the same moment: the index decides.
    if (isConstraintViolation(error, 'unique', 'payments_capture_ref_key')) throw referenceUsed()
    throw error
  }
}

function referenceUsed() {
  return new AppError('conflict', 'That bank reference is already recorded', {
    reason: 'paymentReferenceUsed',
    fieldErrors: { reference: ['referenceUsed'] },
  })
}

/** What is due back on a payment and what has been given back, in whole yen. */
export async function refundBalance(db: Executor, paymentId: string): Promise<{ due: number; done: number }> {
  const [balance] = await db
    .select({
      due: sql<number>`coalesce(sum(${refunds.amountJpy}) filter (where ${refunds.status} = 'due'), 0)::bigint`,
      done: sql<number>`coalesce(sum(${refunds.amountJpy}) filter (where ${refunds.status} = 'done'), 0)::bigint`,
    })
    .from(refunds)
    .where(eq(refunds.paymentId, paymentId))
  return { due: Number(balance?.due ?? 0), done: Number(balance?.done ?? 0) }
}

/** The invoice a payment paid (or tried to), its owner and invoice locked in that order. */
export async function invoiceOfPayment(tx: Executor, paymentId: string) {
  const [found] = await tx
    .select({ invoiceId: payments.invoiceId })
    .from(payments)
    .where(eq(payments.id, paymentId))
  return found ? invoiceWithOwner(tx, found.invoiceId, true) : null
}

/**
 * Money sent back (by hand, or through the provider): the customer is told, in their language,
 * in the app and by e-mail, with a link to their payments and refunds; a request whose last
 * money this was is over (docs/decisions/034).
 */
export async function refundSent(
  tx: Executor,
  ctx: OrderContext,
  invoice: InvoiceRow,
  amountJpy: number,
  actorId: string,
  /** Sent to the customer's balance instead of the original method (docs/decisions/050). */
  toBalance = false,
  /** Who sent it: staff, or the customer choosing their balance. */
  actorKind: 'staff' | 'customer' = 'staff',
) {
  // The request's (or shipment's) own history says it too: the customer follows it there.
  await recordOrderEvent(tx, {
    entityType: invoice.owner.kind === 'request' ? REQUEST_ENTITY : SHIPMENT_ENTITY,
    entityId: invoice.owner.id,
    event: 'refund_sent',
    actor: { kind: actorKind, id: actorId },
    data: { amountJpy, invoice: invoice.number, ...(toBalance ? { via: 'balance' } : {}) },
  })
  await notifyCustomer(tx, ctx.jobs, {
    userId: invoice.userId,
    type: toBalance ? 'refund_to_balance' : 'refund_sent',
    params: { number: invoice.ownerNumber, amountJpy },
    requestId: invoice.owner.kind === 'request' ? invoice.owner.id : null,
    link: toBalance ? '/user-dashboard/balance' : MONEY_HISTORY_PATH,
  })
  if (invoice.owner.kind === 'request') {
    await completeFinishedRequests(tx, ctx.jobs, [invoice.owner.id], 'refund_sent')
  }
}

/**
 * A refund made (by hand, or through the provider): its `done` row, the payment's version moved
 * on, the payment's history and the audit record, in the caller's transaction.
 */
async function recordRefundDone(
  tx: Executor,
  input: {
    paymentId: string
    amountJpy: number
    actorId: string
    /** The bank's or provider's reference, as the admin typed it or the provider gave it. */
    reference: string
    /** Through the provider's API: its name and refund id. */
    provider?: { name: string; refundRef: string; status: string }
  },
) {
  const { paymentId, amountJpy, actorId, reference, provider } = input
  try {
    // Inside a savepoint, so a refusal by the database leaves the caller's transaction usable.
    await tx.transaction((savepoint) =>
      savepoint.insert(refunds).values({
        paymentId,
        amountJpy,
        status: 'done',
        reason: reference,
        recordedBy: actorId,
        providerRef: provider?.refundRef ?? null,
      }),
    )
  } catch (error) {
    // The database's own guard (migration 0028): never more done than due on a payment.
    if (isConstraintViolation(error, 'check', 'refunds_within_due')) throw nothingDue(paymentId)
    throw error
  }
  await setIfVersion(tx, payments, { id: paymentId, set: { refundingAt: null } })
  await recordOrderEvent(tx, {
    entityType: PAYMENT_ENTITY,
    entityId: paymentId,
    event: 'refund_done',
    actor: { kind: 'staff', id: actorId },
    note: provider ? null : reference,
    data: provider
      ? { amountJpy, provider: provider.name, refundRef: provider.refundRef, status: provider.status }
      : { amountJpy },
    visibleToCustomer: false,
  })
  await recordAudit(tx, {
    actorId,
    kind: 'payment.refund_done',
    subject: { type: 'payment', id: paymentId },
    before: { refundDueJpy: amountJpy },
    after: {
      refundDoneJpy: amountJpy,
      reference: provider?.refundRef ?? reference,
      ...(provider ? { via: provider.name } : {}),
    },
  })
}

/**
 * An admin made the refund due on a payment (a duplicate) at the provider or the bank: a `done`
 * refund row for what is still due, with their reference. The payment as the page showed it
 * (version): a double submit adds one row.
 * @throws AppError as recordManualPayment; `conflict` `refundNothingDue`.
 */
export async function markRefundDone(
  ctx: OrderContext,
  input: Partial<Record<keyof MarkRefundDoneInput, unknown>>,
): Promise<{ amountJpy: number }> {
  const { actor, data } = await adminPaymentInput(ctx, input, MarkRefundDoneSchema)
  const notFound = () => paymentNotFound(data.paymentId)
  return ctx.db.transaction(async (tx) => {
    // The lock order of every order service: the owner, its invoice, then the payment.
    const invoice = await invoiceOfPayment(tx, data.paymentId)
    const [payment] = await tx
      .select({ id: payments.id, version: payments.version, refundingAt: payments.refundingAt })
      .from(payments)
      .where(eq(payments.id, data.paymentId))
      .for('update')
    if (!payment || !invoice) throw notFound()
    if (payment.version !== data.version) {
      throw new AppError('conflict', `Payment ${payment.id} changed`, { reason: 'paymentChanged' })
    }
    // The provider may be giving this money back right now: one of the two, never both.
    if (refundUnderWay(payment.refundingAt)) throw refundInProgress(payment.id)
    const balance = await refundBalance(tx, payment.id)
    const outstanding = balance.due - balance.done
    if (outstanding <= 0) throw nothingDue(payment.id)
    await recordRefundDone(tx, {
      paymentId: payment.id,
      amountJpy: outstanding,
      actorId: actor.id,
      reference: data.reference,
    })
    await refundSent(tx, ctx, invoice, outstanding, actor.id)
    return { amountJpy: outstanding }
  })
}

/**
 * An admin gives back what is still due on a PayPal or Stripe payment through the provider's API
 * (the refund port), instead of at the provider's site by hand. The payment is claimed first
 * (version compared and moved on, `refundingAt` set, committed), so a double click, two admins at
 * once, or "mark refund done" at the same moment get `paymentChanged` or `refundInProgress`
 * instead of a second refund. The provider is then called outside any transaction with an
 * idempotency key made of the payment, what was refunded before and the amount, and its refund
 * id (unique) records it once; the database refuses more done than due. A manual payment (a bank
 * transfer) is refunded by the bank and marked done by hand.
 * @throws AppError as markRefundDone; `conflict` `refundManualOnly` (a bank transfer, or a
 *   provider not configured now), `refundInProgress`; `upstream_failed` (the provider refused or
 *   is down: nothing recorded, try again).
 */
export async function refundThroughProvider(
  ctx: OrderContext,
  input: Partial<Record<'paymentId' | 'version' | 'confirm', unknown>>,
): Promise<{ amountJpy: number; refundRef: string; status: 'succeeded' | 'pending' }> {
  const { actor, data } = await adminPaymentInput(ctx, input, RefundThroughProviderSchema)
  // Money leaves at once and cannot be called back: only with the admin's confirmation.
  requireConfirmation(data.confirm, `Refund through the provider on payment ${data.paymentId}`)
  // First the claim, committed before the provider is called: the payment as the page showed it
  // (version), nothing under way, something due. Its version moves on and `refundingAt` holds it,
  // so a second click, another admin, or "mark refund done" meanwhile is refused.
  const claim = await ctx.db.transaction(async (tx) => {
    const [payment] = await tx
      .select({
        id: payments.id,
        version: payments.version,
        provider: payments.provider,
        captureRef: payments.captureRef,
        refundingAt: payments.refundingAt,
        amount: payments.amount,
        localCurrency: payments.localCurrency,
        localAmount: payments.localAmount,
      })
      .from(payments)
      .where(eq(payments.id, data.paymentId))
      .for('update')
    if (!payment) throw paymentNotFound(data.paymentId)
    if (payment.version !== data.version) {
      throw new AppError('conflict', `Payment ${payment.id} changed`, { reason: 'paymentChanged' })
    }
    if (refundUnderWay(payment.refundingAt)) throw refundInProgress(payment.id)
    const provider = providerOf(ctx, payment.provider)
    if (!provider || !payment.captureRef) {
      throw new AppError('conflict', `Payment ${payment.id} is refunded by hand`, {
        reason: 'refundManualOnly',
      })
    }
    const before = await refundBalance(tx, payment.id)
    const amountJpy = before.due - before.done
    if (amountJpy <= 0) throw nothingDue(payment.id)
    await setIfVersion(tx, payments, {
      id: payment.id,
      version: payment.version,
      set: { refundingAt: new Date() },
    })
    return {
      paymentId: payment.id,
      captureRef: payment.captureRef,
      provider,
      amountJpy,
      doneBefore: before.done,
      // Taken in local currency (dLocal, docs/decisions/051): refunded as the same share of it.
      local:
        payment.localCurrency && payment.localAmount && payment.amount
          ? { currency: payment.localCurrency, amountMinor: payment.localAmount, capturedJpy: payment.amount }
          : undefined,
    }
  })
  const { paymentId, provider, amountJpy } = claim
  let refund: Awaited<ReturnType<typeof provider.refund>>
  try {
    // The same key after a crash here (nothing recorded yet): the provider answers with the same
    // refund instead of making a second one.
    refund = await provider.refund({
      captureRef: claim.captureRef,
      amountJpy,
      idempotencyKey: `refund-${paymentId}-${claim.doneBefore}-${amountJpy}`,
      ...(claim.local ? { local: claim.local } : {}),
    })
  } catch (error) {
    // Refused or unanswered: nothing was given back, so the hold goes (best effort: it expires anyway).
    await ctx.db
      .update(payments)
      .set({ refundingAt: null })
      .where(eq(payments.id, paymentId))
      .catch(() => undefined)
    throw error
  }
  return ctx.db.transaction(async (tx) => {
    const invoice = await invoiceOfPayment(tx, paymentId)
    await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, paymentId)).for('update')
    if (!invoice) throw paymentNotFound(paymentId)
    const [recorded] = await tx
      .select({ amountJpy: refunds.amountJpy })
      .from(refunds)
      .where(eq(refunds.providerRef, refund.refundRef))
    // The same refund again (a retry after a crash, answered from the provider's idempotency store).
    if (recorded) {
      await tx.update(payments).set({ refundingAt: null }).where(eq(payments.id, paymentId))
      return { amountJpy: recorded.amountJpy, ...refund }
    }
    await recordRefundDone(tx, {
      paymentId,
      amountJpy,
      actorId: actor.id,
      reference: `${PROVIDER_LABELS[provider.name]} refund ${refund.refundRef}`,
      provider: { name: provider.name, refundRef: refund.refundRef, status: refund.status },
    })
    await refundSent(tx, ctx, invoice, amountJpy, actor.id)
    return { amountJpy, ...refund }
  })
}

/**
 * An admin resolves a payment the provider reported but we held (another amount or currency,
 * or a quote no longer payable): the payment as the page showed it (version), and
 * - `accept`: it pays the quote after all, as `payInvoice` does for any payment (the request
 *   paid, the items to buy, the customer told); only in yen, for at least the quote's total,
 *   while the quote is open; what it took above the total becomes a refund due;
 * - `refund`: it is returned whole: a refund due (marked done later, as for a duplicate) and the
 *   customer told.
 * One transaction with the payment's history and the audit record; a double submit applies once.
 * @throws AppError as markRefundDone; `conflict` `paymentChanged`, `paymentNotHeld`,
 *   `heldCannotPay` (accepting what cannot pay the quote: refund it instead).
 */
export async function resolveHeldPayment(
  ctx: OrderContext,
  input: Partial<Record<keyof ResolveHeldPaymentInput, unknown>>,
): Promise<{ status: 'succeeded' | 'refunded'; refundDueJpy: number }> {
  const { actor, data } = await adminPaymentInput(ctx, input, ResolveHeldPaymentSchema)
  const notFound = () => paymentNotFound(data.paymentId)
  const { version, resolution, note } = data
  return ctx.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ invoiceId: payments.invoiceId })
      .from(payments)
      .where(eq(payments.id, data.paymentId))
    if (!found) throw notFound()
    // The lock order of every order service: the owner, its invoice, the payment.
    const invoice = await invoiceWithOwner(tx, found.invoiceId, true)
    const [payment] = await tx.select().from(payments).where(eq(payments.id, data.paymentId)).for('update')
    if (!invoice || !payment || !isPaymentStatus(payment.status)) throw notFound()
    if (payment.version !== version) {
      throw new AppError('conflict', `Payment ${payment.id} changed`, { reason: 'paymentChanged' })
    }
    if (!paymentTransition(payment.status, resolution, 'staff').ok) {
      throw new AppError('conflict', `Payment ${payment.id} is ${payment.status}, not held`, {
        reason: 'paymentNotHeld',
      })
    }
    const takenJpy = payment.currency === 'JPY' && payment.amount !== null ? Number(payment.amount) : null
    const canPay =
      takenJpy !== null &&
      takenJpy >= invoice.dueJpy &&
      invoice.status === 'open' &&
      ownerAwaitsPayment(invoice)
    if (resolution === 'accept' && !canPay) {
      throw new AppError('conflict', `Payment ${payment.id} cannot pay invoice ${invoice.number}`, {
        reason: 'heldCannotPay',
      })
    }
    const now = new Date()
    const staff: OrderActor = { kind: 'staff', id: actor.id }
    // What goes back: all of it (refund), or what it took above the quote (accept).
    const refundDueJpy =
      resolution === 'refund' ? (takenJpy ?? Number(payment.requestedJpy)) : (takenJpy ?? 0) - invoice.dueJpy
    const step = await applyPaymentEvent(tx, {
      id: payment.id,
      event: resolution,
      actor: staff,
      at: now,
      expectedVersion: version,
      note: note ?? null,
      data: { invoiceId: invoice.id, refundDueJpy },
    })
    if (refundDueJpy > 0) {
      await tx.insert(refunds).values({
        paymentId: payment.id,
        amountJpy: refundDueJpy,
        status: 'due',
        reason: resolution === 'refund' ? 'held_payment' : 'overpayment',
        recordedBy: actor.id,
      })
    }
    if (resolution === 'accept') {
      await payInvoice(
        tx,
        ctx.jobs,
        invoice,
        { id: payment.id, provider: payment.provider, amountJpy: invoice.dueJpy },
        staff,
      )
    } else {
      await notifyCustomer(tx, ctx.jobs, {
        userId: invoice.userId,
        type: 'payment_refunding',
        params: { number: invoice.ownerNumber, amountJpy: refundDueJpy },
        requestId: invoice.owner.kind === 'request' ? invoice.owner.id : null,
        link: ownerPaths(invoice.owner).customer,
      })
    }
    await recordAudit(tx, {
      actorId: actor.id,
      kind: resolution === 'accept' ? 'payment.accept' : 'payment.refund',
      subject: { type: 'payment', id: payment.id },
      before: { status: payment.status },
      after: {
        status: step.to,
        [invoice.owner.kind]: invoice.ownerNumber,
        invoice: invoice.number,
        ...(refundDueJpy > 0 ? { refundDueJpy } : {}),
        ...(note ? { note } : {}),
      },
    })
    return { status: step.to as 'succeeded' | 'refunded', refundDueJpy }
  })
}
