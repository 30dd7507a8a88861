import { useTranslation } from 'react-i18next'
import { data, Link, useActionData, useLoaderData } from 'react-router'
import { ImportRuleEditor, MethodForm } from '#app/components/admin/import-rule-editor.tsx'
import { bandLines, ruleAmount } from '#app/components/admin/import-rule-text.ts'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDay } from '#app/lib/dates.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { japanTimeFormatter } from '#app/lib/japan-time.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { countryName, isCountryCode } from '#core/customers/countries.ts'
import {
  ImportRuleFormSchema,
  importRuleFormFields,
  MethodFormSchema,
} from '#core/landed-cost/import-rule-form.ts'
import { type ImportRule, ruleInEffect } from '#core/landed-cost/import-rules.ts'
import { formatNumber } from '#core/money/money.ts'
import { SHIPPING_METHODS, type ShippingMethod } from '#core/pricing/pricing.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Route } from './+types/import-rule.ts'

// One destination's import rules (admins only, issue 30): the rule in effect today in words, its
// note and what is not confirmed in both languages, its sources, every version (newest first),
// "Add a version" prefilled from the one in effect, and a form per shipping method. Each save is
// audited by the service (core/landed-cost/import-rules-service.ts), which drops every process's
// caches: the next estimate uses it. A version is added, never changed.

function countryOf(params: { country: string }): string {
  const country = params.country.toUpperCase()
  if (!isCountryCode(country)) throw new AppError('not_found', 'No such country')
  return country
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor } = getServiceContext(context)
  const { importRules, language } = context.get(requestContext)
  const country = countryOf(params)
  const [history, today] = await Promise.all([importRules.history(actor), importRules.inEffect()])
  const day = today.day
  const versions = history.versions.filter((version) => version.country === country)
  const readable = versions.flatMap((version) => (version.rule ? [{ ...version, rule: version.rule }] : []))
  const current = ruleInEffect(readable, day)
  const format = japanTimeFormatter(language)
  const dayText = japanDay(language)
  const methods = history.methods.filter((row) => row.country === country)
  return {
    language,
    country,
    name: countryName(country, language),
    day,
    current: current
      ? {
          id: current.id,
          effectiveFrom: current.effectiveFrom,
          since: dayText(current.effectiveFrom),
          rule: current.rule,
        }
      : null,
    history: versions.map((version) => ({
      id: version.id,
      effectiveFrom: dayText(version.effectiveFrom),
      addedAt: format(version.createdAt),
      addedBy: version.isSeed ? null : version.createdBy,
      isSeed: version.isSeed,
      state: !version.rule
        ? ('unreadable' as const)
        : version.id === current?.id
          ? ('inEffect' as const)
          : version.effectiveFrom > day
            ? ('future' as const)
            : ('replaced' as const),
    })),
    form: importRuleFormFields(current?.rule ?? null, day),
    methods: SHIPPING_METHODS.map((method) => {
      const row = methods.find((candidate) => candidate.method === method)
      return {
        method,
        state: row ? { available: row.available, since: dayText(row.effectiveFrom) } : null,
        fields: {
          method,
          available: row && !row.available ? 'no' : 'yes',
          note: { ...(row?.note ?? { es: '', en: '' }) },
          source: row?.source ?? '',
          effectiveFrom: row?.effectiveFrom ?? day,
        },
      }
    }),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = getServiceContext(context)
  const { importRules } = context.get(requestContext)
  const country = countryOf(params)
  const formData = await request.formData().catch(() => new FormData())
  const path = `/admin-dashboard/import-rules/${country}`
  if (formData.get('intent') === 'method') {
    const method = SHIPPING_METHODS.find((candidate) => candidate === formData.get('method')) ?? null
    const submission = parseSubmission(formData, { schema: MethodFormSchema })
    if (submission.status !== 'success')
      return data({ form: 'method' as const, method, result: submission.reply() }, { status: 400 })
    try {
      await importRules.setMethod(services, { country, ...submission.value })
    } catch (error) {
      return formFailure(error, submission, { form: 'method' as const, method })
    }
    return redirectWithNotice(context, path, 'destinationMethodSaved')
  }
  const submission = parseSubmission(formData, { schema: ImportRuleFormSchema })
  if (submission.status !== 'success')
    return data({ form: 'rule' as const, method: null, result: submission.reply() }, { status: 400 })
  try {
    await importRules.addVersion(services, { country, ...submission.value })
  } catch (error) {
    return formFailure(error, submission, { form: 'rule' as const, method: null })
  }
  return redirectWithNotice(context, path, 'importRuleSaved')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const linkClass = 'font-semibold text-red-800 underline underline-offset-4'

export default function ImportRuleRoute() {
  const { t } = useTranslation()
  const { country, name, current, history, form, methods, language } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  return (
    <section className="max-w-5xl">
      <PageMeta
        title={t('importRules.countryTitle', { country: name })}
        description={t('importRules.lead')}
      />
      <p>
        <Link to="/admin-dashboard/import-rules" className={`inline-flex min-h-11 items-center ${linkClass}`}>
          {t('importRules.back')}
        </Link>
      </p>
      <h1 className="text-3xl font-bold text-slate-900">
        {t('importRules.countryTitle', { country: name })}
      </h1>

      <section aria-labelledby="in-effect-heading" className="mt-8 space-y-4">
        <h2 id="in-effect-heading" className="text-2xl font-bold text-slate-900">
          {t('importRules.inEffectTitle')}
        </h2>
        {current ? (
          <RuleInEffect rule={current.rule} since={current.since} language={language} />
        ) : (
          <p className="text-slate-700">{t('importRules.noneInEffect')}</p>
        )}
      </section>

      <section aria-labelledby="history-heading" className="mt-10 space-y-3">
        <h2 id="history-heading" className="text-2xl font-bold text-slate-900">
          {t('importRules.historyTitle')}
        </h2>
        <div className="overflow-x-auto rounded-lg border border-slate-200">
          <table className="min-w-full text-sm" data-testid="rule-history">
            <caption className="sr-only">{t('importRules.historyCaption')}</caption>
            <thead className="bg-slate-50 text-left text-slate-900">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('importRules.history.effectiveFrom')}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('importRules.history.state')}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('importRules.history.addedBy')}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t('importRules.history.addedAt')}
                </th>
              </tr>
            </thead>
            <tbody>
              {history.map((version) => (
                <tr
                  key={version.id}
                  className={`border-t border-slate-200 ${version.state === 'inEffect' ? 'bg-emerald-50' : ''}`}
                >
                  <th scope="row" className="px-3 py-2 text-left font-semibold text-slate-900">
                    {version.effectiveFrom}
                  </th>
                  <td className="px-3 py-2 text-slate-900">
                    {version.state === 'inEffect' ? (
                      <strong>{t('importRules.history.inEffect')}</strong>
                    ) : version.state === 'future' ? (
                      t('importRules.history.from', { date: version.effectiveFrom })
                    ) : version.state === 'unreadable' ? (
                      t('importRules.history.unreadable')
                    ) : (
                      t('importRules.history.replaced')
                    )}
                  </td>
                  <td className="px-3 py-2 break-all text-slate-700">
                    {version.isSeed
                      ? t('importRules.history.seed')
                      : (version.addedBy ?? t('importRules.history.deletedAccount'))}
                  </td>
                  <td className="px-3 py-2 text-slate-700">{version.addedAt}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="add-heading" className="mt-10 space-y-3">
        <h2 id="add-heading" className="text-2xl font-bold text-slate-900">
          {t('importRules.form.title')}
        </h2>
        <p className="text-slate-700">{t('importRules.form.lead')}</p>
        <ImportRuleEditor
          key={current?.id ?? 'none'}
          country={country}
          initial={form}
          lastResult={answer?.form === 'rule' ? answer.result : undefined}
        />
      </section>

      <section aria-labelledby="methods-heading" className="mt-10 space-y-4">
        <h2 id="methods-heading" className="text-2xl font-bold text-slate-900">
          {t('importRules.methods.title')}
        </h2>
        <p className="text-slate-700">{t('importRules.methods.lead')}</p>
        {methods.map(({ method, state, fields }) => (
          <section
            key={method}
            aria-labelledby={`method-${method}-heading`}
            className="space-y-3 rounded-lg border border-slate-200 p-5"
          >
            <h3 id={`method-${method}-heading`} className="text-lg font-semibold text-slate-900">
              {t(`adminRates.methods.${method}`)}
            </h3>
            <p className="text-slate-900" data-testid={`method-${method}-state`}>
              {state === null
                ? t('importRules.methods.open')
                : state.available
                  ? t('importRules.methods.available', { date: state.since })
                  : t('importRules.methods.unavailable', { date: state.since })}
            </p>
            <MethodForm
              key={`${state?.available}-${state?.since}-${fields.note.es}`}
              id={`method-${method}`}
              method={method as ShippingMethod}
              initial={fields}
              lastResult={answer?.form === 'method' && answer.method === method ? answer.result : undefined}
              submitText={t('importRules.methods.save', { method: t(`adminRates.methods.${method}`) })}
            />
          </section>
        ))}
      </section>
    </section>
  )
}

/** The rule in effect: since when, its bands in words, its details, texts and sources. */
function RuleInEffect({ rule, since, language }: { rule: ImportRule; since: string; language: 'es' | 'en' }) {
  const { t } = useTranslation()
  const bands = bandLines(t, rule, language)
  const limit = (value: number | null, amount = false) =>
    value === null
      ? t('importRules.noLimit')
      : amount
        ? ruleAmount(value, rule.currency, language)
        : formatNumber(value, language)
  const details: [string, string][] = [
    [t('importRules.form.currency'), rule.currency],
    [t('importRules.form.valueBasis'), t(`importRules.valueBases.${rule.valueBasis}`)],
    [
      t('importRules.form.handlingFee'),
      ruleAmount(rule.handlingFeeMinor, rule.currency, language, { minor: true }),
    ],
    [t('importRules.form.collectedBy'), t(`importRules.collectors.${rule.collectedBy}`)],
    [t('importRules.form.taxName'), rule.taxName],
    [t('importRules.form.shipmentsPerYear'), limit(rule.shipmentsPerYear)],
    [t('importRules.form.valuePerYear'), limit(rule.valuePerYear, true)],
    [t('importRules.form.limitsApplyTo'), t(`importRules.limitsApply.${rule.limitsApplyTo}`)],
    [t('importRules.form.maxUnitsPerItem'), limit(rule.maxUnitsPerItem)],
    [t('importRules.form.taxIdRequired'), t(rule.taxIdRequired ? 'importRules.yes' : 'importRules.no')],
  ]
  const sources = rule.source
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  return (
    <div className="space-y-6">
      <p className="text-slate-700" data-testid="rule-since">
        {t('importRules.inEffectSince', { date: since })}
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200">
        <table className="min-w-full text-sm" data-testid="rule-bands">
          <caption className="sr-only">{t('importRules.bandsCaption')}</caption>
          <thead className="bg-slate-50 text-left text-slate-900">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                {t('importRules.band.value')}
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                {t('importRules.band.charges')}
              </th>
            </tr>
          </thead>
          <tbody>
            {bands.map((band) => (
              <tr key={band.value} className="border-t border-slate-200">
                <th
                  scope="row"
                  className="px-3 py-2 text-left font-semibold whitespace-nowrap text-slate-900"
                >
                  {band.value}
                </th>
                <td className="px-3 py-2 text-slate-900">{band.charges}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-2">
        {details.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm font-medium text-slate-700">{label}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-6 md:grid-cols-2">
        <Texts title={t('importRules.noteTitle')} texts={rule.note} empty={t('importRules.noNote')} />
        <Texts
          title={t('importRules.uncertainTitle')}
          texts={rule.uncertain}
          empty={t('importRules.nothingUncertain')}
        />
      </div>
      <div>
        <h3 className="text-lg font-semibold text-slate-900">{t('importRules.sources')}</h3>
        <ul className="mt-2 list-disc space-y-1 pl-6 text-sm">
          {sources.map((source) => (
            <li key={source} className="break-all">
              {isHttps(source) ? (
                <a href={source} rel="noreferrer" className={linkClass}>
                  {source}
                </a>
              ) : (
                source
              )}
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}

function Texts({ title, texts, empty }: { title: string; texts: { es: string; en: string }; empty: string }) {
  const { t } = useTranslation()
  return (
    <div>
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      {!texts.es && !texts.en ? (
        <p className="mt-2 text-slate-700">{empty}</p>
      ) : (
        <dl className="mt-2 space-y-2">
          <div>
            <dt className="text-sm font-medium text-slate-700">{t('importRules.inSpanish')}</dt>
            <dd className="whitespace-pre-line text-slate-900" lang="es">
              {texts.es}
            </dd>
          </div>
          <div>
            <dt className="text-sm font-medium text-slate-700">{t('importRules.inEnglish')}</dt>
            <dd className="whitespace-pre-line text-slate-900" lang="en">
              {texts.en}
            </dd>
          </div>
        </dl>
      )}
    </div>
  )
}

/** Only https addresses become links (a source is staff's text). */
function isHttps(source: string): boolean {
  try {
    return new URL(source).protocol === 'https:'
  } catch {
    return false
  }
}
