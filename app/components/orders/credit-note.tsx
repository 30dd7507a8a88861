import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { japanDateTime } from '#app/lib/dates.ts'
import type { CreditNoteView } from '#core/billing/credit-notes.ts'
import { formatMoney, formatPercent } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { inLanguage } from '#core/settings/bilingual.ts'
import {
  DocumentParties,
  GrandTotalRow,
  LineRow,
  LinesTable,
  TotalRow,
  TotalsSection,
} from './document-parts.tsx'
import { PrintButton } from './receipt.tsx'

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
    <LinesTable headingId="cn-lines-heading" heading={t('creditNote.lines')}>
      {lines.map((line) => (
        <LineRow key={line.position} line={line} rate={rate} yen={yen} amount={<>−{yen(line.amountJpy)}</>} />
      ))}
    </LinesTable>
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
    <TotalsSection
      headingId="cn-totals-heading"
      notes={<p className="mt-3 text-sm text-slate-700">{t('creditNote.taxNote')}</p>}
    >
      <TotalRow label={t('receipt.taxableSubtotal', { rate })}>−{yen(note.taxableJpy)}</TotalRow>
      <TotalRow label={t('receipt.tax', { rate })}>−{yen(note.taxJpy)}</TotalRow>
      <TotalRow label={t('creditNote.notTaxable')}>−{yen(note.nonTaxableJpy)}</TotalRow>
      <GrandTotalRow
        label={t('creditNote.total')}
        testId="credit-note-total"
        amountJpy={note.totalJpy}
        rates={note.yenRates}
        currency={currency}
        language={language}
      />
    </TotalsSection>
  )
}
