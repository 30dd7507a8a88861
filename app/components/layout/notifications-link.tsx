import { Bell } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/**
 * Signed in: a bell leading to the notifications tab, with the number of unread ones ("99+"
 * beyond 99). Its name says the number in words ("3 unread notifications"); the digits are for
 * the eye only. Staff's bell leads to the staff's own list, and counts it (docs/decisions/036).
 */
export function NotificationsLink({ unread, staff = false }: { unread: number; staff?: boolean }) {
  const { t } = useTranslation()
  const label =
    unread > 99
      ? t('session.manyUnreadNotifications')
      : unread > 0
        ? t('session.unreadNotifications', { count: unread })
        : t('session.notifications')
  return (
    <Link
      to={staff ? '/admin-dashboard/notifications' : '/user-dashboard/notifications'}
      aria-label={label}
      title={label}
      data-testid="header-notifications"
      data-unread={unread}
      className="relative inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100"
    >
      <Bell aria-hidden="true" className="size-6" />
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="absolute right-0.5 top-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-bold leading-5 text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  )
}
