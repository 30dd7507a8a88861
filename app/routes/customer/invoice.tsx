import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { Receipt, receiptForPage } from '#app/components/orders/receipt.tsx'
import { refundsForPage } from '#app/components/orders/refund-list.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { getInvoice } from '#core/billing/invoice-service.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { refundsOfInvoices } from '#core/payments/money-history.ts'
import type { Route } from './+types/invoice.ts'

// The customer's electronic receipt of one of their invoices (someone else's: not found), in the
// page's language, printable.

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = getServiceContext(context)
  const invoice = await getInvoice(services, params.id)
  const { language, currency } = context.get(requestContext)
  // Its refunds: getInvoice has answered who may see it.
  const refunds = await refundsOfInvoices(services.db, [invoice.id])
  return {
    invoice: receiptForPage(invoice, language),
    refunds: refundsForPage(refunds, language),
    language,
    currency,
    // The customer's menu marks the tab it belongs to: a quote is a request's, a receipt a shipment's.
    customerTab: invoice.owner.kind === 'shipment' ? ('shipping' as const) : ('history' as const),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function MyInvoiceRoute() {
  const { t } = useTranslation()
  const { invoice, refunds, language, currency } = useLoaderData<typeof loader>()
  const title = t('receipt.invoiceTitle', { number: invoice.number })
  return (
    <>
      <PageMeta title={title} description={title} />
      <Receipt
        invoice={invoice}
        refunds={refunds}
        language={language}
        currency={currency}
        creditNoteBase="/user-dashboard/credit-notes"
        backLink={
          <Link to={ownerPaths(invoice.owner).customer} className="font-semibold text-red-800 underline">
            {invoice.owner.kind === 'shipment'
              ? t('receipt.backToShipment', { number: invoice.ownerNumber })
              : t('receipt.backToRequest', { number: invoice.ownerNumber })}
          </Link>
        }
      />
    </>
  )
}
