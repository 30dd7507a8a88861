import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { NotificationsLink } from './notifications-link.tsx'

export type HeaderUser = { name: string; email: string; role: 'user' | 'admin' | 'moderator' }

const linkClass =
  'inline-flex min-h-11 items-center rounded-md px-2 text-sm font-semibold text-red-800 underline-offset-4 hover:underline'

/** Visitors: the way in. */
export function SignInLink() {
  const { t } = useTranslation()
  return (
    <Link to="/auth" className={linkClass}>
      {t('session.signInLink')}
    </Link>
  )
}

/** Signed in: the way to their area (/dashboard sends each role to its own). */
export function AreaLink() {
  const { t } = useTranslation()
  return (
    <Link to="/dashboard" className={linkClass}>
      {t('session.myArea')}
    </Link>
  )
}

/**
 * Signed in: a welcome line (full name, or the e-mail) that leads to their area, an Admin badge,
 * other roles in brackets, the notifications bell, sign out. `stacked` for the menu, in a row for the bar.
 */
export function UserMenu({
  user,
  stacked = false,
  unreadNotifications,
}: {
  user: HeaderUser
  stacked?: boolean
  /** In the bar: the bell with the unread count (the menu has it beside its button instead). */
  unreadNotifications?: number
}) {
  const { t } = useTranslation()
  const name = user.name || user.email
  return (
    <div
      className={
        stacked ? 'flex flex-wrap items-center gap-2 text-sm' : 'flex min-w-0 items-center gap-2 text-sm'
      }
    >
      <Link
        to="/dashboard"
        title={t('session.myArea')}
        className="inline-flex min-h-11 min-w-0 max-w-48 items-center text-slate-800 underline-offset-4 hover:underline"
      >
        <span className="truncate">{t('session.welcome', { name })}</span>
      </Link>
      {user.role === 'admin' ? (
        <span className="rounded bg-red-700 px-2 py-0.5 text-xs font-semibold text-white">
          {t('session.adminBadge')}
        </span>
      ) : null}
      {user.role === 'moderator' ? (
        <span className="text-slate-700">
          {t('session.roleInBrackets', { role: t(`session.roles.${user.role}`) })}
        </span>
      ) : null}
      {stacked ? <AreaLink /> : null}
      {unreadNotifications === undefined ? null : <NotificationsLink unread={unreadNotifications} />}
      <Form method="post" action="/auth/sign-out">
        <button
          type="submit"
          className="min-h-11 whitespace-nowrap rounded-md border border-slate-300 px-3 font-medium text-slate-900 hover:bg-slate-50"
        >
          {t('session.signOut')}
        </button>
      </Form>
    </div>
  )
}
