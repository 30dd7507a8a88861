import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { type ShippingReceiptTotals, shippingReceiptTotals } from '#core/billing/receipt-totals.ts'
import { type DestinationRules, methodsFor } from '#core/landed-cost/destination-rules.ts'
import type { YenRates } from '#core/money/money.ts'
import { formatMoney, formatPercent } from '#core/money/money.ts'
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
import { QUERY_KEYS, REGION_COUNTRY, usableMethod, weightForReplacedMethod } from './calculator-state.ts'
import { MethodChoice } from './method-choice.tsx'
import { YenWithLocal } from './money.tsx'
import { ResultList } from './result-list.tsx'
import { WeightField } from './weight-field.tsx'

/** A small whole number as typed ("3", " 12 "); null when it is not one within `max`. */
function count(value: string, max: number): number | null {
  const text = value.normalize('NFKC').trim()
  if (text === '') return 0
  if (!/^\d{1,5}$/.test(text)) return null
  const parsed = Number(text)
  return parsed <= max ? parsed : null
}

export const STORAGE_LIMITS = { items: 100, days: 3650 } as const

export function ShippingCalculator({
  initial,
  tables,
  rates,
  language,
  currency,
  storage,
  rules,
}: {
  initial: {
    region: Region
    method: ShippingMethod
    weight: string
    storageItems: string
    storageDays: string
  }
  tables: RateTables
  rates: YenRates
  language: Language
  currency: Currency
  /** The storage settings: free days and the daily fee per item, and the tax rate. */
  storage: StorageSettings
  /** The methods per destination in effect: the USA region offers what the USA can use. */
  rules: Pick<DestinationRules, 'methods'>
}) {
  const { t } = useTranslation()
  const [region, setRegion] = useState(initial.region)
  const [method, setMethod] = useState(initial.method)
  const [weight, setWeight] = useState(initial.weight)
  const [storageItems, setStorageItems] = useState(initial.storageItems)
  const [storageDays, setStorageDays] = useState(initial.storageDays)
  const parsedWeight = parseWeight(method, weight)
  const price = parsedWeight.ok ? shippingPrice(tables[method], region, parsedWeight.value) : null
  const items = count(storageItems, STORAGE_LIMITS.items)
  const days = count(storageDays, STORAGE_LIMITS.days)
  // Items kept past their free days pay the daily fee each, taxed: the same pricing as the
  // shipping receipt's (core/billing/receipt-totals.ts, docs/decisions/037).
  const storageLines =
    items && days ? Array.from({ length: items }, () => ({ days, feePerDayJpy: storage.feePerDayJpy })) : []
  const totals =
    price === null ? null : shippingReceiptTotals(price, storageLines, Math.round(storage.taxRate * 10_000))

  return (
    <section aria-labelledby="shipping-heading" className="space-y-4 rounded-lg border border-slate-200 p-5">
      <h2 id="shipping-heading" className="text-xl font-bold text-slate-900">
        {t('calculator.shipping.heading')}
      </h2>
      <RegionField
        value={region}
        onChange={(next) => {
          setRegion(next)
          const country = REGION_COUNTRY[next]
          const usable = country ? usableMethod(rules, country, method) : method
          if (usable && usable !== method) {
            setMethod(usable)
            setWeight(weightForReplacedMethod(usable, weight))
          }
        }}
      />
      <MethodChoice
        name={QUERY_KEYS.method}
        legend={t('calculator.shipping.method')}
        value={method}
        availability={
          REGION_COUNTRY[region]
            ? { choices: methodsFor(rules, REGION_COUNTRY[region]), language }
            : undefined
        }
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
      <StorageFields
        storage={storage}
        language={language}
        items={{ text: storageItems, invalid: items === null, onChange: setStorageItems }}
        days={{ text: storageDays, invalid: days === null, onChange: setStorageDays }}
      />
      <ShippingResult
        weightOk={parsedWeight.ok}
        price={price}
        totals={totals}
        items={items}
        days={days}
        storage={storage}
        language={language}
        currency={currency}
        rates={rates}
      />
    </section>
  )
}

type StorageSettings = { freeDays: number; feePerDayJpy: number; taxRate: number }

/** The destination region, as a select. */
function RegionField({ value, onChange }: { value: Region; onChange: (region: Region) => void }) {
  const { t } = useTranslation()
  return (
    <FormField id="region" label={t('calculator.shipping.region')}>
      {(control) => (
        <select
          {...control}
          name={QUERY_KEYS.region}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value as Region)}
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
  )
}

/** A count as typed, whether it is refused, and how to change it. */
type CountInput = { text: string; invalid: boolean; onChange: (text: string) => void }

/** How many items are kept past their free days, and for how many days. */
function StorageFields({
  storage,
  language,
  items,
  days,
}: {
  storage: StorageSettings
  language: Language
  items: CountInput
  days: CountInput
}) {
  const { t } = useTranslation()
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-slate-900">
        {t('calculator.shipping.storageLegend')}
      </legend>
      <p id="storage-hint" className="text-sm text-slate-700">
        {t('calculator.shipping.storageHint', {
          days: storage.freeDays,
          fee: formatMoney(storage.feePerDayJpy, 'JPY', language),
        })}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField
          id="storage-items"
          label={t('calculator.shipping.storageItems')}
          error={items.invalid ? t('calculator.errors.storageItems', { max: STORAGE_LIMITS.items }) : null}
        >
          {(control) => (
            <input
              {...control}
              name={QUERY_KEYS.storageItems}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              maxLength={8}
              value={items.text}
              onChange={(event) => items.onChange(event.currentTarget.value)}
              className={inputClass}
            />
          )}
        </FormField>
        <FormField
          id="storage-days"
          label={t('calculator.shipping.storageDays', { days: storage.freeDays })}
          error={days.invalid ? t('calculator.errors.storageDays', { max: STORAGE_LIMITS.days }) : null}
        >
          {(control) => (
            <input
              {...control}
              name={QUERY_KEYS.storageDays}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              maxLength={8}
              value={days.text}
              onChange={(event) => days.onChange(event.currentTarget.value)}
              className={inputClass}
            />
          )}
        </FormField>
      </div>
    </fieldset>
  )
}

/** The price (with storage, its tax and the total when items are kept), and its announcement. */
function ShippingResult({
  weightOk,
  price,
  totals,
  items,
  days,
  storage,
  language,
  currency,
  rates,
}: {
  weightOk: boolean
  price: number | null
  totals: ShippingReceiptTotals | null
  items: number | null
  days: number | null
  storage: StorageSettings
  language: Language
  currency: Currency
  rates: YenRates
}) {
  const { t } = useTranslation()
  const money = (amountJpy: number) => (
    <YenWithLocal amountJpy={amountJpy} currency={currency} language={language} rates={rates} />
  )
  return (
    <>
      {weightOk ? (
        price === null || totals === null ? (
          <p className="rounded-md bg-amber-50 p-4 font-medium text-amber-950">{t('calculator.noRate')}</p>
        ) : (
          <ResultList
            rows={[
              {
                label: t('calculator.shipping.price'),
                value: money(price),
                emphasis: totals.storageFeeJpy === 0,
              },
              ...(totals.storageFeeJpy > 0
                ? [
                    {
                      label: t('calculator.shipping.storage', {
                        count: items ?? 0,
                        days: days ?? 0,
                        fee: formatMoney(storage.feePerDayJpy, 'JPY', language),
                      }),
                      value: money(totals.storageFeeJpy),
                    },
                    {
                      label: t('calculator.shipping.storageTax', {
                        rate: formatPercent(storage.taxRate, language),
                      }),
                      value: money(totals.taxJpy),
                    },
                    { label: t('calculator.shipping.total'), value: money(totals.totalJpy), emphasis: true },
                  ]
                : []),
            ]}
          />
        )
      ) : null}
      <p role="status" className="sr-only">
        {totals === null
          ? ''
          : totals.storageFeeJpy > 0
            ? t('calculator.shipping.statusWithStorage', {
                price: formatMoney(totals.totalJpy, 'JPY', language),
              })
            : t('calculator.shipping.status', { price: formatMoney(totals.shippingJpy, 'JPY', language) })}
      </p>
    </>
  )
}
