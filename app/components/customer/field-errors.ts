import { useTranslation } from 'react-i18next'
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
    const key = errors?.[0]
    if (!key) return null
    return t(`profile.errors.${key as 'required'}`, {
      max: limit ? PROFILE_LIMITS[limit] : undefined,
      ...values,
    })
  }
}
