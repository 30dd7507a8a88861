import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import type { YenRates } from '#core/money/money.ts'
import { formatMoney } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import {
  parseWeight,
  type RateTables,
  REGIONS,
  type Region,
  type ShippingMethod,
  shippingPrice,
  WEIGHT_LIMITS,
} from '#core/pricing/pricing.ts'
import { QUERY_KEYS } from './calculator-state.ts'
import { MethodChoice } from './method-choice.tsx'
import { YenWithLocal } from './money.tsx'
import { ResultList } from './result-list.tsx'
import { WeightField } from './weight-field.tsx'

export function ShippingCalculator({
  initial,
  tables,
  rates,
  language,
  currency,
}: {
  initial: { region: Region; method: ShippingMethod; weight: string }
  tables: RateTables
  rates: YenRates
  language: Language
  currency: Currency
}) {
  const { t } = useTranslation()
  const [region, setRegion] = useState(initial.region)
  const [method, setMethod] = useState(initial.method)
  const [weight, setWeight] = useState(initial.weight)
  const parsedWeight = parseWeight(method, weight)
  const price = parsedWeight.ok ? shippingPrice(tables[method], region, parsedWeight.value) : null

  return (
    <section aria-labelledby="shipping-heading" className="space-y-4 rounded-lg border border-slate-200 p-5">
      <h2 id="shipping-heading" className="text-xl font-bold text-slate-900">
        {t('calculator.shipping.heading')}
      </h2>
      <FormField id="region" label={t('calculator.shipping.region')}>
        {(control) => (
          <select
            {...control}
            name={QUERY_KEYS.region}
            value={region}
            onChange={(event) => setRegion(event.currentTarget.value as Region)}
            className={inputClass}
          >
            {REGIONS.map((option) => (
              <option key={option} value={option}>
                {t(`calculator.regions.${option}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <MethodChoice
        name={QUERY_KEYS.method}
        legend={t('calculator.shipping.method')}
        value={method}
        onChange={(next) => {
          setMethod(next)
          // Each method has its own range: start again from its default weight.
          setWeight(String(WEIGHT_LIMITS[next].defaultG))
        }}
      />
      <WeightField
        id="weight"
        name={QUERY_KEYS.weight}
        label={t('calculator.shipping.weight')}
        method={method}
        value={weight}
        error={parsedWeight.ok ? null : parsedWeight.error}
        onChange={setWeight}
      />
      {parsedWeight.ok ? (
        price === null ? (
          <p className="rounded-md bg-amber-50 p-4 font-medium text-amber-950">{t('calculator.noRate')}</p>
        ) : (
          <ResultList
            rows={[
              {
                label: t('calculator.shipping.price'),
                value: (
                  <YenWithLocal amountJpy={price} currency={currency} language={language} rates={rates} />
                ),
                emphasis: true,
              },
            ]}
          />
        )
      ) : null}
      <p role="status" className="sr-only">
        {price === null
          ? ''
          : t('calculator.shipping.status', { price: formatMoney(price, 'JPY', language) })}
      </p>
    </section>
  )
}
