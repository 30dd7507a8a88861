import { useTranslation } from 'react-i18next'
import { formatMoney } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import type { QuoteTotals } from '#core/pricing/quote-pricing.ts'

/** A quote's totals as the engine (core/pricing/quote-pricing.ts) computes them, for staff. */
export function QuoteTotalsList({
  totals,
  rateLabel,
  language,
}: {
  totals: QuoteTotals
  rateLabel: string
  language: Language
}) {
  const { t } = useTranslation()
  const rows = [
    { term: t('quote.itemsTotal'), value: totals.itemsJpy },
    { term: t('quote.feeTotal'), value: totals.serviceFeeJpy },
    { term: t('quote.taxTotal', { rate: rateLabel }), value: totals.taxJpy },
    { term: t('quote.shippingTotal'), value: totals.domesticShippingJpy },
  ]
  return (
    <dl className="max-w-md space-y-1">
      {rows.map((row) => (
        <div key={row.term} className="flex justify-between gap-4">
          <dt className="text-slate-700">{row.term}</dt>
          <dd className="tabular-nums text-slate-900">{formatMoney(row.value, 'JPY', language)}</dd>
        </div>
      ))}
      <div className="flex justify-between gap-4 border-t-2 border-slate-300 pt-1 font-bold">
        <dt>{t('quote.grandTotal')}</dt>
        <dd className="tabular-nums" data-testid="quote-total">
          {formatMoney(totals.totalJpy, 'JPY', language)}
        </dd>
      </div>
    </dl>
  )
}
