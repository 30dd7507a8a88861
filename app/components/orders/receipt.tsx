import type { TFunction } from 'i18next'
import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { japanDateTime } from '#app/lib/dates.ts'
import type { InvoiceStatus } from '#core/billing/invoice-machine.ts'
import type { InvoiceView } from '#core/billing/invoice-service.ts'
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
import { InvoiceStatusBadge } from './invoice-status-badge.tsx'
import { RefundList, type RefundRow } from './refund-list.tsx'

/**
 * The electronic receipt of one invoice, for its customer (/user-dashboard/invoices/:id) and for
 * staff (/admin-dashboard/invoices/:id): what Japan's qualified-invoice system asks of it (the
 * issuer's name, address and registration number, the date, the lines, the amount subject to
 * each tax rate with its tax, the total, the recipient), its status, and a print button. Written
 * in the page's language (the reader's choice; the invoice's own language is the one its
 * e-mails use), dates in Japan time. Printing leaves out the site's header, footer and tabs.
 */

export type ReceiptInvoice = Omit<
  InvoiceView,
  'issuedAt' | 'dueAt' | 'paidAt' | 'voidedAt' | 'issuer' | 'creditedBy'
> & {
  issuer: Omit<InvoiceView['issuer'], 'address'> & { address: string }
  issuedLabel: string
  dueLabel: string
  paidLabel: string | null
  voidedLabel: string | null
  creditedBy: { id: string; number: string; dateLabel: string } | null
}

/** The invoice as the page sends it: dates written out in Japan time, in the page's language. */
export function receiptForPage(invoice: InvoiceView, language: Language): ReceiptInvoice {
  const format = japanDateTime(language)
  const { issuedAt, dueAt, paidAt, voidedAt, issuer, creditedBy, ...rest } = invoice
  return {
    ...rest,
    // The issuer's address in the reader's language (ADR 038).
    issuer: { ...issuer, address: inLanguage(issuer.address, language) },
    creditedBy: creditedBy
      ? { id: creditedBy.id, number: creditedBy.number, dateLabel: format(creditedBy.issuedAt) }
      : null,
    issuedLabel: format(issuedAt),
    dueLabel: format(dueAt),
    paidLabel: paidAt ? format(paidAt) : null,
    voidedLabel: voidedAt ? format(voidedAt) : null,
  }
}

export function invoiceStatusText(
  t: TFunction,
  invoice: Pick<ReceiptInvoice, 'status' | 'dueLabel' | 'paidLabel' | 'voidedLabel'>,
): string {
  const texts: Record<InvoiceStatus, string> = {
    open: t('receipt.statusOpen', { date: invoice.dueLabel }),
    paid: t('receipt.statusPaid', { date: invoice.paidLabel ?? '' }),
    void: t('receipt.statusVoid', { date: invoice.voidedLabel ?? '' }),
    expired: t('receipt.statusExpired', { date: invoice.dueLabel }),
  }
  return texts[invoice.status]
}

export function Receipt({
  invoice,
  language,
  currency,
  backLink,
  refunds = [],
  creditNoteBase,
}: {
  invoice: ReceiptInvoice
  language: Language
  currency: Currency
  backLink: ReactNode
  /** What was given back on this invoice's payments (docs/decisions/034). */
  refunds?: readonly RefundRow[]
  /** Where credit notes are read: the customer's pages or staff's. */
  creditNoteBase: CreditNoteBase
}) {
  const { t } = useTranslation()
  const rate = formatPercent(invoice.taxRateBasisPoints / 10_000, language)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return (
    <article aria-labelledby="receipt-heading" className="space-y-8 print:space-y-4 print:text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        {backLink}
        <PrintButton />
      </div>
      <ReceiptHeader invoice={invoice} creditNoteBase={creditNoteBase} />

      <DocumentParties idPrefix="" document={invoice} />

      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr] print:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">{t('receipt.number')}</dt>
        <dd className="text-slate-900">{invoice.number}</dd>
        <dt className="font-medium text-slate-700">{t('receipt.issued')}</dt>
        <dd className="text-slate-900">{invoice.issuedLabel}</dd>
        {invoice.status === 'open' ? (
          <>
            <dt className="font-medium text-slate-700">{t('receipt.due')}</dt>
            <dd className="text-slate-900">{invoice.dueLabel}</dd>
          </>
        ) : null}
        {invoice.paidLabel ? (
          <>
            <dt className="font-medium text-slate-700">{t('receipt.paid')}</dt>
            <dd className="text-slate-900">{invoice.paidLabel}</dd>
          </>
        ) : null}
      </dl>
      <p className="text-sm text-slate-700">{t('receipt.japanTime')}</p>

      <ReceiptLines lines={invoice.lines} rate={rate} yen={yen} />

      <ReceiptTotals
        invoice={invoice}
        rate={rate}
        yen={yen}
        language={language}
        currency={currency}
        creditNoteBase={creditNoteBase}
      />
      <RefundList refunds={refunds} headingId="receipt-refunds-heading" />
    </article>
  )
}

type CreditNoteBase = '/user-dashboard/credit-notes' | '/admin-dashboard/credit-notes'

/** The title (a receipt once paid, an invoice before), the status, and what replaced or took it back. */
function ReceiptHeader({
  invoice,
  creditNoteBase,
}: {
  invoice: ReceiptInvoice
  creditNoteBase: CreditNoteBase
}) {
  const { t } = useTranslation()
  const title =
    invoice.status === 'paid'
      ? t('receipt.receiptTitle', { number: invoice.number })
      : t('receipt.invoiceTitle', { number: invoice.number })
  return (
    <header className="space-y-2">
      <h1 id="receipt-heading" className="text-3xl font-bold text-slate-900 print:text-2xl">
        {title}
      </h1>
      <p className="text-slate-700">{t('receipt.qualified')}</p>
      <p className="flex flex-wrap items-center gap-3">
        <InvoiceStatusBadge status={invoice.status} label={t(`invoices.status.${invoice.status}`)} />
        <span className="font-medium text-slate-900" data-testid="invoice-status">
          {invoiceStatusText(t, invoice)}
        </span>
      </p>
      {invoice.replacedByNumber ? (
        <p className="text-slate-700">{t('receipt.replacedBy', { number: invoice.replacedByNumber })}</p>
      ) : null}
      {invoice.replacesNumber ? (
        <p className="text-slate-700">{t('receipt.replaces', { number: invoice.replacesNumber })}</p>
      ) : null}
      {invoice.creditedBy ? (
        <p className="font-medium text-slate-900" data-testid="invoice-credited">
          {t('receipt.creditedBy', { date: invoice.creditedBy.dateLabel })}{' '}
          <a
            href={`${creditNoteBase}/${invoice.creditedBy.id}`}
            className="font-semibold text-red-800 underline"
          >
            {t('receipt.creditNoteLink', { number: invoice.creditedBy.number })}
          </a>
        </p>
      ) : null}
    </header>
  )
}

/** The invoice's lines; on narrow screens each says its quantity, unit price and rate under it. */
function ReceiptLines({
  lines,
  rate,
  yen,
}: {
  lines: ReceiptInvoice['lines']
  /** The tax rate, written out. */
  rate: string
  yen: (amount: number) => string
}) {
  const { t } = useTranslation()
  return (
    <LinesTable headingId="lines-heading" heading={t('receipt.lines')}>
      {lines.map((line) => (
        <LineRow
          key={line.position}
          line={line}
          rate={rate}
          yen={yen}
          detail={
            line.kind === 'storage_fee' ? (
              <span className="block text-sm text-slate-700">
                {t('receipt.storageLineDetail', {
                  count: line.quantity,
                  fee: yen(line.unitPriceJpy),
                })}
              </span>
            ) : null
          }
          amount={yen(line.amountJpy)}
        />
      ))}
    </LinesTable>
  )
}

/**
 * The amount subject to tax and its tax, what is not taxed, the total, and, on a re-issued
 * receipt, the credit carried over and what is left to pay; then the notes.
 */
function ReceiptTotals({
  invoice,
  rate,
  yen,
  language,
  currency,
  creditNoteBase,
}: {
  invoice: ReceiptInvoice
  /** The tax rate, written out. */
  rate: string
  yen: (amount: number) => string
  language: Language
  currency: Currency
  creditNoteBase: CreditNoteBase
}) {
  const { t } = useTranslation()
  return (
    <TotalsSection
      headingId="totals-heading"
      notes={
        <>
          <p className="mt-3 text-sm text-slate-700">{t('receipt.roundingNote')}</p>
          {invoice.kind === 'shipping' && invoice.storageFeeJpy > 0 ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="storage-note">
              {t('receipt.storageNote', { rate })}
            </p>
          ) : null}
          {invoice.kind === 'shipping' ? (
            <p className="mt-2 text-sm text-slate-700">{t('receipt.customsNote')}</p>
          ) : null}
        </>
      }
    >
      <TotalRow label={t('receipt.taxableSubtotal', { rate })}>{yen(invoice.taxableJpy)}</TotalRow>
      <TotalRow label={t('receipt.tax', { rate })}>{yen(invoice.taxJpy)}</TotalRow>
      <TotalRow
        label={
          invoice.kind === 'shipping' ? t('receipt.notTaxableShipping') : t('receipt.notTaxableSubtotal')
        }
      >
        {yen(invoice.domesticShippingJpy + invoice.shippingJpy)}
      </TotalRow>
      <GrandTotalRow
        label={t('receipt.total')}
        testId="invoice-total"
        amountJpy={invoice.totalJpy}
        rates={invoice.yenRates}
        currency={currency}
        language={language}
      />
      {invoice.creditAppliedJpy > 0 ? (
        <>
          <TotalRow
            label={
              invoice.creditFrom ? (
                <>
                  {t('receipt.creditApplied', { invoice: invoice.replacesNumber ?? '' })}{' '}
                  <a
                    href={`${creditNoteBase}/${invoice.creditFrom.id}`}
                    className="font-semibold text-red-800 underline"
                  >
                    {t('receipt.creditNoteLink', { number: invoice.creditFrom.number })}
                  </a>
                </>
              ) : (
                t('receipt.creditCarried', { invoice: invoice.replacesNumber ?? '' })
              )
            }
          >
            −{yen(invoice.creditAppliedJpy)}
          </TotalRow>
          <div className="flex justify-between gap-4 font-bold">
            <dt>{invoice.status === 'paid' ? t('receipt.leftPaid') : t('receipt.leftToPay')}</dt>
            <dd className="tabular-nums" data-testid="invoice-left-to-pay">
              {yen(invoice.totalJpy - invoice.creditAppliedJpy)}
            </dd>
          </div>
        </>
      ) : null}
    </TotalsSection>
  )
}

/** Shown once the page runs JavaScript (without it the browser's own print command works). */
export function PrintButton() {
  const { t } = useTranslation()
  const [ready, setReady] = useState(false)
  useEffect(() => setReady(true), [])
  if (!ready) return null
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="min-h-11 rounded-md border border-slate-400 px-4 font-semibold text-slate-900 hover:bg-slate-50 print:hidden"
    >
      {t('receipt.print')}
    </button>
  )
}
