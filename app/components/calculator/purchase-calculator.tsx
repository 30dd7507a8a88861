import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatMoney, formatPercent } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { type PricingSettings, parseItemPrice, quotePurchase } from '#core/pricing/pricing.ts'
import { QUERY_KEYS } from './calculator-state.ts'
import { AnimatedMoney, YenWithLocal } from './money.tsx'
import { PriceField } from './price-field.tsx'
import { ResultList } from './result-list.tsx'

export function PurchaseCalculator({
  initialPrice,
  settings,
  language,
  currency,
}: {
  initialPrice: string
  settings: PricingSettings
  language: Language
  currency: Currency
}) {
  const { t } = useTranslation()
  const [price, setPrice] = useState(initialPrice)
  const parsed = parseItemPrice(price)
  const quote = parsed.ok && parsed.value !== null ? quotePurchase(parsed.value, settings) : null
  const parsedError = parsed.ok ? null : parsed.error
  const yen = (amount: number) => (
    <YenWithLocal amountJpy={amount} currency={currency} language={language} rates={settings.yenRates} />
  )

  return (
    <section aria-labelledby="purchase-heading" className="space-y-4 rounded-lg border border-slate-200 p-5">
      <h2 id="purchase-heading" className="text-xl font-bold text-slate-900">
        {t('calculator.purchase.heading')}
      </h2>
      <PriceField
        id="price"
        name={QUERY_KEYS.price}
        label={t('calculator.purchase.priceLabel')}
        hint={t('calculator.purchase.priceHint')}
        value={price}
        error={parsedError}
        language={language}
        onChange={setPrice}
      />
      {quote ? (
        <div className="space-y-3">
          <ResultList
            rows={[
              { label: t('calculator.purchase.productCost'), value: yen(quote.productCost) },
              { label: t('calculator.purchase.serviceFee'), value: yen(quote.serviceFee) },
              {
                label: t('calculator.purchase.tax', { rate: formatPercent(settings.taxRate, language) }),
                value: yen(quote.tax),
              },
              { label: t('calculator.purchase.total'), value: yen(quote.total), emphasis: true },
            ]}
          />
          <ResultList
            rows={[
              {
                label: 'USD',
                value: <AnimatedMoney amount={quote.usd} currency="USD" language={language} />,
              },
              {
                label: 'MXN',
                value: <AnimatedMoney amount={quote.mxn} currency="MXN" language={language} />,
              },
              {
                label: 'CLP',
                value: <AnimatedMoney amount={quote.clp} currency="CLP" language={language} />,
              },
            ]}
          />
        </div>
      ) : parsedError ? null : (
        <p className="rounded-md bg-slate-50 p-4 text-slate-700">{t('calculator.purchase.prompt')}</p>
      )}
      <p role="status" className="sr-only">
        {quote ? t('calculator.purchase.status', { total: formatMoney(quote.total, 'JPY', language) }) : ''}
      </p>
    </section>
  )
}
