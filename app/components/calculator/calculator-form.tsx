import { useTranslation } from 'react-i18next'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import type { DestinationRules } from '#core/landed-cost/destination-rules.ts'
import type { CustomsRates } from '#core/landed-cost/landed-cost.ts'
import type { YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import type { RateTables } from '#core/pricing/pricing.ts'
import type { CalculatorState } from './calculator-state.ts'
import { PurchaseCalculator } from './purchase-calculator.tsx'
import { QuoteSimulator } from './quote-simulator.tsx'
import { ShippingCalculator } from './shipping-calculator.tsx'

/**
 * Everything the calculator's form needs, as plain data: the page renders it on the server and the
 * island hydrates it in the browser from the same JSON (app/islands/calculator.client.tsx).
 */
export type CalculatorFormProps = {
  tables: RateTables
  /** Every country we ship to, code → name in the page's language, sorted by name. */
  countryNames: Record<string, string>
  /** The import rules and methods per destination in effect, texts in the page's language only. */
  rules: DestinationRules
  initial: CalculatorState
  settings: {
    serviceFeeJpy: number
    taxRate: number
    yenRates: YenRates
    /** The rates import thresholds are read with (core/landed-cost `customsRatesOf`). */
    customsRates: CustomsRates
    freeStorageDays: number
    storageFeePerDayJpy: number
    /** The shops whose pasted links are read (issue 31). */
    previewHosts: readonly string[]
  }
  language: Language
  currency: Currency
}

/**
 * The three calculators in one GET form. Without JavaScript the form goes to this page and the
 * server renders the same figures from the query; hydrated, every figure is computed as the
 * visitor types, with the same core/pricing code, and the Calculate button is gone.
 */
export function CalculatorForm({
  tables,
  countryNames,
  rules,
  initial,
  settings,
  language,
  currency,
}: CalculatorFormProps) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const pricing = {
    serviceFeeJpy: settings.serviceFeeJpy,
    taxRate: settings.taxRate,
    yenRates: settings.yenRates,
  }
  return (
    <form
      method="get"
      action="/calculator"
      className="mx-auto max-w-6xl space-y-6 px-4"
      onSubmit={(event) => hydrated && event.preventDefault()}
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <PurchaseCalculator
          initialPrice={initial.price}
          settings={pricing}
          language={language}
          currency={currency}
        />
        <ShippingCalculator
          initial={{
            region: initial.region,
            method: initial.method,
            weight: initial.weight,
            storageItems: initial.storageItems,
            storageDays: initial.storageDays,
          }}
          storage={{
            freeDays: settings.freeStorageDays,
            feePerDayJpy: settings.storageFeePerDayJpy,
            taxRate: settings.taxRate,
          }}
          tables={tables}
          rules={rules}
          rates={settings.yenRates}
          language={language}
          currency={currency}
        />
      </div>
      <QuoteSimulator
        initial={{
          country: initial.country,
          price: initial.quotePrice,
          count: initial.quoteCount,
          method: initial.quoteMethod,
          weight: initial.quoteWeight,
        }}
        countryNames={countryNames}
        tables={tables}
        settings={pricing}
        rules={rules}
        customsRates={settings.customsRates}
        previewHosts={hydrated ? settings.previewHosts : null}
        language={language}
        currency={currency}
      />
      {hydrated ? null : (
        <button
          type="submit"
          className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t('calculator.calculate')}
        </button>
      )}
    </form>
  )
}
