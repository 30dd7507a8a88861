import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { AddFactorForms } from './add-factor-forms.tsx'
import { BackupCodesList, BackupCodesSection } from './backup-codes.tsx'
import { FactorItem, type TotpSetupView } from './factor-item.tsx'
import {
  SecurityActionContext,
  type SecurityActionData,
  type SecurityFactor,
  useSecurityAction,
} from './security-form.ts'

export type SecurityPageData = {
  aal: 'aal1' | 'aal2'
  factors: SecurityFactor[]
  setups: (TotpSetupView & { factorId: string })[]
  backupCodesRemaining: number
  /** The phone factor and challenge whose SMS just went out (post/redirect/get). */
  sent: { factorId: string | null; challengeId: string | null }
  smsMinutes: number
}

/**
 * The account's security settings: this session's assurance level, the second factors (add an
 * authenticator app or a phone, confirm with a code, remove with the password), backup codes.
 */
export function SecurityPage({
  data,
  actionData,
}: {
  data: SecurityPageData
  actionData: SecurityActionData | undefined
}) {
  const { t } = useTranslation()
  const { aal, factors, setups, backupCodesRemaining, sent, smsMinutes } = data
  const outcome = actionData?.outcome
  const shownCodes = outcome ? outcome.backupCodes : null
  return (
    <SecurityActionContext.Provider value={actionData}>
      <section className="mx-auto max-w-3xl px-4 py-12">
        <PageMeta title={t('mfa.securityTitle')} description={t('mfa.securityLead')} />
        <p className="text-sm">
          <Link to="/dashboard" className="inline-flex min-h-11 items-center text-red-800 underline">
            {t('mfa.backToAccount')}
          </Link>
        </p>
        <h1 className="text-3xl font-bold text-slate-900">{t('mfa.securityTitle')}</h1>
        <p className="mt-2 text-slate-700">{t('mfa.securityLead')}</p>

        <div className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-4">
          <h2 className="font-semibold text-slate-900">{t('mfa.assuranceHeading')}</h2>
          <p className="mt-1 text-slate-800" data-testid="aal" data-aal={aal}>
            {aal === 'aal2' ? t('mfa.aal2') : t('mfa.aal1')}
          </p>
        </div>

        <Notice />

        {shownCodes ? <BackupCodesList codes={shownCodes} /> : null}

        <h2 className="mt-10 text-2xl font-bold text-slate-900">{t('mfa.factorsHeading')}</h2>
        {factors.length === 0 ? <p className="mt-3 text-slate-700">{t('mfa.noFactors')}</p> : null}
        <ul className="mt-4 space-y-4">
          {factors.map((factor) => (
            <FactorItem
              key={factor.id}
              factor={factor}
              setup={setups.find((setup) => setup.factorId === factor.id)}
              codeSent={sent.factorId === factor.id && sent.challengeId ? sent.challengeId : null}
              smsMinutes={smsMinutes}
            />
          ))}
        </ul>

        {/* Keyed on the list, so the add forms start empty once a factor was added or removed. */}
        <AddFactorForms key={factors.length} />

        <BackupCodesSection
          enabled={factors.some((factor) => factor.status === 'verified')}
          remaining={backupCodesRemaining}
        />
      </section>
    </SecurityActionContext.Provider>
  )
}

/** The outcome of the last action that has no place of its own (a confirmation, a removal). */
function Notice() {
  const { t } = useTranslation()
  const outcome = useSecurityAction()?.outcome
  if (outcome?.intent !== 'confirm') return null
  return (
    <p role="status" className="mt-6 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-emerald-950">
      {t('mfa.factorAdded', { name: outcome.name })}
    </p>
  )
}
