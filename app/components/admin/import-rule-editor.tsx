import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import type { TFunction } from 'i18next'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, useNavigation } from 'react-router'
import { AdminFormAlert } from '#app/components/admin/admin-field.tsx'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import {
  BAND_CHECK_COLUMNS,
  BAND_TEXT_COLUMNS,
  type BandFormRow,
  type ImportRuleFormFields,
} from '#core/landed-cost/import-rule-form.ts'
import { COLLECTORS, RULE_CURRENCIES, RULE_LIMITS, VALUE_BASES } from '#core/landed-cost/import-rules.ts'
import type { ShippingMethod } from '#core/pricing/pricing.ts'

/**
 * The import rules' admin forms (app/routes/admin/import-rule.tsx, import-rules.tsx): a new
 * version of a country's rule (its bands as a grid like the rate editor's: spare rows to add, a
 * Remove box; no JavaScript needed) and a destination's shipping method. Field problems are keys:
 * `adminForm.errors` for the common ones, whole keys under `importRules.errors` for their own.
 */

/** A field's problem in words: a whole key (with a dot) as it is, else one of `adminForm.errors`. */
export function ruleFieldError(
  t: TFunction,
  key: string | null | undefined,
  values?: Record<string, unknown>,
) {
  if (!key) return null
  return key.includes('.') ? errorText(t, key) : errorTextIn(t, 'adminForm.errors', key, values)
}

const buttonClass =
  'inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900 disabled:opacity-60'
const cellClass =
  'block min-h-11 w-24 rounded-md border border-slate-400 bg-white px-2 text-right text-base text-slate-900 aria-invalid:border-red-700'

function TextField({
  meta,
  label,
  hint,
  max,
  multiline = false,
  inputMode,
  type = 'text',
}: {
  meta: FieldMetadata<string>
  label: string
  hint?: string
  max?: number
  multiline?: boolean
  inputMode?: 'numeric' | 'decimal' | 'text'
  type?: 'text' | 'date'
}) {
  const { t } = useTranslation()
  const error = ruleFieldError(t, meta.errors?.[0], { max })
  return (
    <FormField id={meta.id} label={label} hint={hint ?? null} error={error}>
      {(control) =>
        multiline ? (
          <textarea
            {...getTextareaProps(meta, { ariaAttributes: false })}
            {...control}
            rows={4}
            className={`${inputClass} py-2`}
          />
        ) : (
          <input
            {...getInputProps(meta, { type, ariaAttributes: false })}
            {...control}
            inputMode={inputMode}
            autoComplete="off"
            className={inputClass}
          />
        )
      }
    </FormField>
  )
}

function SelectField({
  meta,
  label,
  options,
}: {
  meta: FieldMetadata<string>
  label: string
  options: { value: string; text: string }[]
}) {
  const { t } = useTranslation()
  return (
    <FormField id={meta.id} label={label} error={ruleFieldError(t, meta.errors?.[0])}>
      {(control) => (
        <select {...getSelectProps(meta, { ariaAttributes: false })} {...control} className={inputClass}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      )}
    </FormField>
  )
}

function CheckField({ meta, label }: { meta: FieldMetadata<string>; label: string }) {
  const { t } = useTranslation()
  const error = ruleFieldError(t, meta.errors?.[0])
  return (
    <div className="flex flex-col justify-end">
      <label htmlFor={meta.id} className="flex min-h-11 items-center gap-3 text-slate-900">
        <input {...getInputProps(meta, { type: 'checkbox', ariaAttributes: false })} className="h-6 w-6" />
        {label}
      </label>
      {error ? <p className="text-sm font-medium text-red-800">{error}</p> : null}
    </div>
  )
}

function Fieldset({ legend, lead, children }: { legend: string; lead?: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-slate-200 p-5">
      <legend className="px-1 text-lg font-semibold text-slate-900">{legend}</legend>
      {lead ? <p className="text-sm text-slate-700">{lead}</p> : null}
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  )
}

/** "Add a version": the rule in effect as the starting point. */
export function ImportRuleEditor({
  country,
  initial,
  lastResult,
}: {
  country: string
  initial: ImportRuleFormFields
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const [form, fields] = useForm<ImportRuleFormFields>({
    id: `import-rule-${country}`,
    lastResult,
    defaultValue: initial,
    // Checked on the server, which also puts the bands in order.
    shouldValidate: 'onSubmit',
  })
  const bands = fields.bands.getFieldList()
  const note = fields.note.getFieldset()
  const uncertain = fields.uncertain.getFieldset()
  const formError = form.errors?.[0]
  const hasFieldErrors = Object.entries(form.allErrors).some(([name]) => name !== form.name)
  const bandsError = fields.bands.errors?.[0]
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <input type="hidden" name="intent" value="rule" />
      <AdminFormAlert
        conflict={null}
        failedTitle={t('importRules.form.failed')}
        formError={formError}
        fieldErrors={hasFieldErrors && form.status === 'error'}
      />
      <Fieldset legend={t('importRules.details')}>
        <TextField
          meta={fields.effectiveFrom}
          label={t('importRules.form.effectiveFrom')}
          hint={t('importRules.form.effectiveFromHint')}
          type="date"
        />
        <SelectField
          meta={fields.currency}
          label={t('importRules.form.currency')}
          options={RULE_CURRENCIES.map((currency) => ({ value: currency, text: currency }))}
        />
        <SelectField
          meta={fields.valueBasis}
          label={t('importRules.form.valueBasis')}
          options={VALUE_BASES.map((basis) => ({ value: basis, text: t(`importRules.valueBases.${basis}`) }))}
        />
        <TextField
          meta={fields.taxName}
          label={t('importRules.form.taxName')}
          hint={t('importRules.form.taxNameHint')}
          max={RULE_LIMITS.taxName}
        />
        <TextField meta={fields.handlingFee} label={t('importRules.form.handlingFee')} inputMode="decimal" />
        <SelectField
          meta={fields.collectedBy}
          label={t('importRules.form.collectedBy')}
          options={COLLECTORS.map((collector) => ({
            value: collector,
            text: t(`importRules.collectors.${collector}`),
          }))}
        />
      </Fieldset>
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-5">
        <legend className="px-1 text-lg font-semibold text-slate-900">
          {t('importRules.form.bandsTitle')}
        </legend>
        <p className="text-sm text-slate-700">{t('importRules.form.bandsLead')}</p>
        <section
          aria-label={t('importRules.form.bandsCaption')}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take keyboard focus
          tabIndex={0}
          className="overflow-x-auto rounded-lg border border-slate-200"
        >
          <table className="min-w-full text-sm">
            <caption className="sr-only">{t('importRules.form.bandsCaption')}</caption>
            <thead className="bg-slate-50 text-left text-slate-900">
              <tr>
                {[...BAND_TEXT_COLUMNS, ...BAND_CHECK_COLUMNS, 'remove' as const].map((column) => (
                  <th key={column} scope="col" className="px-2 py-2 font-semibold">
                    {columnName(t, column)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {bands.map((band, index) => (
                <BandRow key={band.key} band={band} index={index} />
              ))}
            </tbody>
          </table>
        </section>
        <FormAlert id={fields.bands.errorId}>{ruleFieldError(t, bandsError)}</FormAlert>
        <p className="text-sm text-slate-700">{t('importRules.form.spareHint')}</p>
      </fieldset>
      <Fieldset legend={t('importRules.form.limitsTitle')} lead={t('importRules.form.limitHint')}>
        <TextField
          meta={fields.shipmentsPerYear}
          label={t('importRules.form.shipmentsPerYear')}
          inputMode="numeric"
        />
        <TextField
          meta={fields.valuePerYear}
          label={t('importRules.form.valuePerYear')}
          inputMode="numeric"
        />
        <SelectField
          meta={fields.limitsApplyTo}
          label={t('importRules.form.limitsApplyTo')}
          options={(['everyone', 'without_tax_id'] as const).map((who) => ({
            value: who,
            text: t(`importRules.limitsApply.${who}`),
          }))}
        />
        <TextField
          meta={fields.maxUnitsPerItem}
          label={t('importRules.form.maxUnitsPerItem')}
          inputMode="numeric"
        />
        <CheckField meta={fields.taxIdRequired} label={t('importRules.form.taxIdRequired')} />
      </Fieldset>
      <Fieldset legend={t('importRules.form.textsTitle')}>
        <TextField meta={note.es} label={t('importRules.form.noteEs')} max={RULE_LIMITS.note} multiline />
        <TextField meta={note.en} label={t('importRules.form.noteEn')} max={RULE_LIMITS.note} multiline />
        <TextField
          meta={uncertain.es}
          label={t('importRules.form.uncertainEs')}
          hint={t('importRules.form.uncertainHint')}
          max={RULE_LIMITS.note}
          multiline
        />
        <TextField
          meta={uncertain.en}
          label={t('importRules.form.uncertainEn')}
          hint={t('importRules.form.uncertainHint')}
          max={RULE_LIMITS.note}
          multiline
        />
        <TextField
          meta={fields.source}
          label={t('importRules.form.source')}
          hint={t('importRules.form.sourceHint')}
          max={RULE_LIMITS.source}
          multiline
        />
      </Fieldset>
      <button type="submit" disabled={navigation.state === 'submitting'} className={buttonClass}>
        {t('importRules.form.save')}
      </button>
    </Form>
  )
}

type BandColumn = (typeof BAND_TEXT_COLUMNS)[number] | (typeof BAND_CHECK_COLUMNS)[number] | 'remove'

function columnName(t: TFunction, column: BandColumn): string {
  return column === 'formal' ? t('importRules.form.formalEntry') : t(`importRules.form.${column}`)
}

/** One band of the grid: a cell per column with its error, the checkboxes, and Remove. */
function BandRow({ band, index }: { band: FieldMetadata<BandFormRow>; index: number }) {
  const { t } = useTranslation()
  const cells = band.getFieldset()
  return (
    <tr className="border-t border-slate-200 align-top">
      {BAND_TEXT_COLUMNS.map((column) => {
        const cell = cells[column]
        const error = cell.errors?.[0]
        return (
          <td key={column} className="px-2 py-2">
            <input
              {...getInputProps(cell, { type: 'text', ariaAttributes: false })}
              aria-label={t('importRules.form.cellLabel', { column: columnName(t, column), row: index + 1 })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? cell.errorId : undefined}
              inputMode="decimal"
              autoComplete="off"
              className={cellClass}
            />
            {error ? (
              <p id={cell.errorId} className="mt-1 w-24 text-xs font-medium text-red-800">
                {ruleFieldError(t, error)}
              </p>
            ) : null}
          </td>
        )
      })}
      {[...BAND_CHECK_COLUMNS, 'remove' as const].map((column) => {
        const cell = cells[column]
        const error = cell.errors?.[0]
        return (
          <td key={column} className="px-2 py-2">
            <input
              {...getInputProps(cell, { type: 'checkbox', ariaAttributes: false })}
              aria-label={t('importRules.form.cellLabel', { column: columnName(t, column), row: index + 1 })}
              className="h-6 w-6"
            />
            {error ? (
              <p className="mt-1 text-xs font-medium text-red-800">{ruleFieldError(t, error)}</p>
            ) : null}
          </td>
        )
      })}
    </tr>
  )
}

export type MethodFormFields = {
  country?: string
  method: string
  available: string
  note: { es: string; en: string }
  source: string
  effectiveFrom: string
}

/**
 * A destination's shipping method: can customers use it, why (both languages), the source, since
 * when. With `countries`, the list page's form for a country that has no rows yet.
 */
export function MethodForm({
  id,
  method,
  initial,
  lastResult,
  countries,
  submitText,
}: {
  id: string
  method: ShippingMethod | null
  initial: MethodFormFields
  lastResult: SubmissionResult<string[]> | undefined
  countries?: { code: string; name: string }[]
  submitText: string
}) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const [form, fields] = useForm<MethodFormFields>({
    id,
    lastResult,
    defaultValue: initial,
    shouldValidate: 'onSubmit',
  })
  const note = fields.note.getFieldset()
  const formError = form.errors?.[0]
  const hasFieldErrors = Object.entries(form.allErrors).some(([name]) => name !== form.name)
  const availableError = ruleFieldError(t, fields.available.errors?.[0])
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="method" />
      {method ? <input type="hidden" name="method" value={method} /> : null}
      <AdminFormAlert
        conflict={null}
        failedTitle={t('importRules.methods.failed')}
        formError={formError}
        fieldErrors={hasFieldErrors && form.status === 'error'}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {countries ? (
          <SelectField
            meta={fields.country as FieldMetadata<string>}
            label={t('importRules.other.country')}
            options={[
              { value: '', text: t('importRules.other.choose') },
              ...countries.map((country) => ({ value: country.code, text: country.name })),
            ]}
          />
        ) : null}
        {method ? null : (
          <SelectField
            meta={fields.method}
            label={t('importRules.methods.method')}
            options={(['economic', 'express'] as const).map((name) => ({
              value: name,
              text: t(`adminRates.methods.${name}`),
            }))}
          />
        )}
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium text-slate-800">{t('importRules.methods.canUse')}</legend>
          <div className="flex gap-6">
            {(['yes', 'no'] as const).map((answer) => (
              <label key={answer} className="flex min-h-11 items-center gap-2 text-slate-900">
                <input
                  {...getInputProps(fields.available, {
                    type: 'radio',
                    value: answer,
                    ariaAttributes: false,
                  })}
                  className="h-5 w-5"
                />
                {t(`importRules.methods.${answer}`)}
              </label>
            ))}
          </div>
          {availableError ? <p className="text-sm font-medium text-red-800">{availableError}</p> : null}
        </fieldset>
        <TextField meta={fields.effectiveFrom} label={t('importRules.methods.since')} type="date" />
        <TextField meta={note.es} label={t('importRules.methods.noteEs')} max={RULE_LIMITS.note} multiline />
        <TextField meta={note.en} label={t('importRules.methods.noteEn')} max={RULE_LIMITS.note} multiline />
        <TextField
          meta={fields.source}
          label={t('importRules.methods.source')}
          hint={t('importRules.form.sourceHint')}
          max={RULE_LIMITS.source}
          multiline
        />
      </div>
      <p className="text-sm text-slate-700">{t('importRules.methods.hint')}</p>
      <button type="submit" disabled={navigation.state === 'submitting'} className={buttonClass}>
        {submitText}
      </button>
    </Form>
  )
}
