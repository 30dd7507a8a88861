import { useTranslation } from 'react-i18next'
import { Outlet } from 'react-router'
import { AreaNav } from '#app/components/area-nav.tsx'
import { useRootData } from '#app/lib/root-data.ts'
import { areas } from '#app/locales/areas.ts'
import { getUser, requireAdminMiddleware } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/layout.ts'

// The admin area (/admin-dashboard and its tabs): admins only.
// Every route of this branch is refused here for anyone else (see app/middleware/auth.server.ts).
// The request services also admit moderators (core/orders/request-policy.ts); the panel does not
// yet (docs/decisions/019-orders-model.md).

export const handle = areas('account', 'admin')

export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware]

/** Refuses a page read even when the page's own loader reads nothing. */
export function loader({ context }: Route.LoaderArgs) {
  getUser(context)
  return null
}

export default function Layout() {
  const { t } = useTranslation()
  // The business's own settings: admins only (their pages refuse anyone else too).
  const adminTabs =
    useRootData()?.user?.role === 'admin'
      ? [
          { to: '/admin-dashboard/settings', text: t('adminArea.settings') },
          { to: '/admin-dashboard/rates', text: t('adminArea.rates') },
          { to: '/admin-dashboard/audit', text: t('adminArea.audit') },
        ]
      : []
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <AreaNav
        label={t('adminArea.nav')}
        links={[
          { to: '/admin-dashboard', text: t('adminArea.home'), end: true },
          { to: '/admin-dashboard/requests', text: t('adminArea.requests') },
          { to: '/admin-dashboard/messages', text: t('adminArea.messages') },
          ...adminTabs,
        ]}
      />
      <Outlet />
    </div>
  )
}
