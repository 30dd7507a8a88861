import { useTranslation } from 'react-i18next'
import { errorTextIn } from '#app/components/error-text.ts'
import { PROFILE_LIMITS } from '#core/customers/profile-schemas.ts'

/**
 * The message of a profile or address field's first error (a key under `profile.errors`), with
 * the field's length limit for "too long" and the values a country's message names (the
 * country, an example).
 */
export function useProfileFieldError() {
  const { t } = useTranslation()
  return (
    errors: string[] | undefined,
    limit?: keyof typeof PROFILE_LIMITS,
    values: Record<string, string> = {},
  ) => {
    return errorTextIn(t, 'profile.errors', errors?.[0], {
      max: limit ? PROFILE_LIMITS[limit] : undefined,
      ...values,
    })
  }
}
