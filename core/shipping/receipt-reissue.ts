import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { recordAudit } from '#core/audit/audit-log.ts'
import { issueCreditNote } from '#core/billing/credit-notes.ts'
import { applyInvoiceEvent } from '#core/billing/invoice-service.ts'
import {
  type ShippingReceiptTotals,
  type StorageFeeLine,
  shippingReceiptTotals,
} from '#core/billing/receipt-totals.ts'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { MAX_TOTAL_JPY } from '#core/pricing/pricing.ts'
import { basisPointsOf } from '#core/pricing/quote-pricing.ts'
import type { Settings } from '#core/settings/settings-schema.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { requireConfirmation } from '#core/shared/confirmation.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import type { Executor } from '#db/client.ts'
import { invoiceLines, invoices, payments, refunds, shipments } from '#db/schema/index.ts'
import { SHIPMENT_ENTITY } from './shipment-events.ts'
import { issueShipmentReceipt } from './shipment-packing.ts'
import { ReissueReceiptSchema } from './shipment-schemas.ts'

/**
 * Re-issuing a shipping receipt (docs/decisions/037): a wrong price no longer needs the shipment
 * cancelled. An admin gives the corrected shipping price and why, sees what will happen with its
 * amounts, and confirms; then, in one transaction with history rows, the audit record and the
 * customer's notification:
 * - the receipt still open is voided and a new one issued at the corrected price (the storage
 *   lines carried over as they were: the items' clocks stopped when they were reserved);
 * - a receipt already paid cannot be voided: a credit note takes it back whole (numbered, frozen,
 *   its lines and the reason), and the money paid for it is carried to the new receipt. If that
 *   covers the new total, the new receipt is paid at once and the rest is a refund due on the
 *   payment(s) behind it (newest first); if not, the new receipt asks only the difference, and
 *   the customer pays it as any receipt;
 * - an open receipt that already carried credit (a re-issue of a re-issue) passes that credit on.
 * Invoices stay frozen: nothing here changes an issued amount, only statuses move.
 */

export type ReissuePlan = {
  shipment: { id: string; number: string; userId: string; status: string; version: number; locale: string }
  /** The receipt being replaced. */
  current: { id: string; number: string; status: 'open' | 'paid'; totalJpy: number; shippingJpy: number }
  /** The new receipt's storage lines (the current one's) and totals at the corrected price. */
  storage: StorageFeeLine[]
  totals: ShippingReceiptTotals
  /** Money already behind the current receipt: its total when paid, its carried credit when open. */
  carriedJpy: number
  /** Of that, what the new receipt takes; what is left to pay on it; what goes back. */
  appliedJpy: number
  toPayJpy: number
  refundDueJpy: number
  /** A credit note is issued (the current receipt was paid). */
  creditNote: boolean
}

const REISSUABLE = ['packed', 'paid', 'shipped', 'delivered']

async function planReissue(
  tx: Executor,
  data: { id: string; version: number; price: number },
  config: Pick<Settings, 'taxRate'>,
  { lock }: { lock: boolean },
): Promise<ReissuePlan> {
  const shipmentQuery = tx
    .select({
      id: shipments.id,
      number: shipments.number,
      userId: shipments.userId,
      status: shipments.status,
      version: shipments.version,
      locale: shipments.locale,
    })
    .from(shipments)
    .where(eq(shipments.id, data.id))
  const [shipment] = lock ? await shipmentQuery.for('update') : await shipmentQuery
  if (!shipment) {
    throw new AppError('not_found', `Shipment ${data.id} not found`, { reason: 'shipmentNotFound' })
  }
  if (shipment.version !== data.version) {
    throw new AppError('conflict', `Shipment ${shipment.number} changed`, { reason: 'shipmentChanged' })
  }
  if (!REISSUABLE.includes(shipment.status)) {
    throw new AppError('conflict', `Shipment ${shipment.number} is ${shipment.status}`, {
      reason: 'receiptNotReissuable',
    })
  }
  // The receipt in force: the open one, else the newest paid one (after the shipment's lock, as
  // every payment path takes them).
  const receiptQuery = tx
    .select({
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      totalJpy: invoices.totalJpy,
      shippingJpy: invoices.shippingJpy,
      creditAppliedJpy: invoices.creditAppliedJpy,
    })
    .from(invoices)
    .where(and(eq(invoices.shipmentId, shipment.id), inArray(invoices.status, ['open', 'paid'])))
    .orderBy(sql`${invoices.status} = 'open' desc`, desc(invoices.issuedAt), desc(invoices.sequence))
    .limit(1)
  const [current] = lock ? await receiptQuery.for('update') : await receiptQuery
  if (!current || (current.status !== 'open' && current.status !== 'paid')) {
    throw new AppError('conflict', `Shipment ${shipment.number} has no receipt to re-issue`, {
      reason: 'receiptNotReissuable',
    })
  }
  const storage = (
    await tx
      .select({
        itemId: invoiceLines.itemId,
        description: invoiceLines.description,
        quantity: invoiceLines.quantity,
        unitPriceJpy: invoiceLines.unitPriceJpy,
      })
      .from(invoiceLines)
      .where(and(eq(invoiceLines.invoiceId, current.id), eq(invoiceLines.kind, 'storage_fee')))
      .orderBy(asc(invoiceLines.position))
  ).map((line) => ({
    itemId: line.itemId ?? '',
    title: line.description,
    days: line.quantity,
    feePerDayJpy: line.unitPriceJpy,
  }))
  const totals = shippingReceiptTotals(data.price, storage, basisPointsOf(config.taxRate))
  if (data.price === current.shippingJpy && totals.totalJpy === current.totalJpy) {
    throw new AppError('invalid', `Receipt ${current.number} already charges ¥${data.price}`, {
      reason: 'receiptUnchanged',
      fieldErrors: { price: ['priceUnchanged'] },
    })
  }
  if (totals.totalJpy > MAX_TOTAL_JPY) {
    throw new AppError('conflict', `Receipt total ¥${totals.totalJpy} is above ¥${MAX_TOTAL_JPY}`, {
      reason: 'quoteTooLarge',
    })
  }
  const paid = current.status === 'paid'
  const carriedJpy = paid ? current.totalJpy : current.creditAppliedJpy
  const appliedJpy = Math.min(carriedJpy, totals.totalJpy)
  return {
    shipment,
    current: {
      id: current.id,
      number: current.number,
      status: current.status,
      totalJpy: current.totalJpy,
      shippingJpy: current.shippingJpy,
    },
    storage,
    totals,
    carriedJpy,
    appliedJpy,
    toPayJpy: totals.totalJpy - appliedJpy,
    refundDueJpy: carriedJpy - appliedJpy,
    creditNote: paid,
  }
}

/**
 * What re-issuing would do, writing nothing: the page shows it for the admin to confirm.
 * @throws AppError as `reissueShippingReceipt`, except the missing confirmation.
 */
export async function previewReissue(ctx: OrderContext, input: unknown): Promise<ReissuePlan> {
  staffActor(ctx.actor, 'record_payment')
  const data = parse(ReissueReceiptSchema, input, 'shipmentInvalid')
  const config = await ctx.settings.get()
  return planReissue(ctx.db, { ...data, price: data.price ?? 0 }, config, { lock: false })
}

/**
 * Puts what is due back on the payments that paid a shipment's receipts, newest first, each up to
 * what it took less what is already due back on it (`refunds_within_due` keeps done ≤ due).
 */
async function refundAcrossPayments(
  tx: Executor,
  input: { shipmentId: string; amountJpy: number; actorId: string | null },
) {
  const paid = await tx
    .select({ id: payments.id, amount: payments.amount, requestedJpy: payments.requestedJpy })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(invoices.shipmentId, input.shipmentId), eq(payments.status, 'succeeded')))
    .orderBy(desc(payments.settledAt), desc(payments.createdAt))
    .for('update', { of: payments })
  const dueRows = paid.length
    ? await tx
        .select({ paymentId: refunds.paymentId, amountJpy: refunds.amountJpy })
        .from(refunds)
        .where(
          and(
            inArray(
              refunds.paymentId,
              paid.map((row) => row.id),
            ),
            eq(refunds.status, 'due'),
          ),
        )
    : []
  let left = input.amountJpy
  const made: { paymentId: string; amountJpy: number }[] = []
  for (const payment of paid) {
    if (left <= 0) break
    const took = Number(payment.amount ?? payment.requestedJpy)
    const already = dueRows
      .filter((row) => row.paymentId === payment.id)
      .reduce((sum, row) => sum + row.amountJpy, 0)
    const share = Math.min(left, Math.max(0, took - already))
    if (share <= 0) continue
    await tx.insert(refunds).values({
      paymentId: payment.id,
      amountJpy: share,
      status: 'due',
      reason: 'receipt_reissued',
      recordedBy: input.actorId,
    })
    await setIfVersion(tx, payments, { id: payment.id, set: {} })
    made.push({ paymentId: payment.id, amountJpy: share })
    left -= share
  }
  if (left > 0) throw new Error(`No payment of shipment ${input.shipmentId} can take back ¥${left}`)
  return made
}

export type ReissuedReceipt = {
  invoiceId: string
  invoiceNumber: string
  totalJpy: number
  toPayJpy: number
  refundDueJpy: number
  creditNote: { id: string; number: string } | null
  version: number
}

/**
 * @throws AppError `unauthorized`, `forbidden` (not an admin: money), `invalid` (field errors:
 * price, reason; `receiptUnchanged`; `actionNotConfirmed`), `not_found`, `conflict`
 * (`shipmentChanged`: a stale page; `receiptNotReissuable`: nothing to re-issue, or the shipment
 * is requested, cancelled or lost; `quoteTooLarge`).
 */
export async function reissueShippingReceipt(ctx: OrderContext, input: unknown): Promise<ReissuedReceipt> {
  const staff = staffActor(ctx.actor, 'record_payment')
  const data = parse(ReissueReceiptSchema, input, 'shipmentInvalid')
  const reason = data.reason ?? ''
  const config = await ctx.settings.get()
  return ctx.db.transaction((tx) => reissueWithin(tx, ctx.jobs, staff, data, reason, config))
}

/**
 * In the re-issue's transaction: plans it under the locks, asks for the confirmation, replaces the
 * receipt, puts the rest due back on the payments, sets the shipment's price, records the history
 * and audit rows and tells the customer.
 */
async function reissueWithin(
  tx: Executor,
  jobs: AppJobEnqueuer,
  staff: OrderActor,
  data: z.output<typeof ReissueReceiptSchema>,
  reason: string,
  config: Settings,
): Promise<ReissuedReceipt> {
  const plan = await planReissue(tx, { ...data, price: data.price ?? 0 }, config, { lock: true })
  // After every other check, so the page can show what would happen before asking.
  requireConfirmation(data.confirm, `Re-issuing the receipt of ${plan.shipment.number}`)
  const { shipment } = plan
  const now = new Date()
  const { issued, creditNote } = await replaceReceipt(tx, plan, config, staff, reason, now)
  const refundsMade =
    plan.refundDueJpy > 0
      ? await refundAcrossPayments(tx, {
          shipmentId: shipment.id,
          amountJpy: plan.refundDueJpy,
          actorId: staff.id,
        })
      : []
  const moved = await setIfVersion(tx, shipments, {
    id: shipment.id,
    version: shipment.version,
    at: now,
    set: {
      priceJpy: plan.totals.shippingJpy,
      priceReason: sql`case when ${shipments.ratePriceJpy} is not distinct from ${plan.totals.shippingJpy}::int then null else ${reason} end`,
    },
  })
  if (moved === null) {
    throw new AppError('conflict', `Shipment ${shipment.number} changed`, { reason: 'shipmentChanged' })
  }
  await recordReissue(tx, staff, plan, reason, { issued, creditNote, refundsMade })
  await tellReissued(tx, jobs, plan, issued, reason)
  return {
    invoiceId: issued.id,
    invoiceNumber: issued.number,
    totalJpy: issued.totalJpy,
    toPayJpy: plan.toPayJpy,
    refundDueJpy: plan.refundDueJpy,
    creditNote: creditNote ? { id: creditNote.id, number: creditNote.number } : null,
    version: moved,
  }
}

/**
 * Voids the open receipt, issues its replacement at the corrected price with the credit carried,
 * takes a paid one back with a credit note, and pays the new one at issue when the credit covers it.
 */
async function replaceReceipt(
  tx: Executor,
  plan: ReissuePlan,
  config: Settings,
  actor: OrderActor,
  reason: string,
  now: Date,
) {
  const { shipment, current } = plan
  if (current.status === 'open') {
    await applyInvoiceEvent(tx, { invoiceId: current.id, event: 'void', actor, at: now, note: reason })
  }
  const issued = await issueShipmentReceipt(tx, shipment, {
    shippingJpy: plan.totals.shippingJpy,
    storage: plan.storage,
    settings: config,
    actor,
    issuedAt: now,
    replacesInvoiceId: current.id,
    creditAppliedJpy: plan.appliedJpy,
  })
  const creditNote = plan.creditNote
    ? await issueCreditNote(tx, {
        invoiceId: current.id,
        appliedToInvoiceId: issued.id,
        reason,
        actor,
        issuedAt: now,
      })
    : null
  // Covered whole by what was paid before: paid at issue, by the carried credit.
  if (plan.toPayJpy === 0) {
    await applyInvoiceEvent(tx, {
      invoiceId: issued.id,
      event: 'pay',
      actor,
      at: now,
      note: creditNote ? `credit ${creditNote.number}` : 'carried credit',
    })
  }
  return { issued, creditNote }
}

/** The shipment's history row and the audit record of the re-issue, with its facts. */
async function recordReissue(
  tx: Executor,
  staff: OrderActor,
  plan: ReissuePlan,
  reason: string,
  made: {
    issued: { number: string; totalJpy: number }
    creditNote: { number: string } | null
    refundsMade: { paymentId: string; amountJpy: number }[]
  },
) {
  const { shipment, current } = plan
  const { issued, creditNote } = made
  const facts = {
    previous: current.number,
    previousJpy: current.totalJpy,
    invoice: issued.number,
    totalJpy: issued.totalJpy,
    ...(creditNote ? { creditNote: creditNote.number } : {}),
    ...(plan.appliedJpy > 0 ? { creditAppliedJpy: plan.appliedJpy } : {}),
    toPayJpy: plan.toPayJpy,
    refundDueJpy: plan.refundDueJpy,
  }
  await recordOrderEvent(tx, {
    entityType: SHIPMENT_ENTITY,
    entityId: shipment.id,
    event: 'reissue_receipt',
    from: shipment.status,
    to: shipment.status,
    actor: staff,
    note: reason,
    data: { ...facts, refunds: made.refundsMade },
  })
  await recordAudit(tx, {
    actorId: staff.id,
    kind: 'shipment.receipt_reissue',
    subject: { type: 'shipment', id: shipment.id },
    before: { invoice: current.number, totalJpy: current.totalJpy, priceJpy: current.shippingJpy },
    after: { shipment: shipment.number, reason, priceJpy: plan.totals.shippingJpy, ...facts },
  })
}

/** Tells the customer of the new receipt: nothing carried, the rest to pay, or money going back. */
async function tellReissued(
  tx: Executor,
  jobs: AppJobEnqueuer,
  plan: ReissuePlan,
  issued: { number: string; totalJpy: number },
  reason: string,
) {
  const { shipment, current } = plan
  const link = `/user-dashboard/shipments/${shipment.id}`
  const params = {
    number: shipment.number,
    invoice: issued.number,
    previous: current.number,
    totalJpy: issued.totalJpy,
    reason,
  }
  if (plan.carriedJpy === 0) {
    await notifyCustomer(tx, jobs, { userId: shipment.userId, type: 'receipt_reissued', params, link })
  } else if (plan.toPayJpy > 0) {
    await notifyCustomer(tx, jobs, {
      userId: shipment.userId,
      type: 'receipt_reissued_topay',
      params: { ...params, toPayJpy: plan.toPayJpy, paidJpy: plan.appliedJpy },
      link,
    })
  } else {
    await notifyCustomer(tx, jobs, {
      userId: shipment.userId,
      type: 'receipt_reissued_refund',
      params: { ...params, refundJpy: plan.refundDueJpy },
      link,
    })
  }
}
