import { data, type RouterContextProvider } from 'react-router'
import type { PaymentPanelData } from '#app/components/orders/payment-panel.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { readForm } from '#app/lib/form-data.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure, refusalOf } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { PayFromBalanceSchema } from '#core/balance/balance-schemas.ts'
import { payFromBalance } from '#core/balance/balance-service.ts'
import { balanceOf } from '#core/balance-ledger/ledger.ts'
import { ownerPaths, type PaymentOwner } from '#core/billing/payment-owner.ts'
import { countryName } from '#core/customers/countries.ts'
import { formatMoney } from '#core/money/money.ts'
import {
  formatLocal,
  isLocalCountry,
  LOCAL_COUNTRIES,
  LOCAL_METHOD_LABELS,
  type LocalMethodId,
  localMethodsFor,
} from '#core/payments/local-methods.ts'
import { ReportTransferSchema, TRANSFER_FORM_BODY_BYTES } from '#core/payments/payment-schemas.ts'
import { startCheckout } from '#core/payments/payment-service.ts'
import { getPaymentPanel } from '#core/payments/payment-views.ts'
import { reportTransfer } from '#core/payments/transfer-notices.ts'

// The customer request and shipment pages' payment part (app/components/orders/payment-panel.tsx):
// what the loader adds, the action's `intent=pay`, and "I have paid" (`intent=report_transfer`,
// a multipart form with its optional proof: docs/decisions/036). Kept apart so the page's own
// file stays about the request.

type Context = Readonly<RouterContextProvider>

/** The panel's data for the page, with amounts and dates written out in the page's language. */
export async function loadPaymentPanel(
  context: Context,
  owner: PaymentOwner,
  search: URLSearchParams = new URLSearchParams(),
): Promise<PaymentPanelData> {
  const panel = await getPaymentPanel(getOrderContext(context), owner)
  const { language } = context.get(requestContext)
  const format = japanDateTime(language)
  // Local methods (dLocal, docs/decisions/051): the country chosen on the panel (?payCountry=),
  // else the default address's; the methods offered there.
  const localOn = panel.providers.includes('dlocal')
  const asked = search.get('payCountry')
  const country = isLocalCountry(asked)
    ? asked
    : isLocalCountry(panel.customerCountry)
      ? panel.customerCountry
      : null
  const { voucher } = panel
  return {
    local: localOn
      ? {
          country,
          asked: asked !== null,
          countries: LOCAL_COUNTRIES.map((code) => ({ code, name: countryName(code, language) })).sort(
            (a, b) => a.name.localeCompare(b.name, language),
          ),
          methods: localMethodsFor(country).map((method) => method.id),
        }
      : null,
    voucher: voucher
      ? {
          method: LOCAL_METHOD_LABELS[voucher.method as LocalMethodId] ?? voucher.method,
          reference: voucher.reference,
          barcode: voucher.barcode,
          url: voucher.url,
          payByLabel: voucher.expiresAt ? format(voucher.expiresAt) : null,
          amountLabel:
            voucher.localCurrency && voucher.localAmount
              ? formatLocal(voucher.localAmount, voucher.localCurrency, language)
              : null,
        }
      : null,
    invoice: panel.invoice
      ? {
          id: panel.invoice.id,
          number: panel.invoice.number,
          status: panel.invoice.status,
          version: panel.invoice.version,
        }
      : null,
    // What this invoice asks: its total, less any credit carried over from a paid receipt it
    // replaced (docs/decisions/037), so the figure beside the pay buttons is what is charged.
    totalLabel: panel.invoice
      ? formatMoney(
          panel.invoice.status === 'open' ? panel.invoice.dueJpy : panel.invoice.totalJpy,
          'JPY',
          language,
        )
      : '',
    paidLabel: panel.invoice?.paidAt ? format(panel.invoice.paidAt) : null,
    providers: panel.providers.filter((provider) => provider !== 'dlocal'),
    bankTransfer: panel.bankTransfer,
    underReview: panel.underReview,
    beingConfirmed: panel.beingConfirmed,
    paidWith: panel.paidWith,
    canPay: panel.canPay,
    canReportTransfer: panel.canReportTransfer,
    transferReported: panel.transferReported
      ? {
          atLabel: format(panel.transferReported.at),
          proofHref: panel.transferReported.proofType
            ? `/user-dashboard/transfer-proofs/${panel.transferReported.id}`
            : null,
        }
      : null,
    transferDismissed: panel.transferDismissed
      ? { atLabel: format(panel.transferDismissed.at), reason: panel.transferDismissed.reason }
      : null,
    balance: await balancePart(context, panel),
  }
}

/** The customer's balance beside an open invoice they may pay now, and what of it the balance paid. */
async function balancePart(context: Context, panel: Awaited<ReturnType<typeof getPaymentPanel>>) {
  const { language } = context.get(requestContext)
  const ctx = getOrderContext(context)
  const applied = panel.invoice?.status === 'open' ? panel.invoice.balanceAppliedJpy : 0
  const available =
    ctx.actor?.role === 'user' && panel.invoice?.status === 'open' && panel.canPay
      ? await balanceOf(ctx.db, ctx.actor.id)
      : 0
  return {
    availableLabel: available > 0 ? formatMoney(available, 'JPY', language) : null,
    appliedLabel: applied > 0 ? formatMoney(applied, 'JPY', language) : null,
  }
}

/**
 * `intent=pay_balance`: the customer pays the open invoice from their balance, whole or in part
 * (docs/decisions/050). Back to the page with a notice (paid, or what is left to pay); a refusal
 * is the panel's message with its status, and nothing is taken.
 */
export async function payFromBalanceAction(formData: FormData, context: Context, owner: PaymentOwner) {
  const { language } = context.get(requestContext)
  const input = {
    invoiceId: String(formData.get('invoiceId') ?? ''),
    amountJpy: String(formData.get('amountJpy') ?? ''),
  }
  const parsed = PayFromBalanceSchema.safeParse(input)
  if (!parsed.success) {
    const amountIssue = parsed.error.issues.find((issue) => issue.path[0] === 'amountJpy')
    if (amountIssue) {
      return data(
        { payment: { checkout: null, error: `balance.errors.${amountIssue.message}` } },
        { status: 400 },
      )
    }
  }
  try {
    const paid = await payFromBalance(getOrderContext(context), input)
    const yen = (amount: number) => formatMoney(amount, 'JPY', language)
    return redirectWithNotice(
      context,
      ownerPaths(owner).customer,
      paid.paid
        ? 'balancePaid'
        : { name: 'balancePartPaid', params: { amount: yen(paid.amountJpy), due: yen(paid.dueJpy) } },
    )
  } catch (caught) {
    const refusal = refusalOf(caught)
    return data({ payment: { checkout: null, error: refusal.messageKey } }, refusal.init)
  }
}

/**
 * Reads the page's post: a multipart form with a file ("I have paid", its proof) or a plain one,
 * within the proof's limit. A body over it, or not a form, reads as an empty form with its problem.
 */
export async function readPaymentForm(request: Request) {
  const read = await readForm(request, { maxFiles: 1, maxBytes: TRANSFER_FORM_BODY_BYTES })
  return read.ok
    ? { formData: read.formData, problem: null }
    : { formData: new FormData(), problem: read.problem }
}

/**
 * `intent=report_transfer`: the customer says they paid by bank transfer, with an optional proof
 * and note. Back to the page, which then says it is being checked; a refusal is the form's
 * (field errors on `proof` and `note`) with its status. Never a payment (the service's rule).
 */
export async function reportTransferAction(
  formData: FormData,
  context: Context,
  owner: PaymentOwner,
  problem: 'tooLarge' | 'malformed' | null,
) {
  if (problem === 'tooLarge') {
    const result = parseSubmission(new FormData(), { schema: ReportTransferSchema }).reply({
      formErrors: ['errors.reasons.transferInvalid'],
      fieldErrors: { proof: ['proofTooLarge'] },
    })
    return data({ intent: 'report_transfer' as const, result }, { status: 413 })
  }
  const submission = parseSubmission(formData, { schema: ReportTransferSchema })
  if (submission.status !== 'success') {
    return data({ intent: 'report_transfer' as const, result: submission.reply() }, { status: 400 })
  }
  const proof = formData.get('proof')
  try {
    await reportTransfer(getOrderContext(context), submission.value, proof instanceof Blob ? proof : null)
  } catch (error) {
    return formFailure(error, submission, { intent: 'report_transfer' as const })
  }
  return redirectWithNotice(context, ownerPaths(owner).customer, 'transferReported')
}

/**
 * `intent=pay`: starts (or reuses) a checkout with the chosen provider and answers with its
 * page, which the panel links to and the browser then opens. A refusal is the panel's message,
 * with its status (a provider that is down: 502, nothing charged).
 */
export async function payAction(formData: FormData, context: Context, owner?: PaymentOwner) {
  const { language } = context.get(requestContext)
  try {
    const text = (name: string) => {
      const value = formData.get(name)
      return typeof value === 'string' ? value.slice(0, 40) : null
    }
    const checkout = await startCheckout(
      getOrderContext(context),
      {
        invoiceId: String(formData.get('invoiceId') ?? ''),
        provider: String(formData.get('provider') ?? ''),
        country: text('country'),
        method: text('method'),
      },
      { locale: language },
    )
    // A voucher (OXXO, SPEI, PIX…): back to the page, which now shows it (docs/decisions/051).
    if (checkout.voucher && owner)
      return redirectWithNotice(context, ownerPaths(owner).customer, 'voucherIssued')
    return data({
      payment: { checkout: { payUrl: checkout.payUrl, provider: checkout.provider }, error: null },
    })
  } catch (caught) {
    const refusal = refusalOf(caught)
    return data({ payment: { checkout: null, error: refusal.messageKey } }, refusal.init)
  }
}
