import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { formatMoney } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import {
  type CountError,
  DESTINATIONS,
  type Estimate,
  estimateOrder,
  findDestination,
  MAX_ITEM_COUNT,
  type PricingSettings,
  parseItemCount,
  parseItemPrice,
  parseWeight,
  type RateTables,
  type ShippingMethod,
  WEIGHT_LIMITS,
} from '#core/pricing/pricing.ts'
import { QUERY_KEYS } from './calculator-state.ts'
import { MethodChoice } from './method-choice.tsx'
import { YenWithLocal } from './money.tsx'
import { PriceField } from './price-field.tsx'
import { ResultList } from './result-list.tsx'
import { WeightField } from './weight-field.tsx'

const GROUPS = [
  { key: 'directGroup', codes: DESTINATIONS.filter((d) => d.route === 'direct' && d.code.length === 2) },
  { key: 'courierGroup', codes: DESTINATIONS.filter((d) => d.route === 'courier_via_usa') },
  { key: 'otherGroup', codes: DESTINATIONS.filter((d) => d.code.length > 2) },
] as const

export function QuoteSimulator({
  initial,
  countryNames,
  tables,
  settings,
  language,
  currency,
}: {
  initial: { country: string; price: string; count: string; method: ShippingMethod; weight: string }
  /** Country names in the page language, from the server (one ICU for server and browser). */
  countryNames: Record<string, string>
  tables: RateTables
  settings: PricingSettings
  language: Language
  currency: Currency
}) {
  const { t } = useTranslation()
  const [country, setCountry] = useState(initial.country)
  const [price, setPrice] = useState(initial.price)
  const [count, setCount] = useState(initial.count)
  const [method, setMethod] = useState(initial.method)
  const [weight, setWeight] = useState(initial.weight)

  const destination = findDestination(country) ?? DESTINATIONS[0]
  const parsedPrice = parseItemPrice(price)
  const parsedCount = parseItemCount(count)
  const parsedWeight = parseWeight(method, weight)
  const nameOf = (code: string) =>
    code.length === 2
      ? (countryNames[code] ?? code)
      : t(`calculator.destinations.${code as 'europe' | 'oceania' | 'asia'}`)
  const estimate =
    destination && parsedPrice.ok && parsedPrice.value !== null && parsedCount.ok && parsedWeight.ok
      ? estimateOrder({
          priceJpy: parsedPrice.value,
          count: parsedCount.value,
          destination,
          method,
          weightG: parsedWeight.value,
          settings,
          rates: tables,
        })
      : null

  return (
    <section aria-labelledby="quote-heading" className="space-y-4 rounded-lg border border-slate-200 p-5">
      <div>
        <h2 id="quote-heading" className="text-xl font-bold text-slate-900">
          {t('calculator.quote.heading')}
        </h2>
        <p className="mt-1 text-sm text-slate-700">{t('calculator.quote.lead')}</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <CountryField value={country} nameOf={nameOf} onChange={setCountry} />
        <PriceField
          id="quote-price"
          name={QUERY_KEYS.quotePrice}
          label={t('calculator.quote.price')}
          value={price}
          error={parsedPrice.ok ? null : parsedPrice.error}
          language={language}
          onChange={setPrice}
        />
        <ItemCountField value={count} error={parsedCount.ok ? null : parsedCount.error} onChange={setCount} />
        <MethodChoice
          name={QUERY_KEYS.quoteMethod}
          legend={t('calculator.quote.method')}
          value={method}
          onChange={(next) => {
            setMethod(next)
            setWeight(String(WEIGHT_LIMITS[next].defaultG))
          }}
        />
      </div>
      <WeightField
        id="quote-weight"
        name={QUERY_KEYS.quoteWeight}
        label={t('calculator.quote.weight')}
        method={method}
        value={weight}
        error={parsedWeight.ok ? null : parsedWeight.error}
        onChange={setWeight}
      />
      <QuoteResult
        estimate={estimate}
        noPriceYet={parsedPrice.ok && parsedPrice.value === null}
        countryName={nameOf(country)}
        settings={settings}
        language={language}
        currency={currency}
      />
    </section>
  )
}

/** The destination: countries with direct shipping, countries by courier through the USA, regions. */
function CountryField({
  value,
  nameOf,
  onChange,
}: {
  value: string
  nameOf: (code: string) => string
  onChange: (country: string) => void
}) {
  const { t } = useTranslation()
  return (
    <FormField id="country" label={t('calculator.quote.country')}>
      {(control) => (
        <select
          {...control}
          name={QUERY_KEYS.country}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          className={inputClass}
        >
          {GROUPS.map((group) => (
            <optgroup key={group.key} label={t(`calculator.quote.${group.key}`)}>
              {group.codes.map((option) => (
                <option key={option.code} value={option.code}>
                  {nameOf(option.code)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      )}
    </FormField>
  )
}

/** How many of the item, as typed. */
function ItemCountField({
  value,
  error,
  onChange,
}: {
  value: string
  error: CountError | null
  onChange: (count: string) => void
}) {
  const { t } = useTranslation()
  return (
    <FormField
      id="quote-count"
      label={t('calculator.quote.count')}
      error={error === null ? null : t(`calculator.errors.count.${error}`, { max: MAX_ITEM_COUNT })}
    >
      {(control) => (
        <input
          {...control}
          name={QUERY_KEYS.quoteCount}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_ITEM_COUNT}
          step={1}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          className={inputClass}
        />
      )}
    </FormField>
  )
}

/** The estimate's lines and total (or a prompt for the price), and its announcement. */
function QuoteResult({
  estimate,
  noPriceYet,
  countryName,
  settings,
  language,
  currency,
}: {
  estimate: Estimate | null
  /** No price typed yet (nor a wrong one): the prompt shows. */
  noPriceYet: boolean
  /** The chosen destination's name, for the courier note. */
  countryName: string
  settings: PricingSettings
  language: Language
  currency: Currency
}) {
  const { t } = useTranslation()
  const yen = (amount: number) => (
    <YenWithLocal amountJpy={amount} currency={currency} language={language} rates={settings.yenRates} />
  )
  return (
    <>
      {estimate ? (
        <div className="space-y-3">
          <ResultList
            rows={[
              { label: t('calculator.quote.productCost'), value: yen(estimate.productCost) },
              { label: t('calculator.quote.serviceFee'), value: yen(estimate.serviceFee) },
              { label: t('calculator.quote.tax'), value: yen(estimate.tax) },
              {
                label: t('calculator.quote.shipping'),
                value: estimate.shipping === null ? t('calculator.noRate') : yen(estimate.shipping),
              },
              {
                label: t('calculator.quote.deliveryTime'),
                value: t(`calculator.delivery.${estimate.deliveryTime}`),
              },
              {
                label: t('calculator.quote.total'),
                value: estimate.grandTotal === null ? t('calculator.noRate') : yen(estimate.grandTotal),
                emphasis: true,
              },
            ]}
          />
          {estimate.route === 'courier_via_usa' ? (
            <p className="rounded-md bg-sky-50 p-3 text-sm text-sky-950">
              {t('calculator.quote.courierNote', { country: countryName })}
            </p>
          ) : null}
        </div>
      ) : noPriceYet ? (
        <p className="rounded-md bg-slate-50 p-4 text-slate-700">{t('calculator.quote.prompt')}</p>
      ) : null}
      <p role="status" className="sr-only">
        {estimate?.grandTotal
          ? t('calculator.quote.status', { total: formatMoney(estimate.grandTotal, 'JPY', language) })
          : ''}
      </p>
    </>
  )
}
