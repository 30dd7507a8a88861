import { useTranslation } from 'react-i18next'
import { Form, useLoaderData } from 'react-router'
import { readCalculatorState } from '#app/components/calculator/calculator-state.ts'
import { PurchaseCalculator } from '#app/components/calculator/purchase-calculator.tsx'
import { QuoteSimulator } from '#app/components/calculator/quote-simulator.tsx'
import { ShippingCalculator } from '#app/components/calculator/shipping-calculator.tsx'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { useRootData } from '#app/lib/root-data.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { areas } from '#app/locales/areas.ts'
import { intlLocale } from '#core/money/money.ts'
import { DESTINATIONS } from '#core/pricing/pricing.ts'
import type { Route } from './+types/calculator.ts'

// The rate tables come with the page; every figure is then computed in the browser with the
// same core/pricing code the server uses, with no request per keystroke. Without JavaScript
// the form is a GET to this page, and the server renders the same figures from the query.

export const handle = areas('public')

export async function loader({ request, context }: Route.LoaderArgs) {
  const { shippingRates, language } = context.get(requestContext)
  const { tables } = await shippingRates.get()
  const names = new Intl.DisplayNames([intlLocale(language)], { type: 'region' })
  const countryNames = Object.fromEntries(
    DESTINATIONS.filter((destination) => destination.code.length === 2).map((destination) => [
      destination.code,
      names.of(destination.code) ?? destination.code,
    ]),
  )
  return { tables, countryNames, initial: readCalculatorState(new URL(request.url).searchParams) }
}

export default function CalculatorRoute() {
  const { t } = useTranslation()
  const { tables, countryNames, initial } = useLoaderData<typeof loader>()
  const root = useRootData()
  const hydrated = useHydrated()
  if (!root) return null
  const { language, currency, settings } = root
  const pricing = {
    serviceFeeJpy: settings.serviceFeeJpy,
    taxRate: settings.taxRate,
    yenRates: settings.yenRates,
  }

  return (
    <>
      <PageMeta title={t('calculator.title')} description={t('calculator.description')} />
      <PageIntro heading={t('calculator.heading')} lead={t('calculator.lead')}>
        <p className="mt-4 max-w-2xl rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {t('calculator.disclaimer')}
        </p>
      </PageIntro>
      <Form
        method="get"
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
      </Form>
    </>
  )
}
