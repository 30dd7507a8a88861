import { and, desc, eq, inArray } from 'drizzle-orm'
import { balanceAppliedSql } from '#core/balance-ledger/ledger.ts'
import type { PaymentOwner } from '#core/billing/payment-owner.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import type { Settings } from '#core/settings/settings-schema.ts'
import { actorKindFor } from '#core/shared/actor-kind.ts'
import { AppError } from '#core/shared/errors.ts'
import { isUuid } from '#core/shared/ids.ts'
import type { Executor } from '#db/client.ts'
import {
  addresses,
  invoices,
  payments,
  purchaseRequests,
  refunds,
  shipments,
  users,
} from '#db/schema/index.ts'
import { isPaymentStatus, type PaymentStatus } from './payment-machine.ts'
import { canRecordPayment } from './payment-policy.ts'
import { isBeingConfirmed, isOpenVoucher } from './payment-service.ts'
import type { ProviderName } from './provider.ts'
import { shipmentAwaitsReceipt } from './settle-payment.ts'
import { type TransferNoticeView, transferNoticesOf } from './transfer-notices.ts'

/**
 * What the request and shipment pages show about paying: for the customer, the quote to pay and how
 * (the configured providers, or the bank-transfer details from the settings); for staff, every
 * payment of every invoice of the request with its refunds, and whether they may record one.
 */

export type PaymentMethod = ProviderName | 'manual' | 'balance'

export type InvoiceToPay = {
  id: string
  number: string
  status: 'open' | 'paid' | 'void' | 'expired'
  totalJpy: number
  /** Carried over from a paid receipt this one replaced (docs/decisions/037); 0 on most. */
  creditAppliedJpy: number
  /** The part paid from the customer's balance (docs/decisions/050). */
  balanceAppliedJpy: number
  /** What is left to pay: total − credit. */
  dueJpy: number
  dueAt: Date
  paidAt: Date | null
  version: number
}

export type StaffPaymentRow = {
  id: string
  invoiceNumber: string
  provider: PaymentMethod
  status: PaymentStatus
  requestedJpy: number
  amount: number | null
  currency: string | null
  providerRef: string | null
  captureRef: string | null
  note: string | null
  recordedBy: string | null
  createdAt: Date
  settledAt: Date | null
  version: number
  refundDueJpy: number
  refundDoneJpy: number
}

export type PaymentPanel = {
  /** The request's current purchase invoice: the open one, else the paid one, else the newest. */
  invoice: InvoiceToPay | null
  /** Providers the customer may choose; empty: bank transfer only. */
  providers: ProviderName[]
  bankTransfer: Settings['bankTransfer']
  /** A payment of this invoice is held for review: the customer is not asked to pay again. */
  underReview: boolean
  /**
   * The customer came back from the provider's page and the payment is not settled yet (a moment,
   * or a crash between the provider taking it and our record): not asked to pay again either.
   */
  beingConfirmed: boolean
  /** How the invoice was paid, once it is. */
  paidWith: PaymentMethod | null
  /** The customer may pay now (their open quote, no payment under review). */
  canPay: boolean
  /** Staff only (null for the customer): every payment of the request, newest first. */
  payments: StaffPaymentRow[] | null
  /** An admin, and an open invoice whose request waits for payment. */
  canRecord: boolean
  /** An admin: may say a refund due was made. */
  canRefund: boolean
  /**
   * The customer said they paid the current invoice by bank transfer and staff have not decided
   * yet (docs/decisions/036): the page says it is being checked, and nothing else is asked.
   */
  transferReported: { id: string; at: Date; proofType: 'image/webp' | 'application/pdf' | null } | null
  /** The last transfer they reported for it was not found (and none is pending): why. */
  transferDismissed: { at: Date; reason: string } | null
  /** The customer may say "I have paid" now: an open invoice they may pay, no notice pending. */
  canReportTransfer: boolean
  /** Staff only (null for the customer): every transfer notice of the request's invoices, newest first. */
  transfers: TransferNoticeView[] | null
  /**
   * A voucher (OXXO, SPEI, PagoEfectivo, PIX) issued for the open invoice and still payable
   * (docs/decisions/051): shown instead of the ways to pay, until it is paid or expires.
   */
  voucher: PanelVoucher | null
  /** The country of the customer's default address, for the local methods offered (null: none). */
  customerCountry: string | null
  /** An admin: may say a reported transfer has not arrived. */
  canDismissTransfer: boolean
}

export type PanelVoucher = {
  method: string
  reference: string
  barcode: string | null
  url: string | null
  expiresAt: Date | null
  localCurrency: string | null
  localAmount: number | null
}

const INVOICE_ORDER = { open: 0, paid: 1, expired: 2, void: 3 } as const

/**
 * The payment panel of one request (its purchase quote) or shipment (its shipping receipt), for
 * its owner or staff; anyone else gets `not_found`, as for one that does not exist.
 */
export async function getPaymentPanel(ctx: OrderContext, owner: PaymentOwner): Promise<PaymentPanel> {
  const notFound = () =>
    owner.kind === 'request'
      ? new AppError('not_found', `Purchase request ${owner.id} not found`, { reason: 'requestNotFound' })
      : new AppError('not_found', `Shipment ${owner.id} not found`, { reason: 'shipmentNotFound' })
  if (!ctx.actor) throw new AppError('unauthorized', 'Payments need a signed-in user')
  if (!isUuid(owner.id)) throw notFound()
  const found = await readOwner(ctx.db, owner)
  const kind = found ? actorKindFor(ctx.actor, found) : null
  if (!found || !kind) throw notFound()

  const invoiceRows = await readInvoices(ctx.db, owner)
  const invoice = currentInvoice(invoiceRows)

  const staff = kind === 'staff'
  const invoiceIds = invoiceRows.map((row) => row.id)
  const rows = invoiceIds.length ? await readPayments(ctx.db, invoiceIds) : []
  const refundRows =
    staff && rows.length
      ? await readRefunds(
          ctx.db,
          rows.map((row) => row.id),
        )
      : []
  const ofInvoice = rows.filter((row) => row.invoiceId === invoice?.id)
  const notices = await transferNoticesOf(ctx.db, invoiceIds)
  const noticesOfInvoice = notices.filter((notice) => notice.invoiceId === invoice?.id)
  const pendingNotice = noticesOfInvoice.find((notice) => notice.status === 'pending') ?? null
  const lastNotice = noticesOfInvoice[0] ?? null
  const underReview = ofInvoice.some((row) => row.status === 'held')
  const voucherRow = kind === 'customer' ? ofInvoice.find((row) => isOpenVoucher(row)) : undefined
  const voucher: PanelVoucher | null =
    voucherRow?.voucherReference && invoice?.status === 'open'
      ? {
          method: voucherRow.method ?? '',
          reference: voucherRow.voucherReference,
          barcode: voucherRow.voucherBarcode,
          url: voucherRow.voucherUrl,
          expiresAt: voucherRow.expiresAt,
          localCurrency: voucherRow.localCurrency,
          localAmount: voucherRow.localAmount,
        }
      : null
  const beingConfirmed = !underReview && ofInvoice.some((row) => isBeingConfirmed(row))
  const paidWith = (ofInvoice.find((row) => row.status === 'succeeded' && row.provider !== 'balance')
    ?.provider ??
    ofInvoice.find((row) => row.status === 'succeeded')?.provider ??
    null) as PaymentMethod | null
  const payable =
    invoice?.status === 'open' &&
    (owner.kind === 'request'
      ? found.status === 'quoted'
      : shipmentAwaitsReceipt(found.status, invoice.creditAppliedJpy))
  const { bankTransfer } = await ctx.settings.get()
  const sum = (paymentId: string, status: 'due' | 'done') =>
    refundRows
      .filter((row) => row.paymentId === paymentId && row.status === status)
      .reduce((total, row) => total + row.amountJpy, 0)
  return {
    invoice,
    providers: ctx.payments.map((provider) => provider.name),
    bankTransfer,
    underReview,
    beingConfirmed,
    paidWith,
    canPay: kind === 'customer' && payable && !underReview && !beingConfirmed && !pendingNotice && !voucher,
    payments: staff
      ? rows.map(({ invoiceId, returnedAt: _returnedAt, ...row }) => ({
          ...row,
          invoiceNumber: invoiceRows.find((candidate) => candidate.id === invoiceId)?.number ?? '',
          provider: row.provider as PaymentMethod,
          status: isPaymentStatus(row.status) ? row.status : 'pending',
          refundDueJpy: sum(row.id, 'due'),
          refundDoneJpy: sum(row.id, 'done'),
        }))
      : null,
    canRecord: staff && canRecordPayment(ctx.actor) && payable,
    canRefund: staff && canRecordPayment(ctx.actor),
    transferReported: pendingNotice
      ? { id: pendingNotice.id, at: pendingNotice.createdAt, proofType: pendingNotice.proofType }
      : null,
    transferDismissed:
      !pendingNotice && lastNotice?.status === 'dismissed' && lastNotice.resolvedAt
        ? { at: lastNotice.resolvedAt, reason: lastNotice.dismissReason ?? '' }
        : null,
    canReportTransfer:
      kind === 'customer' && payable && !underReview && !beingConfirmed && !pendingNotice && !voucher,
    transfers: staff ? notices : null,
    voucher,
    customerCountry: kind === 'customer' ? await defaultCountry(ctx.db, found.userId) : null,
    canDismissTransfer: staff && canRecordPayment(ctx.actor),
  }
}

/** The country of the customer's default address (or of their only one), if any. */
async function defaultCountry(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ country: addresses.country })
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isDefault), desc(addresses.createdAt))
    .limit(1)
  return row?.country ?? null
}

/** The request's or shipment's owner and status, if it exists. */
async function readOwner(db: Executor, owner: PaymentOwner) {
  const [found] =
    owner.kind === 'request'
      ? await db
          .select({ userId: purchaseRequests.userId, status: purchaseRequests.status })
          .from(purchaseRequests)
          .where(eq(purchaseRequests.id, owner.id))
      : await db
          .select({ userId: shipments.userId, status: shipments.status })
          .from(shipments)
          .where(eq(shipments.id, owner.id))
  return found
}

/** The invoices of the request (its purchase quotes) or shipment (its receipts), newest first. */
function readInvoices(db: Executor, owner: PaymentOwner) {
  return db
    .select({
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      totalJpy: invoices.totalJpy,
      creditAppliedJpy: invoices.creditAppliedJpy,
      // Paid from the customer's balance so far (docs/decisions/050).
      balanceAppliedJpy: balanceAppliedSql(),
      dueAt: invoices.dueAt,
      paidAt: invoices.paidAt,
      version: invoices.version,
      issuedAt: invoices.issuedAt,
    })
    .from(invoices)
    .where(
      owner.kind === 'request'
        ? and(eq(invoices.requestId, owner.id), eq(invoices.kind, 'purchase'))
        : eq(invoices.shipmentId, owner.id),
    )
    .orderBy(desc(invoices.issuedAt))
}

/** The current invoice of those read: the open one, else the paid one, else the newest. */
function currentInvoice(invoiceRows: Awaited<ReturnType<typeof readInvoices>>): InvoiceToPay | null {
  const current =
    [...invoiceRows].sort(
      (a, b) =>
        (INVOICE_ORDER[a.status as keyof typeof INVOICE_ORDER] ?? 9) -
        (INVOICE_ORDER[b.status as keyof typeof INVOICE_ORDER] ?? 9),
    )[0] ?? null
  return current
    ? {
        id: current.id,
        number: current.number,
        status: current.status as InvoiceToPay['status'],
        totalJpy: current.totalJpy,
        creditAppliedJpy: current.creditAppliedJpy,
        balanceAppliedJpy: Number(current.balanceAppliedJpy),
        dueJpy: current.totalJpy - current.creditAppliedJpy - Number(current.balanceAppliedJpy),
        dueAt: current.dueAt,
        paidAt: current.paidAt,
        version: current.version,
      }
    : null
}

/** Every payment of the invoices, with who recorded it, newest first. */
function readPayments(db: Executor, invoiceIds: string[]) {
  return db
    .select({
      id: payments.id,
      invoiceId: payments.invoiceId,
      provider: payments.provider,
      status: payments.status,
      requestedJpy: payments.requestedJpy,
      amount: payments.amount,
      currency: payments.currency,
      providerRef: payments.providerRef,
      captureRef: payments.captureRef,
      note: payments.note,
      recordedBy: users.name,
      createdAt: payments.createdAt,
      settledAt: payments.settledAt,
      returnedAt: payments.returnedAt,
      version: payments.version,
      method: payments.method,
      localCurrency: payments.localCurrency,
      localAmount: payments.localAmount,
      voucherReference: payments.voucherReference,
      voucherBarcode: payments.voucherBarcode,
      voucherUrl: payments.voucherUrl,
      expiresAt: payments.expiresAt,
    })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.recordedBy))
    .where(inArray(payments.invoiceId, invoiceIds))
    .orderBy(desc(payments.createdAt))
}

/** The refunds of the payments: which payment, due or done, how much. */
function readRefunds(db: Executor, paymentIds: string[]) {
  return db
    .select({ paymentId: refunds.paymentId, status: refunds.status, amountJpy: refunds.amountJpy })
    .from(refunds)
    .where(inArray(refunds.paymentId, paymentIds))
}
