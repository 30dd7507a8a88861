import { Outlet, useLoaderData } from 'react-router'
import { CustomerMenu, CustomerSidebar } from '#app/components/customer/customer-nav.tsx'
import { useRootData } from '#app/lib/root-data.ts'
import { areas } from '#app/locales/areas.ts'
import { getServiceContext, getUser, requireUserMiddleware } from '#app/middleware/auth.server.ts'
import { countMyUnread } from '#core/notifications/notification-service.ts'
import type { Route } from './+types/layout.ts'

// The customer area (/user-dashboard and its tabs): signed in, any role.
// Every route of this branch is refused here for anyone else (see app/middleware/auth.server.ts).
// The tabs are links (each tab and each request has its own URL): a sidebar from 768 px, a
// slide-in menu below (app/components/customer/customer-nav.tsx).

export const handle = areas('account')

export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware]

/**
 * Refuses a page read even when the page's own loader reads nothing. Staff's header counts the
 * staff's list: the tab counts their own orders' notifications (docs/decisions/036).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  if (user.role === 'user') return { ownUnread: null }
  return { ownUnread: await countMyUnread(getServiceContext(context), 'customer') }
}

export default function Layout() {
  // A customer's unread count comes with the root loader (the header shows it too).
  const rootUnread = useRootData()?.unreadNotifications ?? 0
  const unread = useLoaderData<typeof loader>()?.ownUnread ?? rootUnread
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 md:grid md:grid-cols-[15rem_minmax(0,1fr)] md:gap-8 md:py-12 lg:gap-12">
      <CustomerSidebar unread={unread} />
      <CustomerMenu unread={unread} />
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  )
}
