import { useTranslation } from 'react-i18next'
import type { InvoiceStatus } from '#core/billing/invoice-machine.ts'
import type { YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { ShippingBreakdown, type ShippingBreakdownData } from './shipping-breakdown.tsx'

/** A receipt or a credit note of a shipment, written out for its page. */
export type ShipmentDocument = {
  kind: 'receipt' | 'creditNote'
  id: string
  number: string
  href: string
  status: InvoiceStatus | null
  amount: string
  dateLabel: string
  /** A credit note: the receipt it takes back, and its reason. */
  credits: string | null
  reason: string | null
}

export type ShipmentCosts = {
  /** What the customer saw when asking: shipping of the estimated weight, storage, tax, total. */
  estimate: ShippingBreakdownData & { weight: string }
  /** The receipt in force, line by line (null before packing). */
  receipt: {
    number: string
    href: string
    weight: string
    /** Its total, written out. */
    total: string
    breakdown: ShippingBreakdownData
    /** Money carried over from a paid receipt it replaced, and what is left to pay. */
    credit: { amount: string; from: string; note: string } | null
    toPay: string | null
  } | null
  /** Why storage is charged, with the settings in force. */
  explanation: { freeDays: number; fee: string; rate: string }
  documents: ShipmentDocument[]
}

/**
 * What a shipment costs, on its page for the customer and for staff (docs/decisions/037): the
 * estimate seen when asking (shipping, storage fees, tax), then the receipt in force line by
 * line (each item's days past its free storage × the daily fee, the tax on them), why it may
 * differ from the estimate, and how storage is charged.
 */
export function ShipmentCostsPanel({
  costs,
  money,
  voided = false,
}: {
  costs: ShipmentCosts
  money: { language: Language; currency: Currency; rates: YenRates | null }
  /** A cancelled shipment: its amounts are struck through, not charged (ADR 038). */
  voided?: boolean
}) {
  const { t } = useTranslation()
  const { estimate, receipt, explanation } = costs
  const charged = receipt ?? null
  const hasStorage = estimate.storageFeeJpy > 0 || (charged?.breakdown.storageFeeJpy ?? 0) > 0
  return (
    <section aria-labelledby="costs-heading" className="space-y-4 rounded-lg border border-slate-200 p-4">
      <h2 id="costs-heading" className="text-xl font-semibold text-slate-900">
        {t('shippingCosts.heading')}
      </h2>
      <div className="space-y-2">
        <h3 className="font-semibold text-slate-900">{t('shippingCosts.estimateHeading')}</h3>
        <ShippingBreakdown
          data={estimate}
          language={money.language}
          currency={money.currency}
          rates={money.rates}
          shippingLabel={t('shippingCosts.estimateShipping', { weight: estimate.weight })}
          totalLabel={t('shippingCosts.estimateTotal')}
          testId="estimate-breakdown"
          voided={voided}
        />
      </div>
      {charged ? (
        <div className="space-y-2">
          <h3 className="font-semibold text-slate-900">
            {t('shippingCosts.receiptHeading', { number: charged.number })}
          </h3>
          <ShippingBreakdown
            data={charged.breakdown}
            language={money.language}
            currency={money.currency}
            rates={money.rates}
            shippingLabel={t('shippingCosts.receiptShipping', { weight: charged.weight })}
            totalLabel={t('shippingCosts.receiptTotal')}
            testId="receipt-breakdown"
            voided={voided}
          />
          {charged.credit ? (
            <dl className="space-y-1 text-slate-800">
              <div className="flex flex-wrap justify-between gap-x-4">
                <dt>
                  {t('shippingCosts.creditApplied', {
                    invoice: charged.credit.from,
                    note: charged.credit.note,
                  })}
                </dt>
                <dd className="tabular-nums">−{charged.credit.amount}</dd>
              </div>
              {charged.toPay ? (
                <div className="flex flex-wrap justify-between gap-x-4 font-bold text-slate-900">
                  <dt>{t('shippingCosts.toPay')}</dt>
                  <dd className="tabular-nums" data-testid="receipt-to-pay">
                    {charged.toPay}
                  </dd>
                </div>
              ) : null}
            </dl>
          ) : null}
          {charged.breakdown.totalJpy !== estimate.totalJpy ? (
            <p className="text-sm text-slate-700" data-testid="estimate-difference">
              {charged.breakdown.shippingJpy !== estimate.shippingJpy
                ? t('shippingCosts.differenceShipping', {
                    packed: charged.weight,
                    estimated: estimate.weight,
                  })
                : t('shippingCosts.differenceOther')}
            </p>
          ) : null}
        </div>
      ) : null}
      {hasStorage ? (
        <p className="text-sm text-slate-700">
          {t('shippingCosts.storageExplained', {
            days: explanation.freeDays,
            fee: explanation.fee,
            rate: explanation.rate,
          })}
        </p>
      ) : null}
    </section>
  )
}

/** Every receipt and credit note of a shipment, oldest first, each a link to its printable page. */
export function ShipmentDocuments({ documents }: { documents: ShipmentDocument[] }) {
  const { t } = useTranslation()
  if (documents.length === 0) return null
  return (
    <section aria-labelledby="documents-heading" className="space-y-2">
      <h2 id="documents-heading" className="text-xl font-semibold text-slate-900">
        {t('shippingCosts.documentsHeading')}
      </h2>
      <ul className="space-y-2" data-testid="shipment-documents">
        {documents.map((document) => (
          <li key={`${document.kind}-${document.id}`} className="text-slate-800">
            <a href={document.href} className="font-semibold text-red-800 underline">
              {document.kind === 'receipt'
                ? t('shippingCosts.documentReceipt', { number: document.number })
                : t('shippingCosts.documentCreditNote', { number: document.number })}
            </a>{' '}
            ·{' '}
            {document.kind === 'receipt'
              ? t('shippingCosts.documentReceiptLine', {
                  amount: document.amount,
                  status: t(`invoices.status.${document.status ?? 'open'}`),
                  date: document.dateLabel,
                })
              : t('shippingCosts.documentCreditLine', {
                  amount: document.amount,
                  invoice: document.credits ?? '',
                  date: document.dateLabel,
                })}
            {document.reason ? (
              <span className="block text-sm text-slate-700">
                {t('shippingCosts.documentReason', { reason: document.reason })}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
