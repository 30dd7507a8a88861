import { useTranslation } from 'react-i18next'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { type ConformField, useFieldError } from '#app/components/mfa-fields.tsx'

/** The hidden field that tells the action which form of the page was sent. */
export function FormIdInput({ formId }: { formId: string }) {
  return <input type="hidden" name="formId" value={formId} />
}

/** A text field of the add forms; `formError` shows here when the failure has no field of its own. */
export function TextField({
  field,
  label,
  hint,
  formError = null,
  type = 'text',
  autoComplete = 'off',
}: {
  field: ConformField & { initialValue?: unknown }
  label: string
  hint: string
  formError?: string | null
  type?: string
  autoComplete?: string
}) {
  return (
    <FormField id={field.id} label={label} hint={hint} error={useFieldError(field, formError)}>
      {(control) => (
        <input
          {...control}
          key={field.key}
          name={field.name}
          type={type}
          autoComplete={autoComplete}
          defaultValue={typeof field.initialValue === 'string' ? field.initialValue : undefined}
          required
          maxLength={80}
          className={inputClass}
        />
      )}
    </FormField>
  )
}

/** The current password, asked again before a protected change; never echoed back. */
export function PasswordField({
  field,
  formError,
  hint,
}: {
  field: ConformField
  formError: string | null
  hint?: string
}) {
  const { t } = useTranslation()
  return (
    <FormField
      id={field.id}
      label={t('mfa.password')}
      hint={hint ?? null}
      error={useFieldError(field, formError)}
    >
      {(control) => (
        <input
          {...control}
          key={field.key}
          name={field.name}
          type="password"
          autoComplete="current-password"
          required
          className={inputClass}
        />
      )}
    </FormField>
  )
}
