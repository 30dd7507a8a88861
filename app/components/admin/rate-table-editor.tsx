import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { Form, useNavigation } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { formatMoney, formatNumber } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { REGIONS, type ShippingMethod, WEIGHT_LIMITS } from '#core/pricing/pricing.ts'
import {
  RATE_FORM_COLUMNS,
  type RateFormColumn,
  type RateFormRow,
  type RatePreview,
} from '#core/pricing/rate-tables.ts'

/**
 * The shipping rate editor's two steps for one method (app/routes/admin/rates.tsx): the grid
 * (one row per weight ceiling, spare empty rows to add, a Remove box per row; no JavaScript
 * needed), and the preview of a change with Confirm / Back to editing. Errors are keys of
 * `adminForm.errors`, on the cell or on the whole table.
 */

type EditorFields = { method: string; version: string; step: string; rows: RateFormRow[] }

const cellClass =
  'block min-h-11 w-28 rounded-md border border-slate-400 bg-white px-2 text-right text-base text-slate-900 aria-invalid:border-red-700'

export function RateTableEditor({
  method,
  version,
  rows: initialRows,
  lastResult,
}: {
  method: ShippingMethod
  version: string
  rows: RateFormRow[]
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const [form, fields] = useForm<EditorFields>({
    id: `rates-${method}`,
    lastResult,
    defaultValue: { method, version, step: 'preview', rows: initialRows },
    // Checked on the server, which also puts the rows in order and compares them with today's.
    shouldValidate: 'onSubmit',
  })
  const rows = fields.rows.getFieldList()
  const methodName = t(`adminRates.methods.${method}`)
  const { maxG } = WEIGHT_LIMITS[method]
  const tableError = fields.rows.errors?.[0]
  const formError = form.errors?.[0]
  const hasCellErrors = Object.keys(form.allErrors).some((name) => name.startsWith(`${fields.rows.name}[`))
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="method" value={method} />
      <input type="hidden" name="version" key={version} defaultValue={version} />
      <FormAlert id={form.errorId} look="box" weight="normal">
        {errorText(t, formError)}
      </FormAlert>
      {hasCellErrors ? <FormAlert look="box" title={t('adminForm.errorSummary')} /> : null}
      {/* Wider than a phone: the grid scrolls sideways, and can be scrolled from the keyboard. */}
      <section
        aria-label={t('adminRates.tableCaption', { method: methodName })}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take keyboard focus
        tabIndex={0}
        className="overflow-x-auto rounded-lg border border-slate-200"
      >
        <table className="min-w-full text-sm">
          <caption className="sr-only">{t('adminRates.tableCaption', { method: methodName })}</caption>
          <thead className="bg-slate-50 text-left text-slate-900">
            <tr>
              {RATE_FORM_COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-2 py-2 font-semibold">
                  {columnName(t, column)}
                </th>
              ))}
              <th scope="col" className="px-2 py-2 font-semibold">
                {t('adminRates.remove')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <RateRow key={row.key} row={row} index={index} />
            ))}
          </tbody>
        </table>
      </section>
      <FormAlert id={fields.rows.errorId}>
        {errorTextIn(t, 'adminForm.errors', tableError, { max: maxG })}
      </FormAlert>
      <p className="text-sm text-slate-700">{t('adminRates.spareHint')}</p>
      <button
        type="submit"
        name="step"
        value="preview"
        disabled={navigation.state === 'submitting'}
        className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900 disabled:opacity-60"
      >
        {t('adminRates.preview')}
      </button>
    </Form>
  )
}

/** One row of the grid: a cell per column, with its error, and the Remove box. */
function RateRow({ row, index }: { row: FieldMetadata<RateFormRow, EditorFields>; index: number }) {
  const { t } = useTranslation()
  const cells = row.getFieldset()
  return (
    <tr className="border-t border-slate-200 align-top">
      {RATE_FORM_COLUMNS.map((column) => {
        const cell = cells[column]
        const error = cell.errors?.[0]
        return (
          <td key={column} className="px-2 py-2">
            <input
              {...getInputProps(cell, { type: 'text', ariaAttributes: false })}
              aria-label={t('adminRates.cellLabel', {
                column: columnName(t, column),
                row: index + 1,
              })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? cell.errorId : undefined}
              inputMode="numeric"
              autoComplete="off"
              className={cellClass}
            />
            {error ? (
              <p id={cell.errorId} className="mt-1 w-28 text-xs font-medium text-red-800">
                {errorTextIn(t, 'adminForm.errors', error)}
              </p>
            ) : null}
          </td>
        )
      })}
      <td className="px-2 py-2">
        <input
          {...getInputProps(cells.remove, { type: 'checkbox', ariaAttributes: false })}
          aria-label={t('adminRates.cellLabel', {
            column: t('adminRates.remove'),
            row: index + 1,
          })}
          className="h-6 w-6"
        />
      </td>
    </tr>
  )
}

/** A column's heading: the weight ceiling, or a region. */
function columnName(t: TFunction, column: RateFormColumn) {
  return column === 'ceilingG' ? t('adminRates.ceiling') : t(`adminRates.regions.${column}`)
}

/** Today's prices against the new ones on sample weights, then Confirm (saves) or Back to editing. */
export function RateChangePreview({
  method,
  version,
  rows,
  preview,
  conflict,
  language,
}: {
  method: ShippingMethod
  version: string
  rows: RateFormRow[]
  preview: RatePreview
  conflict: boolean
  language: Language
}) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const methodName = t(`adminRates.methods.${method}`)
  const grams = (list: number[]) =>
    list.length === 0
      ? t('adminRates.none')
      : list.map((weight) => t('adminRates.grams', { weight: formatNumber(weight, language) })).join(', ')
  const unchanged = preview.added.length + preview.removed.length + preview.changed.length === 0
  return (
    <div className="space-y-4">
      {conflict ? (
        <FormAlert tone="conflict" look="box" title={t('adminRates.conflictTitle')}>
          {t('errors.reasons.ratesChanged')}
        </FormAlert>
      ) : null}
      <h3 className="text-lg font-semibold text-slate-900">
        {t('adminRates.previewTitle', { method: methodName })}
      </h3>
      <p className="text-slate-700">{t('adminRates.previewLead')}</p>
      <p className="text-slate-900" data-testid={`rates-changes-${method}`}>
        {unchanged
          ? t('adminRates.noChange')
          : t('adminRates.changes', {
              added: grams(preview.added),
              removed: grams(preview.removed),
              changed: grams(preview.changed),
            })}
      </p>
      <RatePreviewTable method={method} samples={preview.samples} language={language} />
      <Form method="post" className="flex flex-wrap gap-3">
        <input type="hidden" name="method" value={method} />
        <input type="hidden" name="version" value={version} />
        {rows.map((row, index) =>
          RATE_FORM_COLUMNS.map((column) => (
            <input
              key={`${row.ceilingG}-${column}`}
              type="hidden"
              name={`rows[${index}].${column}`}
              value={row[column]}
            />
          )),
        )}
        {unchanged ? null : (
          <button
            type="submit"
            name="step"
            value="save"
            disabled={navigation.state === 'submitting'}
            className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900 disabled:opacity-60"
          >
            {t('adminRates.confirm')}
          </button>
        )}
        <button
          type="submit"
          name="step"
          value="edit"
          className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-5 font-semibold text-slate-900 hover:bg-slate-100"
        >
          {t('adminRates.back')}
        </button>
      </Form>
    </div>
  )
}

/** Today's price and the new one for each sample weight and region; the ones that change in bold. */
function RatePreviewTable({
  method,
  samples,
  language,
}: {
  method: ShippingMethod
  samples: RatePreview['samples']
  language: Language
}) {
  const { t } = useTranslation()
  const methodName = t(`adminRates.methods.${method}`)
  const yen = (amount: number | null) =>
    amount === null ? t('adminRates.noPrice') : formatMoney(amount, 'JPY', language)
  return (
    <section
      aria-label={t('adminRates.previewCaption', { method: methodName })}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take keyboard focus
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-200"
    >
      <table className="min-w-full text-sm">
        <caption className="sr-only">{t('adminRates.previewCaption', { method: methodName })}</caption>
        <thead className="bg-slate-50 text-left text-slate-900">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t('adminRates.weight')}
            </th>
            {REGIONS.map((region) => (
              <th key={region} scope="col" className="px-3 py-2 font-semibold">
                {t(`adminRates.regions.${region}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {samples.map((sample) => (
            <tr key={sample.weightG} className="border-t border-slate-200">
              <th scope="row" className="px-3 py-2 text-left font-semibold whitespace-nowrap text-slate-900">
                {t('adminRates.grams', { weight: formatNumber(sample.weightG, language) })}
              </th>
              {REGIONS.map((region) => {
                const { before, after } = sample.prices[region]
                const differs = before !== after
                return (
                  <td
                    key={region}
                    className={`px-3 py-2 whitespace-nowrap ${differs ? 'font-semibold text-slate-900' : 'text-slate-700'}`}
                  >
                    {yen(before)} → {yen(after)}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
