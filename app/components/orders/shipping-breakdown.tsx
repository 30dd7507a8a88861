import { useTranslation } from 'react-i18next'
import { formatMoney, type YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { VoidAmount } from './void-amount.tsx'
import { YenAmount } from './yen-amount.tsx'

/**
 * What shipping some items costs, line by line (docs/decisions/037): the international shipping,
 * each item kept past its free storage (its days × the daily fee), the consumption tax on the
 * storage (the shipping is an export: not taxed) and the total, in yen and about how much in the
 * reader's currency. The same parts everywhere a figure is shown before paying: the shipping
 * tab's estimate, the shipment page (the estimate, then the receipt), the staff's confirmation
 * of a packing price or a re-issued receipt. The figures come from `shippingReceiptTotals`.
 */

export type ShippingBreakdownData = {
  shippingJpy: number
  storage: { id: string; title: string; days: number; feePerDayJpy: number }[]
  storageFeeJpy: number
  taxJpy: number
  /** The tax rate as written for the reader ("10 %"). */
  taxRateLabel: string
  totalJpy: number
}

export function ShippingBreakdown({
  data,
  language,
  currency,
  rates,
  shippingLabel,
  totalLabel,
  testId,
  voided = false,
}: {
  data: ShippingBreakdownData
  language: Language
  currency: Currency
  rates: YenRates | null
  /** What the shipping row is ("International shipping (estimate)", "… for 1,500 g"). */
  shippingLabel: string
  totalLabel: string
  testId?: string
  /** A cancelled shipment's: the total struck through, 'cancelled, not charged' (ADR 038). */
  voided?: boolean
}) {
  const { t } = useTranslation()
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return (
    <dl className="space-y-1 text-slate-800" data-testid={testId}>
      <div className="flex flex-wrap justify-between gap-x-4">
        <dt>{shippingLabel}</dt>
        <dd className="tabular-nums">{yen(data.shippingJpy)}</dd>
      </div>
      {data.storage.length > 0 ? (
        <>
          <div className="flex flex-wrap justify-between gap-x-4">
            <dt>{t('shippingCosts.storage')}</dt>
            <dd className="tabular-nums" data-testid={testId ? `${testId}-storage` : undefined}>
              {yen(data.storageFeeJpy)}
            </dd>
            <dd className="basis-full pl-4 text-sm text-slate-700">
              <ul className="space-y-0.5">
                {data.storage.map((line) => (
                  <li key={line.id} className="break-words">
                    {t('shippingCosts.storageLine', {
                      title: line.title,
                      count: line.days,
                      fee: yen(line.feePerDayJpy),
                      amount: yen(line.days * line.feePerDayJpy),
                    })}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
          <div className="flex flex-wrap justify-between gap-x-4">
            <dt>{t('shippingCosts.tax', { rate: data.taxRateLabel })}</dt>
            <dd className="tabular-nums">{yen(data.taxJpy)}</dd>
          </div>
        </>
      ) : (
        <div className="flex flex-wrap justify-between gap-x-4">
          <dt>{t('shippingCosts.storage')}</dt>
          <dd>{t('shippingCosts.noStorage')}</dd>
        </div>
      )}
      <div className="flex flex-wrap justify-between gap-x-4 border-t border-slate-300 pt-1 font-bold text-slate-900">
        <dt>{totalLabel}</dt>
        <dd data-testid={testId ? `${testId}-total` : undefined}>
          <VoidAmount voided={voided}>
            <YenAmount amountJpy={data.totalJpy} currency={currency} language={language} rates={rates} />
          </VoidAmount>
        </dd>
      </div>
    </dl>
  )
}
