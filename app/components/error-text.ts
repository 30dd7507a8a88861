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

/**
 * Where the field problems of each form family live in the locale files: a schema's issue or a
 * service's `fieldErrors` names a key there (`required`, `tooLong`…).
 */
export type FieldErrorNamespace =
  | 'adminForm.errors'
  | 'adminUsers.errors'
  | 'arrival.errors'
  | 'auth.errors'
  | 'contact.form.errors'
  | 'errors.reasons'
  | 'mfa.errors'
  | 'overdue.errors'
  | 'payment.errors'
  | 'payments.errors'
  | 'profile.errors'
  | 'quote.errors'
  | 'requests.errors'
  | 'shipments.claimErrors'
  | 'shipments.errors'
  | 'staffShipments.claimErrors'
  | 'staffShipments.packErrors'
  | 'staffShipments.reissue.errors'
  | 'staffBalance.errors'
  | 'balance.errors'

/**
 * A field's problem, translated from its form family's namespace (with `values` such as `max`);
 * null when there is none. With `errorText`, the one place a key known only at run time meets the
 * typed `t`: fields do not cast.
 */
export function errorTextIn(
  t: TFunction,
  namespace: FieldErrorNamespace,
  key: string | null | undefined,
  values?: Record<string, unknown>,
): string | null {
  return key ? t(`${namespace}.${key}` as 'errors.codes.invalid', values) : null
}

/** A Conform form's error, translated (see `errorText`). */
export function useFormError(form: { errors?: string[] }): string | null {
  const { t } = useTranslation()
  return errorText(t, form.errors?.[0])
}
