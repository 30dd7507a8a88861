import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'

/**
 * A message key the server sent, translated: an AppError's reason or code (`errors.reasons.…`,
 * `errors.codes.…`: app/lib/http-errors.ts `messageKeyOf`), as a form's error, an action's
 * refusal or a problem beside a field. The one place such a key, known only at run time, meets
 * the typed `t`; null when there is none.
 */
export function errorText(t: TFunction, key: string | null | undefined): string | null {
  return key ? t(key as 'errors.codes.invalid') : null
}

/** A Conform form's error, translated (see `errorText`). */
export function useFormError(form: { errors?: string[] }): string | null {
  const { t } = useTranslation()
  return errorText(t, form.errors?.[0])
}
