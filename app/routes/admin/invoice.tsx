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

// Staff's view of one invoice's electronic receipt, as its customer sees it (in the page's
// language), printable.

export async function loader({ params, context }: Route.LoaderArgs) {
  const services = getServiceContext(context)
  const invoice = await getInvoice(services, params.id)
  const { language } = context.get(requestContext)
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
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function StaffInvoiceRoute() {
  const { t } = useTranslation()
  const { invoice, refunds, language, importEstimate } = useLoaderData<typeof loader>()
  const title = t('receipt.invoiceTitle', { number: invoice.number })
  return (
    <>
      <PageMeta title={title} description={title} />
      <Receipt
        invoice={invoice}
        refunds={refunds}
        language={language}
        currency="JPY"
        creditNoteBase="/admin-dashboard/credit-notes"
        backLink={
          <Link to={ownerPaths(invoice.owner).staff} className="font-semibold text-red-800 underline">
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
          currency="JPY"
          rates={invoice.yenRates}
          language={language}
        />
      ) : null}
    </>
  )
}
