import { and, asc, desc, eq, inArray, like } from 'drizzle-orm'
import { AppError } from '#core/shared/errors.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'
import type { Executor } from '#db/client.ts'
import { invoices, payments, purchaseRequests, refunds, shipments } from '#db/schema/index.ts'
import { isPaymentStatus, type PaymentStatus } from './payment-machine.ts'

/**
 * The customer's money, as they follow it (docs/decisions/034): what they paid and what we give
 * back, with dates, amounts and what each was for. Read by the "Payments and refunds" page of
 * the customer area, and by the request and invoice pages for their own refunds.
 *
 * Refund rows are added and never changed (ADR 021): `due` rows say what is owed back and why
 * (an item the shop could not supply, half of a lost parcel, a second payment, a held payment, a
 * payment above the quote); `done` rows say what was sent, by hand or through the provider, each
 * time for everything then outstanding on that payment. So each due refund is sent by the first
 * `done` row that brings the payment's total sent up to it (first owed, first sent): that is its
 * date as the customer sees it.
 *
 * The entries are a union by `kind` so the credit notes (a later slice) add a kind of their own.
 */

/** The customer area's page listing every payment and refund. */
export const MONEY_HISTORY_PATH = '/user-dashboard/payments'

/** At most this many of a customer's payments are listed (years of orders; nobody has this many). */
export const MONEY_HISTORY_LIMIT = 500

/** Why money goes back, as the customer is told (the `reason` of the due row, read). */
export type RefundKind = 'unavailable' | 'lost_parcel' | 'duplicate' | 'held' | 'overpayment' | 'other'

/** Reads a due refund's stored reason (written by the services that owe money back). */
export function refundKind(reason: string): { reason: RefundKind; detail: string | null } {
  if (reason === 'duplicate_payment') return { reason: 'duplicate', detail: null }
  if (reason === 'held_payment') return { reason: 'held', detail: null }
  if (reason === 'overpayment') return { reason: 'overpayment', detail: null }
  const item = /^item (\d{1,2}) unavailable/.exec(reason)
  if (item?.[1]) return { reason: 'unavailable', detail: item[1] }
  const lost = /^lost parcel (\S+?):/.exec(reason)
  if (lost?.[1]) return { reason: 'lost_parcel', detail: lost[1] }
  return { reason: 'other', detail: null }
}

type RefundRow = {
  id: string
  paymentId: string
  status: string
  amountJpy: number
  reason: string
  createdAt: Date
}

export type RefundView = {
  id: string
  paymentId: string
  amountJpy: number
  /** Why it goes back. */
  reason: RefundKind
  /** The item's position (unavailable) or the shipment's number (lost parcel). */
  detail: string | null
  owedAt: Date
  /** When it was sent back; null while it is on its way. */
  sentAt: Date | null
}

/** The due row that owes again what a provider refund reported failed did not give back. */
export const REFUND_FAILED_REASON = 'refund_failed'

/**
 * Pure: the due refunds of some payments, each with the date it was sent (first owed, first
 * sent, per payment), oldest first. A provider refund that later failed is followed by a due row
 * `refund_failed` of its amount: that row owes nothing new, it takes back what was counted as
 * sent, so the refund it covered is on its way again until the next `done` row.
 */
export function refundLedger(rows: readonly RefundRow[]): RefundView[] {
  const byPayment = new Map<string, RefundRow[]>()
  for (const row of rows) byPayment.set(row.paymentId, [...(byPayment.get(row.paymentId) ?? []), row])
  const views: RefundView[] = []
  for (const paymentRows of byPayment.values()) {
    const ordered = [...paymentRows].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    )
    // What had been sent after each row, in order: done rows add, failed ones take back.
    const moves = ordered.flatMap((row) => {
      if (row.status === 'done') return [{ at: row.createdAt, amount: row.amountJpy }]
      if (row.reason === REFUND_FAILED_REASON) return [{ at: row.createdAt, amount: -row.amountJpy }]
      return []
    })
    const sentTotal = moves.reduce((sum, move) => sum + move.amount, 0)
    let owed = 0
    for (const due of ordered.filter((row) => row.status === 'due' && row.reason !== REFUND_FAILED_REASON)) {
      owed += due.amountJpy
      // Sent when the total sent last reached what was owed up to this one, and stayed there.
      let sentAt: Date | null = null
      let total = 0
      for (const move of moves) {
        const before = total
        total += move.amount
        if (before < owed && total >= owed) sentAt = move.at
      }
      views.push({
        id: due.id,
        paymentId: due.paymentId,
        amountJpy: due.amountJpy,
        ...refundKind(due.reason),
        owedAt: due.createdAt,
        sentAt: sentTotal >= owed ? sentAt : null,
      })
    }
  }
  return views.sort((a, b) => a.owedAt.getTime() - b.owedAt.getTime() || a.id.localeCompare(b.id))
}

/** The refunds of these invoices' payments (the caller has checked who may see them). */
export async function refundsOfInvoices(db: Executor, invoiceIds: readonly string[]): Promise<RefundView[]> {
  if (invoiceIds.length === 0) return []
  const rows = await db
    .select({
      id: refunds.id,
      paymentId: refunds.paymentId,
      status: refunds.status,
      amountJpy: refunds.amountJpy,
      reason: refunds.reason,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(inArray(payments.invoiceId, [...invoiceIds]))
    .orderBy(asc(refunds.createdAt))
  return refundLedger(rows)
}

/** What a payment or refund was for: the request or shipment, and the invoice. */
export type MoneyFor = {
  owner: { kind: 'request' | 'shipment'; id: string; number: string }
  invoice: { id: string; number: string; kind: 'purchase' | 'shipping' }
}

export type MoneyEntry =
  | ({
      kind: 'payment'
      id: string
      at: Date
      amountJpy: number
      method: 'manual' | 'paypal' | 'stripe' | 'balance'
      /** succeeded, or taken but not applied (held for review, a duplicate, refunded whole). */
      status: Exclude<PaymentStatus, 'pending' | 'failed'>
    } & MoneyFor)
  | ({ kind: 'refund'; at: Date } & RefundView & MoneyFor)

export type MoneyHistory = {
  entries: MoneyEntry[]
  /** Sums in yen: paid (money taken), sent back, and still on its way back. */
  totals: { paidJpy: number; refundedJpy: number; refundPendingJpy: number }
}

/** Payments that took money: pending and failed attempts took none. */
const TAKEN: readonly PaymentStatus[] = ['succeeded', 'held', 'duplicate', 'refunded']

/**
 * The signed-in user's own payments and refunds, newest first (a refund at the date it was sent,
 * or owed while on its way). Anyone signed in sees only their own; staff see theirs (none).
 * @throws AppError `unauthorized` without a user.
 */
export async function listMyMoney({ db, actor }: ServiceContext): Promise<MoneyHistory> {
  if (!actor) throw new AppError('unauthorized', 'Payments need a signed-in user')
  const rows = await db
    .select({
      paymentId: payments.id,
      provider: payments.provider,
      status: payments.status,
      amount: payments.amount,
      currency: payments.currency,
      requestedJpy: payments.requestedJpy,
      settledAt: payments.settledAt,
      createdAt: payments.createdAt,
      invoiceId: invoices.id,
      invoiceNumber: invoices.number,
      invoiceKind: invoices.kind,
      requestId: invoices.requestId,
      shipmentId: invoices.shipmentId,
      requestNumber: purchaseRequests.number,
      shipmentNumber: shipments.number,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .leftJoin(purchaseRequests, eq(purchaseRequests.id, invoices.requestId))
    .leftJoin(shipments, eq(shipments.id, invoices.shipmentId))
    .where(and(eq(invoices.userId, actor.id), inArray(payments.status, [...TAKEN])))
    .orderBy(desc(payments.createdAt))
    .limit(MONEY_HISTORY_LIMIT)
  const forOf = (row: (typeof rows)[number]): MoneyFor => ({
    owner: row.requestId
      ? { kind: 'request', id: row.requestId, number: row.requestNumber ?? '' }
      : { kind: 'shipment', id: row.shipmentId ?? '', number: row.shipmentNumber ?? '' },
    invoice: {
      id: row.invoiceId,
      number: row.invoiceNumber,
      kind: row.invoiceKind === 'shipping' ? 'shipping' : 'purchase',
    },
  })
  const entries: MoneyEntry[] = rows.map((row) => ({
    kind: 'payment',
    id: row.paymentId,
    at: row.settledAt ?? row.createdAt,
    amountJpy: row.currency === 'JPY' && row.amount !== null ? row.amount : row.requestedJpy,
    method:
      row.provider === 'paypal' || row.provider === 'stripe' || row.provider === 'balance'
        ? row.provider
        : 'manual',
    status: isPaymentStatus(row.status) && TAKEN.includes(row.status) ? (row.status as 'succeeded') : 'held',
    ...forOf(row),
  }))
  const refundViews = await refundsOfInvoices(db, [...new Set(rows.map((row) => row.invoiceId))])
  for (const refund of refundViews) {
    const row = rows.find((candidate) => candidate.paymentId === refund.paymentId)
    if (!row) continue
    entries.push({ ...refund, kind: 'refund', at: refund.sentAt ?? refund.owedAt, ...forOf(row) })
  }
  entries.sort(
    (a, b) => b.at.getTime() - a.at.getTime() || (a.kind === b.kind ? 0 : a.kind === 'refund' ? -1 : 1),
  )
  const paidJpy = entries
    .filter((entry) => entry.kind === 'payment')
    .reduce((sum, entry) => sum + entry.amountJpy, 0)
  const refundedJpy = refundViews.filter((r) => r.sentAt).reduce((sum, r) => sum + r.amountJpy, 0)
  const refundPendingJpy = refundViews.filter((r) => !r.sentAt).reduce((sum, r) => sum + r.amountJpy, 0)
  return { entries, totals: { paidJpy, refundedJpy, refundPendingJpy } }
}

/**
 * When the half refunded for a lost shipment was sent back in full (the latest of its refunds,
 * one per payment that paid for its items); null while any of it is on its way, or when nothing
 * was due. The caller has checked who may see the shipment.
 */
export async function lostParcelRefundSentAt(db: Executor, shipmentNumber: string): Promise<Date | null> {
  const owing = await db
    .selectDistinct({ paymentId: refunds.paymentId })
    .from(refunds)
    .where(and(eq(refunds.status, 'due'), like(refunds.reason, `lost parcel ${shipmentNumber}:%`)))
  if (owing.length === 0) return null
  const rows = await db
    .select({
      id: refunds.id,
      paymentId: refunds.paymentId,
      status: refunds.status,
      amountJpy: refunds.amountJpy,
      reason: refunds.reason,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .where(
      inArray(
        refunds.paymentId,
        owing.map((row) => row.paymentId),
      ),
    )
  const ofParcel = refundLedger(rows).filter(
    (refund) => refund.reason === 'lost_parcel' && refund.detail === shipmentNumber,
  )
  if (ofParcel.length === 0 || ofParcel.some((refund) => refund.sentAt === null)) return null
  return new Date(Math.max(...ofParcel.map((refund) => refund.sentAt?.getTime() ?? 0)))
}
