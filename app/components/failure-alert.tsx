import { useTranslation } from 'react-i18next'

export type FailureTitle = 'signInFailed' | 'signUpFailed' | 'passwordResetFailed' | 'passwordUpdateFailed'
export type FailureReason =
  | 'invalidCredentials'
  | 'notVerified'
  | 'tooMany'
  | 'unexpected'
  | 'googleCancelled'
  | 'googleNotLinked'
  | 'googleEmailUnconfirmed'
  | 'googleFailed'

/** The catalogue's failure message, destructive style: what failed, then why (`auth.errors`). */
export function FailureAlert({ titleKey, reason }: { titleKey: FailureTitle; reason: FailureReason | null }) {
  const { t } = useTranslation()
  if (!reason) return null
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
      <p className="font-semibold">{t(`auth.errors.${titleKey}`)}</p>
      <p className="text-sm">{t(`auth.errors.${reason}`)}</p>
    </div>
  )
}
