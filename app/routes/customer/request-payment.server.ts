import { data, type RouterContextProvider } from 'react-router'
import type { PaymentPanelData } from '#app/components/orders/payment-panel.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { toPublicError } from '#app/lib/http-errors.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { formatMoney } from '#core/money/money.ts'
import { startCheckout } from '#core/payments/payment-service.ts'
import { getPaymentPanel } from '#core/payments/payment-views.ts'
import type { PaymentOwner } from '#core/payments/settle-payment.ts'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { isAppError } from '#core/shared/errors.ts'

// The customer request page's payment part (app/components/orders/payment-panel.tsx): what the
// loader adds, and the action's `intent=pay`. Kept apart so the page's own file stays about the
// request.

type Context = Readonly<RouterContextProvider>

/** The panel's data for the page, with amounts and dates written out in the page's language. */
export async function loadPaymentPanel(context: Context, owner: PaymentOwner): Promise<PaymentPanelData> {
  const panel = await getPaymentPanel(getOrderContext(context), owner)
  const { language } = context.get(requestContext)
  const format = japanDateTime(language)
  return {
    invoice: panel.invoice
      ? {
          id: panel.invoice.id,
          number: panel.invoice.number,
          status: panel.invoice.status,
          version: panel.invoice.version,
        }
      : null,
    totalLabel: panel.invoice ? formatMoney(panel.invoice.totalJpy, 'JPY', language) : '',
    paidLabel: panel.invoice?.paidAt ? format(panel.invoice.paidAt) : null,
    providers: panel.providers,
    bankTransfer: panel.bankTransfer,
    underReview: panel.underReview,
    beingConfirmed: panel.beingConfirmed,
    paidWith: panel.paidWith,
    canPay: panel.canPay,
  }
}

/**
 * `intent=pay`: starts (or reuses) a checkout with the chosen provider and answers with its
 * page, which the panel links to and the browser then opens. A refusal is the panel's message,
 * with its status (a provider that is down: 502, nothing charged).
 */
export async function payAction(formData: FormData, context: Context) {
  const { language } = context.get(requestContext)
  try {
    const checkout = await startCheckout(
      getOrderContext(context),
      {
        invoiceId: String(formData.get('invoiceId') ?? ''),
        provider: String(formData.get('provider') ?? ''),
      },
      { locale: language },
    )
    return data({
      payment: { checkout: { payUrl: checkout.payUrl, provider: checkout.provider }, error: null },
    })
  } catch (caught) {
    const error = databaseUnavailableError(caught, { write: true }) ?? caught
    if (!isAppError(error)) throw error
    const failure = toPublicError(error)
    return data({ payment: { checkout: null, error: failure.messageKey } }, { status: failure.status })
  }
}
