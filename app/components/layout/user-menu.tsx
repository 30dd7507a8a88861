import { LayoutDashboard, UserRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { areaPathFor } from '#app/lib/area-path.ts'
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

/**
 * Signed in: the way to their own area (customers their area, staff the admin panel:
 * app/lib/area-path.ts), a button that says so at every width. With `welcome`, the welcome line
 * sits above its label (the bar from 1280 px, the menu); without, the label alone (the bar below
 * 1280 px; under 640 px under its icon).
 */
export function AreaLink({ role, welcome }: { role: HeaderUser['role']; welcome?: string }) {
  const { t } = useTranslation()
  const staff = role !== 'user'
  const Icon = staff ? LayoutDashboard : UserRound
  const label = t(staff ? 'session.staffArea' : 'session.myArea')
  if (welcome) {
    return (
      <Link
        to={areaPathFor(role)}
        data-testid="header-area-link"
        className="inline-flex min-h-11 max-w-60 items-center gap-2 rounded-md border border-slate-300 px-2 text-slate-900 hover:border-red-700 hover:bg-red-50"
      >
        <Icon aria-hidden="true" className="size-5 shrink-0 text-red-800" />
        {/* The welcome line gives way (an ellipsis) before the label does: it never shrinks. */}
        <span className="grid grid-cols-[minmax(auto,max-content)] leading-tight">
          <span className="min-w-0 truncate text-xs text-slate-700">{welcome}</span>
          <span className="whitespace-nowrap text-sm font-semibold text-red-800">{label}</span>
        </span>
      </Link>
    )
  }
  return (
    <Link
      to={areaPathFor(role)}
      data-testid="header-area-link"
      className="inline-flex min-h-11 shrink-0 flex-col items-center justify-center rounded-md border border-slate-300 px-1.5 text-xs font-semibold leading-tight text-red-800 hover:border-red-700 hover:bg-red-50 sm:flex-row sm:gap-1.5 sm:px-2.5 sm:text-sm"
    >
      <Icon aria-hidden="true" className="size-5 shrink-0" />
      <span className="whitespace-nowrap">{label}</span>
    </Link>
  )
}

/**
 * Signed in: a welcome line (full name, or the e-mail) above the way to their area, an Admin
 * badge, other roles in brackets, the notifications bell, sign out. `stacked` for the menu, in a row for the bar.
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
      className={stacked ? 'flex flex-wrap items-center gap-2 text-sm' : 'flex items-center gap-2 text-sm'}
    >
      <AreaLink role={user.role} welcome={t('session.welcome', { name })} />
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
      {unreadNotifications === undefined ? null : (
        <NotificationsLink unread={unreadNotifications} staff={user.role !== 'user'} />
      )}
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
