import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { ReceiptImportEstimate } from '#app/components/landed-cost/receipt-import-estimate.tsx'
import { Receipt, receiptForPage } from '#app/components/orders/receipt.tsx'
import { refundsForPage } from '#app/components/orders/refund-list.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { getInvoice } from '#core/billing/invoice-service.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { countryName } from '#core/customers/countries.ts'
import { refundsOfInvoices } from '#core/payments/money-history.ts'
import { frozenEstimateOf } from '#core/shipping/import-estimate.ts'
import type { Route } from './+types/invoice.ts'

// The customer's electronic receipt of one of their invoices (someone else's: not found), in the
// page's language, printable.

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = getServiceContext(context)
  const invoice = await getInvoice(services, params.id)
  const { language, currency } = context.get(requestContext)
  // Its refunds: getInvoice has answered who may see it.
  const refunds = await refundsOfInvoices(services.db, [invoice.id])
  // The import estimate the receipt froze when issued (issue 30): shown, never charged.
  const frozen = invoice.kind === 'shipping' ? await frozenEstimateOf(services.db, invoice.id) : null
  const importEstimate = frozen ? { frozen, countryLabel: countryName(frozen.country, language) } : null
  return {
    invoice: receiptForPage(invoice, language),
    refunds: refundsForPage(refunds, language),
    importEstimate,
    language,
    currency,
    // The customer's menu marks the tab it belongs to: a quote is a request's, a receipt a shipment's.
    customerTab: invoice.owner.kind === 'shipment' ? ('shipping' as const) : ('history' as const),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function MyInvoiceRoute() {
  const { t } = useTranslation()
  const { invoice, refunds, language, currency, importEstimate } = useLoaderData<typeof loader>()
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
      {importEstimate ? (
        <ReceiptImportEstimate
          frozen={importEstimate.frozen}
          countryLabel={importEstimate.countryLabel}
          issuedLabel={invoice.issuedLabel}
          currency={currency}
          rates={invoice.yenRates}
          language={language}
        />
      ) : null}
    </>
  )
}
