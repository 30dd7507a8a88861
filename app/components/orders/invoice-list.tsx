import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { InvoiceStatus } from '#core/billing/invoice-machine.ts'
import { formatMoney } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { InvoiceStatusBadge } from './invoice-status-badge.tsx'

export type InvoiceListRow = {
  id: string
  number: string
  status: InvoiceStatus
  totalJpy: number
  issuedLabel: string
}

/**
 * A request's invoices, newest first, each linking to its receipt: open, paid, void (replaced or
 * cancelled) or expired, said in words. For the customer's and the staff's request pages.
 */
export function InvoiceList({
  heading,
  invoices,
  hrefOf,
  language,
}: {
  heading: string
  invoices: readonly InvoiceListRow[]
  hrefOf: (id: string) => string
  language: Language
}) {
  const { t } = useTranslation()
  if (invoices.length === 0) return null
  return (
    <section aria-labelledby="invoices-heading">
      <h2 id="invoices-heading" className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {invoices.map((invoice) => (
          <li
            key={invoice.id}
            data-testid="invoice-row"
            className="flex flex-wrap items-center gap-x-4 gap-y-1 p-3"
          >
            <Link
              to={hrefOf(invoice.id)}
              className={`font-semibold text-red-800 underline ${invoice.status === 'void' ? 'line-through' : ''}`}
            >
              {t('receipt.linkLabel', { number: invoice.number })}
            </Link>
            <InvoiceStatusBadge status={invoice.status} label={t(`invoices.status.${invoice.status}`)} />
            <span className="tabular-nums text-slate-900">
              {formatMoney(invoice.totalJpy, 'JPY', language)}
            </span>
            <span className="text-sm text-slate-700">
              {t('receipt.issuedOn', { date: invoice.issuedLabel })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
