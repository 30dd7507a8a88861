import { useTranslation } from 'react-i18next'
import { Link, useActionData, useLoaderData } from 'react-router'
import { NotificationsList } from '#app/components/notifications-list.tsx'
import { loadNotifications, markNotificationsAction } from '#app/lib/notifications.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { countMyUnread } from '#core/notifications/notification-service.ts'
import type { Route } from './+types/notifications.ts'

// The staff's notifications (docs/decisions/036): what needs them, as it happens (a new request,
// a payment, a box to pack…), each for the staff who may act on it; the header's bell leads here
// for staff. Their own orders' notifications stay in the customer area, linked from here.

export async function loader({ request, context }: Route.LoaderArgs) {
  // Who is asking first: a refused read is the guard page, before any query starts.
  const services = getServiceContext(context)
  const [page, ownUnread] = await Promise.all([
    loadNotifications(request, context, 'staff'),
    countMyUnread(services, 'customer'),
  ])
  return { ...page, ownUnread }
}

/** Marks one or all read, then shows the same page again (the header's count follows). */
export function action({ request, context }: Route.ActionArgs) {
  return markNotificationsAction(request, context, 'staff', '/admin-dashboard/notifications')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function StaffNotificationsRoute() {
  const { t } = useTranslation()
  const { ownUnread, ...page } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <NotificationsList
      page={page}
      lastResult={actionData?.result}
      path="/admin-dashboard/notifications"
      title={t('staffNotificationsPage.title')}
      lead={t('staffNotificationsPage.lead')}
    >
      {ownUnread > 0 ? (
        <p className="mt-2">
          <Link to="/user-dashboard/notifications" className="font-semibold text-red-800 underline">
            {t('staffNotificationsPage.own', { count: ownUnread })}
          </Link>
        </p>
      ) : null}
    </NotificationsList>
  )
}
