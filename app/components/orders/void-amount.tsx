import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * An amount that no longer applies (a cancelled shipment's price): struck through, with the words
 * that say so, for eyes and screen readers alike (ADR 038). Otherwise the amount as it is.
 */
export function VoidAmount({ voided, children }: { voided: boolean; children?: ReactNode }) {
  const { t } = useTranslation()
  if (!voided) return <>{children}</>
  return (
    <>
      <s className="text-slate-600">{children}</s>{' '}
      <span className="font-semibold">({t('site.notCharged')})</span>
    </>
  )
}
