import { useTranslation } from 'react-i18next'
import type { FrozenImportEstimate } from '#core/landed-cost/landed-cost.ts'
import type { YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { ImportEstimate } from './import-estimate.tsx'

/**
 * The import estimate a shipping receipt froze when it was issued (issue 30, ADR 046), below the
 * receipt: not charged, paid at the door; the figures of that day's rule, whatever changed since.
 * Strings: `landedCustomer.*` (account) and `landed.*` (common).
 */
export function ReceiptImportEstimate({
  frozen,
  countryLabel,
  issuedLabel,
  currency,
  rates,
  language,
}: {
  frozen: FrozenImportEstimate
  /** The country's name, written on the server (the browser's Intl may name it otherwise). */
  countryLabel: string
  issuedLabel: string
  currency: Currency
  rates: YenRates
  language: Language
}) {
  const { t } = useTranslation()
  return (
    <section
      aria-labelledby="receipt-import-heading"
      className="mt-8 space-y-3 rounded-lg border border-dashed border-slate-400 p-4 print:mt-4 print:break-inside-avoid"
      data-testid="receipt-import-estimate"
    >
      <h2 id="receipt-import-heading" className="text-xl font-semibold text-slate-900">
        {t('landedCustomer.receiptHeading')}
      </h2>
      <p className="text-slate-700">
        {t('landedCustomer.receiptLead', {
          country: countryLabel,
          date: issuedLabel,
        })}
      </p>
      <ImportEstimate
        frozen={frozen}
        paidJpy={null}
        currency={currency}
        rates={rates}
        language={language}
        id="receipt-import"
      />
    </section>
  )
}
