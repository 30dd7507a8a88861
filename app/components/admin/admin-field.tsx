import { type FieldMetadata, getInputProps, getTextareaProps } from '@conform-to/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'

/**
 * One field of an admin form (settings): its label, the control Conform wires, an optional hint,
 * what another admin saved meanwhile (after a conflict), and the error, translated from
 * `adminForm.errors` (a "too long" message says the limit, `max`).
 */
export function AdminField({
  meta,
  label,
  hint,
  savedNow,
  max,
  multiline = false,
  rows = 4,
  inputMode,
  type = 'text',
  autoComplete = 'off',
}: {
  meta: FieldMetadata<string>
  label: string
  hint?: string
  savedNow?: string
  max?: number
  multiline?: boolean
  /** A multi-line field's height in lines. */
  rows?: number
  inputMode?: 'numeric' | 'decimal' | 'email' | 'url' | 'text'
  type?: 'text' | 'email' | 'url'
  autoComplete?: string
}) {
  const { t } = useTranslation()
  const errorKey = meta.errors?.[0]
  const error = errorTextIn(t, 'adminForm.errors', errorKey, { max })
  const hintText = [hint, savedNow ? t('adminSettings.savedNow', { value: savedNow }) : null]
    .filter(Boolean)
    .join(' ')
  return (
    <FormField id={meta.id} label={label} hint={hintText || null} error={error}>
      {(control) =>
        multiline ? (
          <textarea
            {...getTextareaProps(meta, { ariaAttributes: false })}
            {...control}
            rows={rows}
            className={`${inputClass} py-2`}
          />
        ) : (
          <input
            {...getInputProps(meta, { type, ariaAttributes: false })}
            {...control}
            inputMode={inputMode}
            autoComplete={autoComplete}
            spellCheck={inputMode === 'numeric' || inputMode === 'decimal' ? false : undefined}
            className={inputClass}
          />
        )
      }
    </FormField>
  )
}

/** A group of fields with its heading, and a note when its values are still the demo placeholders. */
export function AdminFieldset({
  legend,
  lead,
  demo,
  children,
}: {
  legend: string
  lead?: string
  demo?: boolean
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <fieldset className="space-y-4 rounded-lg border border-slate-200 p-5">
      <legend className="px-1 text-lg font-semibold text-slate-900">{legend}</legend>
      {lead ? <p className="text-sm text-slate-700">{lead}</p> : null}
      {demo ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {t('adminSettings.demo')}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  )
}

/**
 * The message above an admin form after a save that did not go through: another admin's save came
 * first (`conflict`), the save was refused (`formError`, a message key), or fields need fixing.
 */
export function AdminFormAlert({
  conflict,
  failedTitle,
  formError,
  fieldErrors,
}: {
  conflict: { title: string; text: string } | null
  failedTitle: string
  formError: string | undefined
  fieldErrors: boolean
}) {
  const { t } = useTranslation()
  if (conflict) {
    return (
      <FormAlert tone="conflict" look="box" title={conflict.title}>
        {conflict.text}
      </FormAlert>
    )
  }
  if (formError) {
    return (
      <FormAlert look="box" title={failedTitle} className="p-4">
        {errorText(t, formError)}
      </FormAlert>
    )
  }
  if (fieldErrors) return <FormAlert look="box" title={t('adminForm.errorSummary')} className="p-4" />
  return null
}
