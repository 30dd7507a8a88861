import { useTranslation } from 'react-i18next'
import { useNavigation } from 'react-router'
import { FormField, inputClass } from './form-field.tsx'

/** The six-digit code of an authenticator app or a text message. */
export function CodeField({
  id,
  error,
  narrow = false,
}: {
  id: string
  error: string | null
  narrow?: boolean
}) {
  const { t } = useTranslation()
  return (
    <FormField id={id} label={t('mfa.code')} hint={t('mfa.codeHint')} error={error}>
      {(control) => (
        <input
          {...control}
          name="code"
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
