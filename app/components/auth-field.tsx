import { useTranslation } from 'react-i18next'
import { errorTextIn } from '#app/components/error-text.ts'
import { FormField, inputClass } from './form-field.tsx'

/**
 * One field of the account forms: a Conform field with its error key translated from
 * `auth.errors`. Password values are never echoed back after a failed submission.
 */
export function AuthField({
  field,
  label,
  type,
  autoComplete,
  hint,
}: {
  field: { id: string; name: string; key?: string; initialValue?: unknown; errors?: string[] }
  label: string
  type: string
  autoComplete: string
  hint?: string
}) {
  const { t } = useTranslation()
  const key = field.errors?.[0]
  return (
    <FormField
      id={field.id}
      label={label}
      hint={hint ?? null}
      error={errorTextIn(t, 'auth.errors', key, { max: 100 })}
    >
      {(control) => (
        <input
          {...control}
          key={field.key}
          name={field.name}
          type={type}
          autoComplete={autoComplete}
          defaultValue={type === 'password' ? undefined : (field.initialValue as string | undefined)}
          required
          className={inputClass}
        />
      )}
    </FormField>
  )
}
