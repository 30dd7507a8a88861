import { useTranslation } from 'react-i18next'

export type FailureTitle = 'signInFailed' | 'signUpFailed' | 'passwordResetFailed' | 'passwordUpdateFailed'

/**
 * The catalogue's failure message, destructive style: what failed (`auth.errors.<titleKey>`),
 * then why (a whole locale key: from app/lib/http-errors.ts, or `auth.errors.google…`).
 */
export function FailureAlert({
  titleKey,
  messageKey,
}: {
  titleKey: FailureTitle
  messageKey: string | null
}) {
  const { t } = useTranslation()
  if (!messageKey) return null
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
      <p className="font-semibold">{t(`auth.errors.${titleKey}`)}</p>
      <p className="text-sm">{t(messageKey as 'auth.errors.googleFailed')}</p>
    </div>
  )
}
