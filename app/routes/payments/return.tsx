import { requestContext } from '#app/context.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { paymentReturnNotice } from '#app/lib/notice.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { confirmReturn } from '#core/payments/payment-service.ts'
import type { Route } from './+types/return.ts'

// /payments/return/:provider?payment=<our payment id>: where PayPal and Stripe send the customer
// after paying. The provider is asked about the checkout stored on our payment (never what the
// query says: PayPal's token, Stripe's session id) and its answer settled, idempotently, as a
// webhook would be (core/payments/payment-service.ts `confirmReturn`); then back to the request
// (or the shipment) with the message for what happened (app/lib/notice.ts). No session needed: the provider is the authority, the page says nothing about
// the payment, and the request page it leads to is the owner's only. An unknown payment: 404.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, orders, log } = context.get(requestContext)
  const paymentId = new URL(request.url).searchParams.get('payment') ?? ''
  const back = await confirmReturn({ db, ...orders }, { provider: params.provider, paymentId })
  // Money staff must look at: the same warning as a webhook's (server/payment-webhooks.ts).
  if (back.status === 'held' || back.status === 'duplicate') {
    log.warn(
      { provider: params.provider, paymentId, result: back.status },
      `payment ${back.status === 'held' ? 'held for staff review' : 'paid twice: refund due'}`,
    )
  }
  return redirectWithNotice(
    context,
    ownerPaths(back.owner).customer,
    paymentReturnNotice(back.status, back.owner.kind),
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

// Never rendered (the loader redirects or throws); a component makes a refusal the site's page.
export default function PaymentReturnRoute() {
  return null
}
