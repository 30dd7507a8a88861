import { useTranslation } from 'react-i18next'
import type { PaymentOwner } from '#core/billing/payment-owner.ts'

/**
 * The parts a receipt (receipt.tsx) and a credit note (credit-note.tsx) write the same way: who
 * issued it and to whom, and the head of their table of lines.
 */

/** The issuer (name, address, e-mail, registration number) and the recipient with what it is for. */
export function DocumentParties({
  idPrefix,
  document,
}: {
  /** Before each heading's id: the receipt's are `issuer-heading`, the credit note's `cn-issuer-heading`. */
  idPrefix: '' | 'cn-'
  document: {
    issuer: { name: string; address: string; email: string; taxRegistrationId: string }
    recipient: { name: string; email: string }
    owner: PaymentOwner
    ownerNumber: string
  }
}) {
  const { t } = useTranslation()
  return (
    <div className="grid gap-6 sm:grid-cols-2 print:grid-cols-2">
      <section aria-labelledby={`${idPrefix}issuer-heading`}>
        <h2 id={`${idPrefix}issuer-heading`} className="text-lg font-semibold text-slate-900">
          {t('receipt.issuer')}
        </h2>
        <address className="mt-1 not-italic text-slate-800">
          <span className="block font-semibold">{document.issuer.name}</span>
          <span className="block whitespace-pre-line">{document.issuer.address}</span>
          <span className="block break-all">{document.issuer.email}</span>
          <span className="block">
            {t('receipt.registration', { id: document.issuer.taxRegistrationId })}
          </span>
        </address>
      </section>
      <section aria-labelledby={`${idPrefix}recipient-heading`}>
        <h2 id={`${idPrefix}recipient-heading`} className="text-lg font-semibold text-slate-900">
          {t('receipt.recipient')}
        </h2>
        <p className="mt-1 text-slate-800">
          <span className="block font-semibold">
            {t('receipt.recipientName', { name: document.recipient.name })}
          </span>
          <span className="block break-all">{document.recipient.email}</span>
          <span className="block">
            {document.owner.kind === 'shipment'
              ? t('receipt.shipment', { number: document.ownerNumber })
              : t('receipt.request', { number: document.ownerNumber })}
          </span>
        </p>
      </section>
    </div>
  )
}

/** The columns of a table of lines; quantity, unit price and tax rate show from `sm` and in print. */
export function LinesTableHead() {
  const { t } = useTranslation()
  return (
    <thead>
      <tr className="border-b-2 border-slate-300">
        <th scope="col" className="py-2 pr-3 font-semibold">
          {t('receipt.description')}
        </th>
        <th scope="col" className="hidden py-2 pr-3 text-right font-semibold sm:table-cell print:table-cell">
          {t('receipt.quantity')}
        </th>
        <th scope="col" className="hidden py-2 pr-3 text-right font-semibold sm:table-cell print:table-cell">
          {t('receipt.unitPrice')}
        </th>
        <th scope="col" className="hidden py-2 pr-3 text-right font-semibold sm:table-cell print:table-cell">
          {t('receipt.taxRate')}
        </th>
        <th scope="col" className="py-2 text-right font-semibold">
          {t('receipt.amount')}
        </th>
      </tr>
    </thead>
  )
}
