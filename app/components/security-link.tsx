import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/** From an account area to its security settings (second factors, backup codes). */
export function SecurityLink() {
  const { t } = useTranslation()
  return (
    <Link
      to="/account/security"
      className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-4 py-2 font-semibold"
    >
      {t('mfa.linkFromDashboard')}
    </Link>
  )
}
