import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { ImportEstimate } from '#app/components/landed-cost/import-estimate.tsx'
import { LinkPreviewCard, usePriceFromLink } from '#app/components/orders/link-preview-card.tsx'
import { type DestinationRules, methodsFor } from '#core/landed-cost/destination-rules.ts'
import {
  type CustomsRates,
  type FrozenImportEstimate,
  importEstimateFor,
  type RuleWarning,
  ruleWarnings,
} from '#core/landed-cost/landed-cost.ts'
import { formatMoney } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import {
  type CountError,
  DESTINATIONS,
  type Estimate,
  estimateOrder,
  MAX_ITEM_COUNT,
  type PricingSettings,
  parseItemCount,
  parseItemPrice,
  parseWeight,
  type RateTables,
  type ShippingMethod,
  WEIGHT_LIMITS,
} from '#core/pricing/pricing.ts'
import { destinationForCountry } from '#core/shipping/destinations.ts'
import { QUERY_KEYS, usableMethod, weightForReplacedMethod } from './calculator-state.ts'
import { MethodChoice } from './method-choice.tsx'
import { YenWithLocal } from './money.tsx'
import { PriceField } from './price-field.tsx'
import { ResultList } from './result-list.tsx'
import { WeightField } from './weight-field.tsx'

/** The spec's named destinations first (direct, then by courier via the USA); every other country after. */
const DIRECT = DESTINATIONS.filter((d) => d.route === 'direct' && d.code.length === 2).map((d) => d.code)
const VIA_USA = DESTINATIONS.filter((d) => d.route === 'courier_via_usa').map((d) => d.code)
const NAMED = new Set([...DIRECT, ...VIA_USA])

/** The warnings a visitor's own parcel can raise; the yearly counts need an account's history. */
const PARCEL_WARNINGS: ReadonlySet<RuleWarning['kind']> = new Set([
  'unitsPerItem',
  'taxIdRequired',
  'overThreshold',
])

export function QuoteSimulator({
  initial,
  countryNames,
  tables,
  settings,
  rules,
  customsRates,
  previewHosts,
  language,
  currency,
}: {
  initial: { country: string; price: string; count: string; method: ShippingMethod; weight: string }
  /**
   * Every country's name in the page language, sorted by it, from the server (one ICU for server
   * and browser; core/customers/countries.ts `countryOptions`).
   */
  countryNames: Record<string, string>
  tables: RateTables
  settings: PricingSettings
  /** The import rules and the methods per destination in effect (texts in the page's language). */
  rules: DestinationRules
  customsRates: CustomsRates
  /** Once the island runs: the shops whose pasted links are read (issue 31); null before. */
  previewHosts: readonly string[] | null
  language: Language
  currency: Currency
}) {
  const { t } = useTranslation()
  const [country, setCountry] = useState(initial.country)
  const [link, setLink] = useState('')
  // A price read from the pasted link fills the price until the visitor types their own.
  const { preview, price, type: typePrice } = usePriceFromLink(link, previewHosts ?? undefined, initial.price)
  const [count, setCount] = useState(initial.count)
  const [method, setMethod] = useState(initial.method)
  // The method the visitor picked: a country that cannot use it gets another, the next that can
  // gets it back.
  const [preferredMethod, setPreferredMethod] = useState(initial.method)
  const [weight, setWeight] = useState(initial.weight)

  const destination = destinationForCountry(country) ?? DESTINATIONS[0]
  const choices = methodsFor(rules, country)
  const methodUsable = choices.some((choice) => choice.method === method && choice.available)
  const parsedPrice = parseItemPrice(price)
  const parsedCount = parseItemCount(count)
  const parsedWeight = parseWeight(method, weight)
  const nameOf = (code: string) => countryNames[code] ?? code
  const estimate =
    destination &&
    methodUsable &&
    parsedPrice.ok &&
    parsedPrice.value !== null &&
    parsedCount.ok &&
    parsedWeight.ok
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
  // What customs ask at the door for the goods at their price (not our fee) and the shipping.
  const landed =
    estimate && parsedPrice.ok && parsedPrice.value !== null && parsedCount.ok
      ? importEstimateFor(rules, country, {
          goodsJpy: parsedPrice.value * parsedCount.value,
          shippingJpy: estimate.shipping,
          categories: 1,
          rates: customsRates,
        })
      : null
  const warnings = landed
    ? ruleWarnings({
        rule: rules.rules[country]?.rule ?? null,
        estimate: landed.estimate,
        shipmentsThisYear: 0,
        valueThisYear: 0,
        unitsOfOneItem: parsedCount.ok ? parsedCount.value : 1,
      }).filter((warning) => PARCEL_WARNINGS.has(warning.kind))
    : []

  const chooseCountry = (next: string) => {
    setCountry(next)
    // A method the new country cannot use gives way to one it can (as the server does without JS).
    const replacement = usableMethod(rules, next, preferredMethod)
    if (replacement && replacement !== method) {
      setMethod(replacement)
      setWeight(weightForReplacedMethod(replacement, weight))
    }
  }

  return (
    <section aria-labelledby="quote-heading" className="space-y-4 rounded-lg border border-slate-200 p-5">
      <div>
        <h2 id="quote-heading" className="text-xl font-bold text-slate-900">
          {t('calculator.quote.heading')}
        </h2>
        <p className="mt-1 text-sm text-slate-700">{t('calculator.quote.lead')}</p>
      </div>
      {previewHosts ? (
        <div className="space-y-2">
          <FormField id="quote-link" label={t('calculator.quote.link')} hint={t('calculator.quote.linkHint')}>
            {(control) => (
              <input
                {...control}
                type="url"
                inputMode="url"
                autoComplete="off"
                maxLength={2000}
                value={link}
                onChange={(event) => setLink(event.currentTarget.value)}
                className={inputClass}
              />
            )}
          </FormField>
          <div aria-live="polite">{preview ? <LinkPreviewCard preview={preview} /> : null}</div>
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <CountryField value={country} countryNames={countryNames} onChange={chooseCountry} />
        <PriceField
          id="quote-price"
          name={QUERY_KEYS.quotePrice}
          label={t('calculator.quote.price')}
          value={price}
          error={parsedPrice.ok ? null : parsedPrice.error}
          language={language}
          onChange={typePrice}
        />
        <ItemCountField value={count} error={parsedCount.ok ? null : parsedCount.error} onChange={setCount} />
        <MethodChoice
          name={QUERY_KEYS.quoteMethod}
          legend={t('calculator.quote.method')}
          value={method}
          onChange={(next) => {
            setMethod(next)
            setPreferredMethod(next)
            setWeight(String(WEIGHT_LIMITS[next].defaultG))
          }}
          availability={{ choices, language }}
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
        landed={landed}
        warnings={warnings}
        settings={settings}
        language={language}
        currency={currency}
      />
    </section>
  )
}

/** The destination: the named countries with direct shipping, those by courier through the USA, every other. */
function CountryField({
  value,
  countryNames,
  onChange,
}: {
  value: string
  countryNames: Record<string, string>
  onChange: (country: string) => void
}) {
  const { t } = useTranslation()
  const groups = [
    { key: 'directGroup', codes: DIRECT },
    { key: 'courierGroup', codes: VIA_USA },
    { key: 'otherGroup', codes: Object.keys(countryNames).filter((code) => !NAMED.has(code)) },
  ] as const
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
          {groups.map((group) => (
            <optgroup key={group.key} label={t(`calculator.quote.${group.key}`)}>
              {group.codes.map((code) => (
                <option key={code} value={code}>
                  {countryNames[code] ?? code}
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

/**
 * The estimate's lines and total (or a prompt for the price), what the destination's customs add
 * at the door (app/components/landed-cost), and its announcement.
 */
function QuoteResult({
  estimate,
  noPriceYet,
  countryName,
  landed,
  warnings,
  settings,
  language,
  currency,
}: {
  estimate: Estimate | null
  /** No price typed yet (nor a wrong one): the prompt shows. */
  noPriceYet: boolean
  /** The chosen destination's name, for the courier note. */
  countryName: string
  landed: FrozenImportEstimate | null
  warnings: readonly RuleWarning[]
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
          {landed ? (
            <ImportEstimate
              frozen={landed}
              paidJpy={estimate.grandTotal}
              currency={currency}
              rates={settings.yenRates}
              language={language}
              warnings={warnings}
              id="quote-import"
            />
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
