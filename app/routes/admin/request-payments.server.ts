import { data, type RouterContextProvider } from 'react-router'
import type { StaffPaymentIntent, StaffPaymentsData } from '#app/components/orders/staff-payments.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { RefundToBalanceSchema } from '#core/balance/balance-schemas.ts'
import { refundToBalance } from '#core/balance/balance-service.ts'
import { ownerPaths, type PaymentOwner } from '#core/billing/payment-owner.ts'
import { formatMoney, formatReportedAmount } from '#core/money/money.ts'
import { canRecordPayment } from '#core/payments/payment-policy.ts'
import {
  DismissTransferSchema,
  MarkRefundDoneSchema,
  RecordManualPaymentSchema,
  RefundThroughProviderSchema,
  ResolveHeldPaymentSchema,
} from '#core/payments/payment-schemas.ts'
import { getPaymentPanel } from '#core/payments/payment-views.ts'
import {
  markRefundDone,
  recordManualPayment,
  refundThroughProvider,
  resolveHeldPayment,
} from '#core/payments/staff-payments.ts'
import { dismissTransferNotice } from '#core/payments/transfer-notices.ts'
import { AppError } from '#core/shared/errors.ts'

// The staff request and shipment pages' payments part (app/components/orders/staff-payments.tsx): what the
// loader adds, and the action's intents `record_payment` (a bank transfer), `refund_done`,
// `resolve_held` (accept or refund a held payment) and `dismiss_transfer` (a transfer the
// customer reported has not arrived, docs/decisions/036).

type Context = Readonly<RouterContextProvider>

export async function loadStaffPayments(context: Context, owner: PaymentOwner): Promise<StaffPaymentsData> {
  const panel = await getPaymentPanel(getOrderContext(context), owner)
  const { language } = context.get(requestContext)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const format = japanDateTime(language)
  return {
    invoice: panel.invoice
      ? {
          id: panel.invoice.id,
          number: panel.invoice.number,
          status: panel.invoice.status,
          version: panel.invoice.version,
          totalLabel: yen(panel.invoice.status === 'open' ? panel.invoice.dueJpy : panel.invoice.totalJpy),
          receipt: owner.kind === 'shipment',
        }
      : null,
    rows: (panel.payments ?? []).map((row) => ({
      id: row.id,
      version: row.version,
      invoiceNumber: row.invoiceNumber,
      provider: row.provider,
      status: row.status,
      askedLabel: yen(row.requestedJpy),
      // Once, with its currency ("JPY 18,719", not "JPY 18,719 JPY").
      reportedLabel:
        row.currency === null
          ? null
          : row.amount !== null
            ? formatReportedAmount(row.amount, row.currency, language)
            : `— ${row.currency}`,
      currency: row.currency,
      reference: row.captureRef ?? row.providerRef,
      note: row.note,
      recordedBy: row.recordedBy,
      dateLabel: format(row.settledAt ?? row.createdAt),
      refundDueLabel: row.refundDueJpy > 0 ? yen(row.refundDueJpy) : null,
      refundDoneLabel: row.refundDoneJpy > 0 ? yen(row.refundDoneJpy) : null,
      refundOutstanding: row.refundDueJpy > row.refundDoneJpy,
      outstandingLabel: yen(Math.max(0, row.refundDueJpy - row.refundDoneJpy)),
      // Through the provider's API: a PayPal or Stripe payment, its provider configured now.
      viaProvider:
        row.provider !== 'manual' &&
        row.provider !== 'balance' &&
        panel.providers.includes(row.provider) &&
        row.captureRef !== null,
    })),
    canRecord: panel.canRecord,
    canRefund: panel.canRefund,
    transfers: (panel.transfers ?? []).map((transfer) => ({
      id: transfer.id,
      version: transfer.version,
      invoiceNumber: transfer.invoiceNumber,
      status: transfer.status,
      note: transfer.note,
      proof: transfer.proofType
        ? {
            href: `/user-dashboard/transfer-proofs/${transfer.id}`,
            pdf: transfer.proofType === 'application/pdf',
          }
        : null,
      reportedLabel: format(transfer.createdAt),
      resolvedLabel: transfer.resolvedAt ? format(transfer.resolvedAt) : null,
      dismissReason: transfer.dismissReason,
    })),
    canDismissTransfer: panel.canDismissTransfer,
  }
}

/** Refused before reading the form: only admins touch money (the services check it again). */
function requireRecorder(context: Context) {
  if (!canRecordPayment(getOrderContext(context).actor)) {
    throw new AppError('forbidden', 'Only admins record payments', { reason: 'paymentAdminsOnly' })
  }
}

/** `record_payment`: an admin records a bank transfer; back to the page with a notice. */
async function recordPaymentAction(formData: FormData, context: Context, owner: PaymentOwner) {
  requireRecorder(context)
  const submission = parseSubmission(formData, { schema: RecordManualPaymentSchema })
  if (submission.status !== 'success') {
    return data(
      { intent: 'record_payment' as const, paymentId: null, result: submission.reply() },
      { status: 400 },
    )
  }
  try {
    await recordManualPayment(getOrderContext(context), submission.value)
  } catch (error) {
    return formFailure(error, submission, { intent: 'record_payment' as const, paymentId: null })
  }
  return redirectWithNotice(
    context,
    ownerPaths(owner).staff,
    owner.kind === 'shipment' ? 'shippingPaymentRecorded' : 'paymentRecorded',
  )
}

/** `refund_done`: an admin made the refund due on a payment. */
async function refundDoneAction(formData: FormData, context: Context, owner: PaymentOwner) {
  requireRecorder(context)
  const submission = parseSubmission(formData, { schema: MarkRefundDoneSchema })
  const paymentId = String(formData.get('paymentId') ?? '')
  if (submission.status !== 'success') {
    return data({ intent: 'refund_done' as const, paymentId, result: submission.reply() }, { status: 400 })
  }
  try {
    await markRefundDone(getOrderContext(context), submission.value)
  } catch (error) {
    return formFailure(error, submission, { intent: 'refund_done' as const, paymentId })
  }
  return redirectWithNotice(context, ownerPaths(owner).staff, 'refundMarked')
}

/** `refund_provider`: an admin gives back what is due through PayPal or Stripe (their API). */
async function refundProviderAction(formData: FormData, context: Context, owner: PaymentOwner) {
  requireRecorder(context)
  const submission = parseSubmission(formData, { schema: RefundThroughProviderSchema })
  const paymentId = String(formData.get('paymentId') ?? '')
  if (submission.status !== 'success') {
    return data(
      { intent: 'refund_provider' as const, paymentId, result: submission.reply() },
      { status: 400 },
    )
  }
  try {
    const refund = await refundThroughProvider(getOrderContext(context), submission.value)
    // Sent, or accepted by the provider and still on its way: each said as it is.
    return redirectWithNotice(
      context,
      ownerPaths(owner).staff,
      refund.status === 'succeeded' ? 'refundSent' : 'refundPending',
    )
  } catch (error) {
    return formFailure(error, submission, { intent: 'refund_provider' as const, paymentId })
  }
}

/** `resolve_held`: an admin accepts a held payment as the quote's, or refunds it whole. */
async function resolveHeldAction(formData: FormData, context: Context, owner: PaymentOwner) {
  requireRecorder(context)
  const submission = parseSubmission(formData, { schema: ResolveHeldPaymentSchema })
  const paymentId = String(formData.get('paymentId') ?? '')
  if (submission.status !== 'success') {
    return data({ intent: 'resolve_held' as const, paymentId, result: submission.reply() }, { status: 400 })
  }
  try {
    const resolved = await resolveHeldPayment(getOrderContext(context), submission.value)
    const accepted = owner.kind === 'shipment' ? 'heldShippingPaymentAccepted' : 'heldPaymentAccepted'
    return redirectWithNotice(
      context,
      ownerPaths(owner).staff,
      resolved.status === 'succeeded' ? accepted : 'heldPaymentRefunding',
    )
  } catch (error) {
    return formFailure(error, submission, { intent: 'resolve_held' as const, paymentId })
  }
}

/** `dismiss_transfer`: an admin looked for the transfer the customer reported and it has not arrived. */
async function dismissTransferAction(formData: FormData, context: Context, owner: PaymentOwner) {
  requireRecorder(context)
  const submission = parseSubmission(formData, { schema: DismissTransferSchema })
  const noticeId = String(formData.get('noticeId') ?? '')
  if (submission.status !== 'success') {
    return data(
      { intent: 'dismiss_transfer' as const, paymentId: noticeId, result: submission.reply() },
      { status: 400 },
    )
  }
  try {
    await dismissTransferNotice(getOrderContext(context), submission.value)
  } catch (error) {
    return formFailure(error, submission, { intent: 'dismiss_transfer' as const, paymentId: noticeId })
  }
  return redirectWithNotice(context, ownerPaths(owner).staff, 'transferDismissed')
}

/** `refund_balance`: an admin sends what is due on a payment to the customer's balance (docs/decisions/050). */
async function refundBalanceAction(formData: FormData, context: Context, owner: PaymentOwner) {
  requireRecorder(context)
  const submission = parseSubmission(formData, { schema: RefundToBalanceSchema })
  const paymentId = String(formData.get('paymentId') ?? '')
  try {
    await refundToBalance(getOrderContext(context), { paymentId })
  } catch (error) {
    return formFailure(error, submission, { intent: 'refund_balance' as const, paymentId })
  }
  return redirectWithNotice(context, ownerPaths(owner).staff, 'refundedToBalance')
}

/** One of the payments part's forms, by its `intent`, for the request or shipment `owner`. */
export function staffPaymentAction(
  intent: StaffPaymentIntent,
  formData: FormData,
  context: Context,
  owner: PaymentOwner,
) {
  switch (intent) {
    case 'record_payment':
      return recordPaymentAction(formData, context, owner)
    case 'refund_done':
      return refundDoneAction(formData, context, owner)
    case 'refund_provider':
      return refundProviderAction(formData, context, owner)
    case 'resolve_held':
      return resolveHeldAction(formData, context, owner)
    case 'dismiss_transfer':
      return dismissTransferAction(formData, context, owner)
    case 'refund_balance':
      return refundBalanceAction(formData, context, owner)
  }
}
