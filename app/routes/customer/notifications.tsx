import { useTranslation } from 'react-i18next'
import { Link, useActionData, useLoaderData } from 'react-router'
import { NotificationsList } from '#app/components/notifications-list.tsx'
import { requestContext } from '#app/context.ts'
import { loadNotifications, markNotificationsAction } from '#app/lib/notifications.server.ts'
import type { Route } from './+types/notifications.ts'

// The notifications tab: what we told the customer (the same texts as the e-mails, in the page's
// language), newest first, 20 a page (?cursor=), unread ones marked; mark one or all read.

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = await loadNotifications(request, context, 'customer')
  // The WhatsApp option only when WhatsApp is configured (docs/decisions/049).
  return { ...page, whatsapp: Boolean(context.get(requestContext).whatsapp) }
}

/** Marks one or all read, then shows the same page again (the header's count follows). */
export function action({ request, context }: Route.ActionArgs) {
  return markNotificationsAction(request, context, 'customer', '/user-dashboard/notifications')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function NotificationsRoute() {
  const { t } = useTranslation()
  const page = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <NotificationsList
      page={page}
      lastResult={actionData?.result}
      path="/user-dashboard/notifications"
      title={t('notificationsPage.title')}
      lead={t('notificationsPage.lead')}
    >
      {page.whatsapp ? (
        <p className="mt-3">
          <Link
            to="/user-dashboard/notifications/whatsapp"
            className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
          >
            {t('whatsapp.link')}
          </Link>
        </p>
      ) : null}
    </NotificationsList>
  )
}
