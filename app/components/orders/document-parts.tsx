import type { TFunction } from 'i18next'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { InvoiceLineView } from '#core/billing/invoice-service.ts'
import type { PaymentOwner } from '#core/billing/payment-owner.ts'
import type { YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { YenAmount } from './yen-amount.tsx'

/**
 * The parts a receipt (receipt.tsx) and a credit note (credit-note.tsx) write the same way: who
 * issued it and to whom, their table of lines (each line's description, quantity, unit price, rate
 * and amount), and the rows of their totals.
 */

export function lineDescription(
  t: TFunction,
  line: Pick<InvoiceLineView, 'kind' | 'description'> & { quantity?: number },
): string {
  if (line.kind === 'service_fee') return t('receipt.lineServiceFee', { title: line.description })
  if (line.kind === 'domestic_shipping') return t('receipt.lineDomesticShipping', { title: line.description })
  if (line.kind === 'shipping') return t('receipt.lineShipping', { number: line.description })
  if (line.kind === 'storage_fee') {
    // Which item, and how many days past its free storage (docs/decisions/037).
    return line.quantity === undefined
      ? t('receipt.lineStorageFee', { title: line.description })
      : t('receipt.lineStorageFeeDays', { title: line.description, count: line.quantity })
  }
  return line.description
}

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

/** A table of lines under its heading; the rows are the document's (`LineRow`). */
export function LinesTable({
  headingId,
  heading,
  children,
}: {
  headingId: string
  heading: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {heading}
      </h2>
      <table className="mt-2 w-full border-collapse text-left text-sm sm:text-base print:text-sm">
        <LinesTableHead />
        <tbody>{children}</tbody>
      </table>
    </section>
  )
}

/** The columns of a table of lines; quantity, unit price and tax rate show from `sm` and in print. */
function LinesTableHead() {
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

/** One line; on narrow screens its quantity, unit price and rate show under its description. */
export function LineRow({
  line,
  rate,
  yen,
  detail,
  amount,
}: {
  line: Pick<InvoiceLineView, 'kind' | 'description' | 'quantity' | 'unitPriceJpy' | 'taxable'>
  /** The tax rate, written out. */
  rate: string
  yen: (amount: number) => string
  /** More about the line, under its description (a receipt's storage fee: its days and daily fee). */
  detail?: ReactNode
  /** The line's amount as the document writes it (a credit note's, taken back, negative). */
  amount: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <tr className="border-b border-slate-200 align-top">
      <td className="py-2 pr-3 break-words">
        <span className="block text-slate-900">{lineDescription(t, line)}</span>
        {detail}
        <span className="block text-sm text-slate-700 sm:hidden print:hidden">
          {t('receipt.quantityTimes', { quantity: line.quantity, price: yen(line.unitPriceJpy) })} ·{' '}
          {line.taxable ? rate : t('receipt.notTaxable')}
        </span>
      </td>
      <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell print:table-cell">
        {line.quantity}
      </td>
      <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell print:table-cell">
        {yen(line.unitPriceJpy)}
      </td>
      <td className="hidden py-2 pr-3 text-right sm:table-cell print:table-cell">
        {line.taxable ? rate : t('receipt.notTaxable')}
      </td>
      <td className="py-2 text-right tabular-nums">{amount}</td>
    </tr>
  )
}

/** The totals, set to the right under the lines (their heading for screen readers only), then their notes. */
export function TotalsSection({
  headingId,
  notes,
  children,
}: {
  headingId: string
  /** Under the amounts: how they were counted. */
  notes: ReactNode
  /** The rows (`TotalRow`, `GrandTotalRow`). */
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby={headingId} className="ml-auto max-w-md">
      <h2 id={headingId} className="sr-only">
        {t('receipt.totals')}
      </h2>
      <dl className="space-y-1">{children}</dl>
      {notes}
    </section>
  )
}

/** One row of the totals: what it is, and its amount. */
export function TotalRow({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-700">{label}</dt>
      <dd className="tabular-nums text-slate-900">{children}</dd>
    </div>
  )
}

/** The document's total in yen, and about how much in the reader's currency. */
export function GrandTotalRow({
  label,
  testId,
  amountJpy,
  rates,
  currency,
  language,
}: {
  label: string
  testId: string
  amountJpy: number
  /** The rates the document froze. */
  rates: YenRates
  currency: Currency
  language: Language
}) {
  return (
    <div className="flex justify-between gap-4 border-t-2 border-slate-300 pt-2 text-lg font-bold">
      <dt>{label}</dt>
      <dd data-testid={testId}>
        <YenAmount amountJpy={amountJpy} currency={currency} language={language} rates={rates} />
      </dd>
    </div>
  )
}
