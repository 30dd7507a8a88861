import { useTranslation } from 'react-i18next'
import { payWithKey } from '#app/lib/payment-methods.ts'
import { useRootData } from '#app/lib/root-data.ts'
import { convertFromYen, formatMoney, formatPercent } from '#core/money/money.ts'

/** The transparent-pricing block: figures from settings, also in the visitor's currency. */
export function PricingSummary() {
  const { t } = useTranslation()
  const data = useRootData()
  if (!data) return null
  const { language, currency, settings } = data
  const fee = formatMoney(settings.serviceFeeJpy, 'JPY', language)
  const feeConverted =
    currency === 'JPY'
      ? null
      : formatMoney(convertFromYen(settings.serviceFeeJpy, currency, settings.yenRates), currency, language)
  const rate = formatPercent(settings.taxRate, language)
  const items = [
    {
      term: t('pricing.serviceFee'),
      value: fee,
      note: feeConverted ? t('pricing.approximately', { amount: feeConverted }) : null,
    },
    { term: t('pricing.tax'), value: rate, note: t('pricing.taxNote', { rate }) },
    { term: t('pricing.shipping'), value: null, note: t('pricing.shippingNote') },
    {
      term: t('pricing.payment'),
      value: null,
      note: t('pricing.paymentNote', { methods: t(`payWith.${payWithKey(data.payments)}`) }),
    },
    {
      term: t('pricing.storage'),
      value: t('pricing.storageDays', { count: settings.freeStorageDays }),
      note: null,
    },
  ]
  return (
    <section aria-labelledby="pricing-heading" className="mx-auto max-w-6xl px-4 py-12">
      <h2 id="pricing-heading" className="text-2xl font-bold text-slate-900">
        {t('pricing.heading')}
      </h2>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        {items.map((item) => (
          <div key={item.term} className="rounded-lg border border-slate-200 p-5">
            <dt className="text-sm font-medium text-slate-700">{item.term}</dt>
            {item.value ? <dd className="mt-2 text-2xl font-bold text-slate-900">{item.value}</dd> : null}
            {item.note ? <dd className="mt-1 text-sm text-slate-600">{item.note}</dd> : null}
          </div>
        ))}
      </dl>
      <p className="mt-4 font-medium text-slate-800">{t('pricing.noHiddenFees')}</p>
    </section>
  )
}
