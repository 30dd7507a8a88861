import { useTranslation } from 'react-i18next'
import { useNavigation } from 'react-router'
import { errorTextIn } from '#app/components/error-text.ts'
import { FormField, inputClass } from './form-field.tsx'

/** What the MFA fields take of a Conform field. */
export type ConformField = { id: string; name: string; key?: string; errors?: string[] }

/** The translated problem of a field (an `mfa.errors` key), else the form's own (already translated). */
export function useFieldError(field: ConformField, formError: string | null = null): string | null {
  const { t } = useTranslation()
  const key = field.errors?.[0]
  return errorTextIn(t, 'mfa.errors', key) ?? formError
}

/** The six-digit code of an authenticator app or a text message. */
export function CodeField({
  field,
  formError = null,
  narrow = false,
}: {
  field: ConformField
  formError?: string | null
  narrow?: boolean
}) {
  const { t } = useTranslation()
  return (
    <FormField
      id={field.id}
      label={t('mfa.code')}
      hint={t('mfa.codeHint')}
      error={useFieldError(field, formError)}
    >
      {(control) => (
        <input
          {...control}
          key={field.key}
          name={field.name}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          maxLength={7}
          required
          className={narrow ? `${inputClass} max-w-48` : inputClass}
        />
      )}
    </FormField>
  )
}

/** A submit button that names its intent; disabled while the form is on its way. */
export function IntentButton({
  intent,
  label,
  secondary = false,
  skipValidation = false,
}: {
  intent: string
  label: string
  secondary?: boolean
  /** For a second action of a form (send a new code) that needs none of its fields. */
  skipValidation?: boolean
}) {
  const navigation = useNavigation()
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      formNoValidate={skipValidation || undefined}
      disabled={navigation.state === 'submitting'}
      className={
        secondary
          ? 'min-h-11 rounded-md border border-slate-400 bg-white px-4 font-semibold text-slate-900 hover:bg-slate-50 disabled:opacity-70'
          : 'min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800 disabled:opacity-70'
      }
    >
      {label}
    </button>
  )
}
