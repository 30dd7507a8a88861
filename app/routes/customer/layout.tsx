import { useTranslation } from 'react-i18next'
import { Outlet } from 'react-router'
import { AreaNav } from '#app/components/area-nav.tsx'
import { areas } from '#app/locales/areas.ts'
import { getUser, requireUserMiddleware } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/layout.ts'

// The customer area (/user-dashboard and what the orders add under it): signed in, any role.
// Every route of this branch is refused here for anyone else (see app/middleware/auth.server.ts).

export const handle = areas('account')

export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware]

/** Refuses a page read even when the page's own loader reads nothing. */
export function loader({ context }: Route.LoaderArgs) {
  getUser(context)
  return null
}

export default function Layout() {
  const { t } = useTranslation()
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <AreaNav
        label={t('customerArea.nav')}
        links={[
          { to: '/user-dashboard', text: t('customerArea.submit'), end: true },
          { to: '/user-dashboard/requests', text: t('customerArea.history') },
        ]}
      />
      <Outlet />
    </div>
  )
}
