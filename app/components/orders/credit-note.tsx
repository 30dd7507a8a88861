import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { japanDateTime } from '#app/lib/dates.ts'
import type { CreditNoteView } from '#core/billing/credit-notes.ts'
import { formatMoney, formatPercent } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { inLanguage } from '#core/settings/bilingual.ts'
import { DocumentParties, LinesTableHead } from './document-parts.tsx'
import { lineDescription, PrintButton } from './receipt.tsx'
import { YenAmount } from './yen-amount.tsx'

/**
 * A credit note, printable, for its customer (/user-dashboard/credit-notes/:id) and staff
 * (/admin-dashboard/credit-notes/:id) (docs/decisions/037): what Japan's qualified-invoice system
 * asks of a return document (the issuer and registration number, its date, the date of the
 * invoice it takes back, the amounts by tax rate with their tax), the invoice it takes back, where
 * its credit went and why. Written in the page's language, dates in Japan time.
 */

export type CreditNotePage = Omit<CreditNoteView, 'issuedAt' | 'invoiceIssuedAt' | 'issuer'> & {
  issuer: Omit<CreditNoteView['issuer'], 'address'> & { address: string }
  issuedLabel: string
  invoiceIssuedLabel: string
}

export function creditNoteForPage(note: CreditNoteView, language: Language): CreditNotePage {
  const format = japanDateTime(language)
  const { issuedAt, invoiceIssuedAt, issuer, ...rest } = note
  return {
    ...rest,
    // The issuer's address in the reader's language (ADR 038).
    issuer: { ...issuer, address: inLanguage(issuer.address, language) },
    issuedLabel: format(issuedAt),
    invoiceIssuedLabel: format(invoiceIssuedAt),
  }
}

export function CreditNoteDocument({
  note,
  language,
  currency,
  invoiceBase,
  backLink,
}: {
  note: CreditNotePage
  language: Language
  currency: Currency
  /** Where invoices are read: the customer's pages or staff's. */
  invoiceBase: '/user-dashboard/invoices' | '/admin-dashboard/invoices'
  backLink: ReactNode
}) {
  const { t } = useTranslation()
  const rate = formatPercent(note.taxRateBasisPoints / 10_000, language)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return (
    <article aria-labelledby="credit-note-heading" className="space-y-8 print:space-y-4 print:text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        {backLink}
        <PrintButton />
      </div>
      <header className="space-y-2">
        <h1 id="credit-note-heading" className="text-3xl font-bold text-slate-900 print:text-2xl">
          {t('creditNote.title', { number: note.number })}
        </h1>
        <p className="text-slate-700">{t('creditNote.qualified')}</p>
      </header>

      <DocumentParties idPrefix="cn-" document={note} />

      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr] print:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">{t('creditNote.number')}</dt>
        <dd className="text-slate-900">{note.number}</dd>
        <dt className="font-medium text-slate-700">{t('receipt.issued')}</dt>
        <dd className="text-slate-900">{note.issuedLabel}</dd>
        <dt className="font-medium text-slate-700">{t('creditNote.credits')}</dt>
        <dd className="text-slate-900">
          <a href={`${invoiceBase}/${note.invoice.id}`} className="font-semibold text-red-800 underline">
            {t('creditNote.creditsInvoice', { number: note.invoice.number })}
          </a>{' '}
          {t('creditNote.invoiceIssued', { date: note.invoiceIssuedLabel })}
        </dd>
        {note.appliedTo ? (
          <>
            <dt className="font-medium text-slate-700">{t('creditNote.appliedTo')}</dt>
            <dd className="text-slate-900">
              <a
                href={`${invoiceBase}/${note.appliedTo.id}`}
                className="font-semibold text-red-800 underline"
              >
                {t('creditNote.appliedToInvoice', { number: note.appliedTo.number })}
              </a>
            </dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-700">{t('creditNote.reason')}</dt>
        <dd className="whitespace-pre-line break-words text-slate-900" data-testid="credit-note-reason">
          {note.reason}
        </dd>
      </dl>
      <p className="text-sm text-slate-700">{t('receipt.japanTime')}</p>

      <CreditNoteLines lines={note.lines} rate={rate} yen={yen} />

      <CreditNoteTotals note={note} rate={rate} yen={yen} language={language} currency={currency} />
    </article>
  )
}

/** The lines it takes back, each amount negative; on narrow screens each says its quantity, unit price and rate under it. */
function CreditNoteLines({
  lines,
  rate,
  yen,
}: {
  lines: CreditNotePage['lines']
  /** The tax rate, written out. */
  rate: string
  yen: (amount: number) => string
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="cn-lines-heading">
      <h2 id="cn-lines-heading" className="text-lg font-semibold text-slate-900">
        {t('creditNote.lines')}
      </h2>
      <table className="mt-2 w-full border-collapse text-left text-sm sm:text-base print:text-sm">
        <LinesTableHead />
        <tbody>
          {lines.map((line) => (
            <tr key={line.position} className="border-b border-slate-200 align-top">
              <td className="py-2 pr-3 break-words">
                <span className="block text-slate-900">{lineDescription(t, line)}</span>
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
              <td className="py-2 text-right tabular-nums">−{yen(line.amountJpy)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** The amounts it takes back by tax rate, with their tax, and its total. */
function CreditNoteTotals({
  note,
  rate,
  yen,
  language,
  currency,
}: {
  note: CreditNotePage
  /** The tax rate, written out. */
  rate: string
  yen: (amount: number) => string
  language: Language
  currency: Currency
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="cn-totals-heading" className="ml-auto max-w-md">
      <h2 id="cn-totals-heading" className="sr-only">
        {t('receipt.totals')}
      </h2>
      <dl className="space-y-1">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('receipt.taxableSubtotal', { rate })}</dt>
          <dd className="tabular-nums text-slate-900">−{yen(note.taxableJpy)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('receipt.tax', { rate })}</dt>
          <dd className="tabular-nums text-slate-900">−{yen(note.taxJpy)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-700">{t('creditNote.notTaxable')}</dt>
          <dd className="tabular-nums text-slate-900">−{yen(note.nonTaxableJpy)}</dd>
        </div>
        <div className="flex justify-between gap-4 border-t-2 border-slate-300 pt-2 text-lg font-bold">
          <dt>{t('creditNote.total')}</dt>
          <dd data-testid="credit-note-total">
            <YenAmount
              amountJpy={note.totalJpy}
              currency={currency}
              language={language}
              rates={note.yenRates}
            />
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-slate-700">{t('creditNote.taxNote')}</p>
    </section>
  )
}
