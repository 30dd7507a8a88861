import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import { MethodForm } from '#app/components/admin/import-rule-editor.tsx'
import { inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDay } from '#app/lib/dates.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { countryName, countryOptions, isCountryCode } from '#core/customers/countries.ts'
import { NewMethodFormSchema } from '#core/landed-cost/import-rule-form.ts'
import { ruleInEffect } from '#core/landed-cost/import-rules.ts'
import { intlLocale } from '#core/money/money.ts'
import { SHIPPING_METHODS } from '#core/pricing/pricing.ts'
import type { Route } from './+types/import-rules.ts'

// The import rules (admins only, issue 30): every country with a rule (the one in effect today,
// since when, seed data or staff's), and every country whose shipping methods are restricted; a
// country without rules is listed only for its method rows. Below, a country's page to open (to
// add its first rule) and a method restriction for a country that has none yet.

export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor } = getServiceContext(context)
  // "Open its page" (a GET form, so it works without JavaScript).
  const open = new URL(request.url).searchParams.get('open')?.toUpperCase()
  if (isCountryCode(open)) throw redirect(`/admin-dashboard/import-rules/${open}`)
  const { importRules, language } = context.get(requestContext)
  const [history, today] = await Promise.all([importRules.history(actor), importRules.inEffect()])
  const dayText = japanDay(language)
  const countries = new Set([
    ...history.versions.map((version) => version.country),
    ...history.methods.map((row) => row.country),
  ])
  const collator = new Intl.Collator(intlLocale(language))
  const rows = [...countries]
    .map((country) => {
      const versions = history.versions.filter(
        (version) => version.country === country && version.rule !== null,
      )
      const current = ruleInEffect(versions, today.day)
      return {
        country,
        name: countryName(country, language),
        rule: current
          ? {
              since: dayText(current.effectiveFrom),
              taxName: current.rule?.taxName ?? '',
              isSeed: current.isSeed,
            }
          : null,
        methods: history.methods
          .filter((row) => row.country === country)
          .map((row) => ({
            method: row.method,
            available: row.available,
            since: dayText(row.effectiveFrom),
          })),
      }
    })
    .sort((a, b) => collator.compare(a.name, b.name))
  return {
    rows,
    day: today.day,
    countries: countryOptions(language),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = getServiceContext(context)
  const { importRules } = context.get(requestContext)
  const formData = await request.formData().catch(() => new FormData())
  const submission = parseSubmission(formData, { schema: NewMethodFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { country, ...input } = submission.value
  if (!isCountryCode(country))
    return data(
      { result: submission.reply({ fieldErrors: { country: ['importRules.errors.country'] } }) },
      { status: 400 },
    )
  try {
    await importRules.setMethod(services, { country, ...input })
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirectWithNotice(context, `/admin-dashboard/import-rules/${country}`, 'destinationMethodSaved')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const linkClass = 'font-semibold text-red-800 underline underline-offset-4'

export default function ImportRulesRoute() {
  const { t } = useTranslation()
  const { rows, day, countries } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const methodName = (method: string) =>
    (SHIPPING_METHODS as readonly string[]).includes(method)
      ? t(`adminRates.methods.${method as 'economic'}`)
      : method
  return (
    <section className="max-w-5xl">
      <PageMeta title={t('importRules.title')} description={t('importRules.lead')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('importRules.title')}</h1>
      <p className="mt-3 max-w-3xl text-slate-700">{t('importRules.lead')}</p>
      <div className="mt-8 overflow-x-auto rounded-lg border border-slate-200">
        <table className="min-w-full text-sm" data-testid="import-rules">
          <caption className="sr-only">{t('importRules.listCaption')}</caption>
          <thead className="bg-slate-50 text-left text-slate-900">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                {t('importRules.columns.country')}
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                {t('importRules.columns.rule')}
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                {t('importRules.columns.origin')}
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                {t('importRules.columns.methods')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.country} className="border-t border-slate-200 align-top">
                <th scope="row" className="px-3 py-2 text-left">
                  <Link
                    to={`/admin-dashboard/import-rules/${row.country}`}
                    className={`inline-flex min-h-11 items-center ${linkClass}`}
                    aria-label={t('importRules.open', { country: row.name })}
                  >
                    {row.name}
                  </Link>
                </th>
                <td className="px-3 py-2 text-slate-900">
                  {row.rule ? t('importRules.since', { date: row.rule.since }) : t('importRules.noRule')}
                </td>
                <td className="px-3 py-2 text-slate-700">
                  {row.rule ? (row.rule.isSeed ? t('importRules.seed') : t('importRules.staff')) : null}
                </td>
                <td className="px-3 py-2 text-slate-900">
                  {row.methods.length === 0 ? (
                    t('importRules.allMethods')
                  ) : (
                    <ul className="space-y-1">
                      {row.methods.map((method) => (
                        <li key={method.method}>
                          {method.available
                            ? t('importRules.methodNoted', { method: methodName(method.method) })
                            : t('importRules.methodUnavailable', { method: methodName(method.method) })}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <section aria-labelledby="other-heading" className="mt-10 space-y-3">
        <h2 id="other-heading" className="text-2xl font-bold text-slate-900">
          {t('importRules.other.title')}
        </h2>
        <p className="text-slate-700">{t('importRules.other.lead')}</p>
        <OpenCountry countries={countries} />
      </section>

      <section aria-labelledby="new-method-heading" className="mt-10 space-y-3">
        <h2 id="new-method-heading" className="text-2xl font-bold text-slate-900">
          {t('importRules.newMethod.title')}
        </h2>
        <p className="text-slate-700">{t('importRules.newMethod.lead')}</p>
        <MethodForm
          id="new-method"
          method={null}
          countries={countries}
          initial={{
            country: '',
            method: 'economic',
            available: 'no',
            note: { es: '', en: '' },
            source: '',
            effectiveFrom: day,
          }}
          lastResult={answer?.result}
          submitText={t('importRules.newMethod.submit')}
        />
      </section>
    </section>
  )
}

/** A plain GET form: a country's page, where its first rule is added. */
function OpenCountry({ countries }: { countries: { code: string; name: string }[] }) {
  const { t } = useTranslation()
  return (
    <Form method="get" action="/admin-dashboard/import-rules" className="flex flex-wrap items-end gap-4">
      <div className="space-y-1">
        <label htmlFor="open-country" className="block text-sm font-medium text-slate-800">
          {t('importRules.other.country')}
        </label>
        <select id="open-country" name="open" required className={`${inputClass} w-auto max-w-full`}>
          <option value="">{t('importRules.other.choose')}</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900"
      >
        {t('importRules.other.submit')}
      </button>
    </Form>
  )
}
