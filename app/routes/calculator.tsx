import { useTranslation } from 'react-i18next'
import { useLoaderData } from 'react-router'
import { CalculatorForm, type CalculatorFormProps } from '#app/components/calculator/calculator-form.tsx'
import { readCalculatorState } from '#app/components/calculator/calculator-state.ts'
import { rulesForPage } from '#app/components/calculator/page-rules.ts'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { Island } from '#app/islands/island.tsx'
import { documentPage } from '#app/lib/page-kind.ts'
import { useRootData } from '#app/lib/root-data.ts'
import { areas } from '#app/locales/areas.ts'
import { countryOptions } from '#core/customers/countries.ts'
import { customsRatesOf } from '#core/landed-cost/landed-cost.ts'
import type { Route } from './+types/calculator.ts'

// The rate tables and the import rules in effect come with the page; every figure is then
// computed in the browser with the same core/pricing and core/landed-cost code the server uses,
// with no request per keystroke. Without JavaScript the form is a GET to this page, and the
// server renders the same figures from the query. The page is cached (server/page-cache.ts) by
// path, query, language and currency: nothing here reads the visitor's session.

export const handle = { ...areas('public'), ...documentPage }

export async function loader({ request, context }: Route.LoaderArgs) {
  const { shippingRates, importRules, settings, language } = context.get(requestContext)
  const [{ tables }, inEffect, values] = await Promise.all([
    shippingRates.get(),
    importRules.inEffect(),
    settings.get(),
  ])
  const countryNames = Object.fromEntries(countryOptions(language).map(({ code, name }) => [code, name]))
  return {
    tables,
    countryNames,
    rules: rulesForPage(inEffect, language),
    customsRates: customsRatesOf(values),
    initial: readCalculatorState(new URL(request.url).searchParams, inEffect),
  }
}

export default function CalculatorRoute() {
  const { t } = useTranslation()
  const { tables, countryNames, rules, customsRates, initial } = useLoaderData<typeof loader>()
  const root = useRootData()
  if (!root) return null
  const { language, currency, settings } = root
  const props: CalculatorFormProps = {
    tables,
    countryNames,
    rules,
    initial,
    settings: {
      serviceFeeJpy: settings.serviceFeeJpy,
      taxRate: settings.taxRate,
      yenRates: settings.yenRates,
      customsRates,
      freeStorageDays: settings.freeStorageDays,
      storageFeePerDayJpy: settings.storageFeePerDayJpy,
      previewHosts: settings.previewHosts,
    },
    language,
    currency,
  }

  return (
    <>
      <PageMeta title={t('calculator.title')} description={t('calculator.description')} />
      <PageIntro heading={t('calculator.heading')} lead={t('calculator.lead')}>
        <p className="mt-4 max-w-2xl rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {t('calculator.disclaimer')}
        </p>
      </PageIntro>
      {/* The page is a document; only the form hydrates (app/islands/calculator.client.tsx). */}
      <Island name="calculator" props={props} strings={['calculator', 'landed', 'linkPreview']}>
        <CalculatorForm {...props} />
      </Island>
    </>
  )
}
