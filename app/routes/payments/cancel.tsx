import { requestContext } from '#app/context.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { ownerOfPayment } from '#core/payments/payment-service.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Route } from './+types/cancel.ts'

// /payments/cancel/:provider?payment=<our payment id>: the customer left the provider's page
// without paying. Nothing changes (the checkout stays pending and is offered again on the next
// click, or closed by the reconciliation job): back to the request (or shipment) with a message.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db } = context.get(requestContext)
  const paymentId = new URL(request.url).searchParams.get('payment') ?? ''
  const owner = await ownerOfPayment(db, { provider: params.provider, paymentId })
  if (!owner) {
    throw new AppError('not_found', `Payment ${paymentId} not found`, { reason: 'paymentNotFound' })
  }
  return redirectWithNotice(context, ownerPaths(owner).customer, 'paymentCancelled', {
    headers: { 'Cache-Control': 'no-store' },
  })
}

// Never rendered (the loader redirects or throws); a component makes a refusal the site's page.
export default function PaymentCancelRoute() {
  return null
}
