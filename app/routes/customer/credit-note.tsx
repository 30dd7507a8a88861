import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { CreditNoteDocument, creditNoteForPage } from '#app/components/orders/credit-note.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { getCreditNote } from '#core/billing/credit-notes.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import type { Route } from './+types/credit-note.ts'

// One of the customer's credit notes (someone else's: not found), in the page's language,
// printable (docs/decisions/037).

export async function loader({ params, context }: Route.LoaderArgs) {
  const note = await getCreditNote(getServiceContext(context), params.id)
  const { language, currency } = context.get(requestContext)
  return { note: creditNoteForPage(note, language), language, currency }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function MyCreditNoteRoute() {
  const { t } = useTranslation()
  const { note, language, currency } = useLoaderData<typeof loader>()
  const title = t('creditNote.title', { number: note.number })
  return (
    <>
      <PageMeta title={title} description={title} />
      <CreditNoteDocument
        note={note}
        language={language}
        currency={currency}
        invoiceBase="/user-dashboard/invoices"
        backLink={
          <Link to={ownerPaths(note.owner).customer} className="font-semibold text-red-800 underline">
            {note.owner.kind === 'shipment'
              ? t('receipt.backToShipment', { number: note.ownerNumber })
              : t('receipt.backToRequest', { number: note.ownerNumber })}
          </Link>
        }
      />
    </>
  )
}
