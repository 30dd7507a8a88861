import type { SubmissionResult } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, useActionData, useLoaderData } from 'react-router'
import { RateChangePreview, RateTableEditor } from '#app/components/admin/rate-table-editor.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { formatNumber } from '#core/money/money.ts'
import { type RateRow, SHIPPING_METHODS, type ShippingMethod, WEIGHT_LIMITS } from '#core/pricing/pricing.ts'
import {
  BLANK_ROW,
  previewRateChange,
  type RateFormRow,
  type RatePreview,
  RateTableFormSchema,
  rateFormRows,
  SPARE_ROWS,
} from '#core/pricing/rate-tables.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Route } from './+types/rates.ts'

// The shipping rate tables (admins only): edit a method's grid, preview the change on sample
// weights against today's prices, confirm to save it (one transaction, audited, every process's
// price caches dropped: core/pricing/shipping-rates-service.ts `replace`). Each step is a form
// post, so it all works without JavaScript.

const withSpareRows = (rows: RateFormRow[]) => [
  ...rows,
  ...Array.from({ length: SPARE_ROWS }, () => BLANK_ROW),
]

export async function loader({ context }: Route.LoaderArgs) {
  const { actor } = getServiceContext(context)
  const { shippingRates, language } = context.get(requestContext)
  const snapshot = await shippingRates.snapshot(actor)
  return {
    language,
    tables: SHIPPING_METHODS.map((method) => ({
      method,
      version: snapshot.versions[method],
      rows: withSpareRows(rateFormRows(snapshot.tables[method])),
    })),
  }
}

type Answer = {
  method: ShippingMethod | null
  /** The grid again (with the sender's rows and any errors), or the preview of a valid change. */
  result: SubmissionResult<string[]> | undefined
  preview: { version: string; rows: RateFormRow[]; change: RatePreview; conflict: boolean } | null
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = getServiceContext(context)
  const { shippingRates } = context.get(requestContext)
  const formData = await request.formData().catch(() => new FormData())
  const method = SHIPPING_METHODS.find((candidate) => candidate === formData.get('method')) ?? null
  const submission = parseSubmission(formData, { schema: RateTableFormSchema })
  if (submission.status !== 'success')
    return data({ method, result: submission.reply(), preview: null } satisfies Answer, { status: 400 })
  const { step, rows, version } = submission.value
  const table = submission.value.method

  // Today's table and its version, against which the change is shown (and then saved).
  const previewAgainstToday = async (conflict: boolean): Promise<Answer['preview']> => {
    const snapshot = await shippingRates.snapshot(getServiceContext(context).actor)
    return {
      version: snapshot.versions[table],
      rows: rateFormRows(rows),
      change: previewRateChange(table, snapshot.tables[table], rows),
      conflict: conflict || snapshot.versions[table] !== version,
    }
  }

  if (step === 'edit') {
    // Back to the grid with the rows in order, and spare rows again.
    const result = submission.reply()
    result.initialValue = { ...result.initialValue, rows: withSpareRows(rateFormRows(rows)) }
    return { method: table, result, preview: null } satisfies Answer
  }
  if (step === 'preview')
    return { method: table, result: undefined, preview: await previewAgainstToday(false) } satisfies Answer
  try {
    await shippingRates.replace(services, { method: table, rows: rows as RateRow[], version })
    return redirectWithNotice(context, '/admin-dashboard/rates', 'ratesSaved')
  } catch (error) {
    // Overtaken by another admin's save: the change is shown again against the table as it is now.
    const preview = isAppError(error, 'conflict') ? await previewAgainstToday(true) : null
    return formFailure(error, submission, { method: table, preview })
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function RatesRoute() {
  const { t } = useTranslation()
  const { tables, language } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <section>
      <PageMeta title={t('adminRates.title')} description={t('adminRates.lead')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('adminRates.title')}</h1>
      <p className="mt-3 max-w-3xl text-slate-700">{t('adminRates.lead')}</p>
      {tables.map(({ method, version, rows }) => {
        const answer = actionData?.method === method ? actionData : null
        const { minG, maxG } = WEIGHT_LIMITS[method]
        return (
          <section key={method} aria-labelledby={`rates-${method}-heading`} className="mt-10 space-y-3">
            <h2 id={`rates-${method}-heading`} className="text-2xl font-bold text-slate-900">
              {t(`adminRates.methods.${method}`)}
            </h2>
            <p className="text-slate-700">
              {t('adminRates.range', {
                min: formatNumber(minG, language),
                max: formatNumber(maxG, language),
              })}
            </p>
            {answer?.preview ? (
              <RateChangePreview
                method={method}
                version={answer.preview.version}
                rows={answer.preview.rows}
                preview={answer.preview.change}
                conflict={answer.preview.conflict}
                language={language}
              />
            ) : (
              // A new version (a save) or a new answer starts the grid afresh.
              <RateTableEditor
                key={`${version}-${answer ? 'answer' : 'page'}`}
                method={method}
                version={version}
                rows={rows}
                lastResult={answer?.result}
              />
            )}
          </section>
        )
      })}
    </section>
  )
}
