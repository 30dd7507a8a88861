import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { CreditNoteDocument, creditNoteForPage } from '#app/components/orders/credit-note.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { getCreditNote } from '#core/billing/credit-notes.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import type { Route } from './+types/credit-note.ts'

// Staff's view of one credit note, as its customer sees it (in the page's language),
// printable (docs/decisions/037).

export async function loader({ params, context }: Route.LoaderArgs) {
  const note = await getCreditNote(getServiceContext(context), params.id)
  const { language } = context.get(requestContext)
  return { note: creditNoteForPage(note, language), language }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function StaffCreditNoteRoute() {
  const { t } = useTranslation()
  const { note, language } = useLoaderData<typeof loader>()
  const title = t('creditNote.title', { number: note.number })
  return (
    <>
      <PageMeta title={title} description={title} />
      <CreditNoteDocument
        note={note}
        language={language}
        currency="JPY"
        invoiceBase="/admin-dashboard/invoices"
        backLink={
          <Link to={ownerPaths(note.owner).staff} className="font-semibold text-red-800 underline">
            {note.owner.kind === 'shipment'
              ? t('receipt.backToShipment', { number: note.ownerNumber })
              : t('receipt.backToRequest', { number: note.ownerNumber })}
          </Link>
        }
      />
    </>
  )
}
