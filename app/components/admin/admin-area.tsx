import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { AreaNav } from '#app/components/area-nav.tsx'

/**
 * The admin area's frame: its tabs and the page. Two layouts use it (app/routes.ts): the
 * admin-only pages, and the pages moderators share with admins (the work for today, the
 * requests…); a moderator sees only the tabs they may open (core/shared/staff-policy.ts).
 */
export function AdminArea({ adminPages, children }: { adminPages: boolean; children: ReactNode }) {
  const { t } = useTranslation()
  const links = [
    // The staff's work for today: every staff member's landing page (docs/decisions/036).
    { to: '/admin-dashboard', text: t('adminArea.home'), end: true },
    { to: '/admin-dashboard/requests', text: t('adminArea.requests') },
    // Money: held payments and bank transfers customers reported (admins record payments).
    ...(adminPages ? [{ to: '/admin-dashboard/payments', text: t('adminArea.payments') }] : []),
    { to: '/admin-dashboard/shipments', text: t('adminArea.shipments') },
    { to: '/admin-dashboard/storage', text: t('adminArea.storage') },
    // Read by moderators too; roles and account actions stay with admins (ADR 024).
    { to: '/admin-dashboard/users', text: t('adminArea.users') },
    ...(adminPages ? [{ to: '/admin-dashboard/messages', text: t('adminArea.messages') }] : []),
    // The business's own settings (their pages refuse anyone but an admin themselves).
    ...(adminPages
      ? [
          { to: '/admin-dashboard/analytics', text: t('adminArea.analytics') },
          { to: '/admin-dashboard/settings', text: t('adminArea.settings') },
          { to: '/admin-dashboard/rates', text: t('adminArea.rates') },
          { to: '/admin-dashboard/import-rules', text: t('adminArea.importRules') },
          { to: '/admin-dashboard/stores', text: t('adminArea.stores') },
          { to: '/admin-dashboard/pages', text: t('adminArea.pages') },
          { to: '/admin-dashboard/audit', text: t('adminArea.audit') },
          { to: '/admin-dashboard/outbox', text: t('adminArea.outbox') },
        ]
      : []),
  ]
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 print:max-w-none print:p-0">
      <AreaNav label={t('adminArea.nav')} links={links} />
      {children}
    </div>
  )
}
