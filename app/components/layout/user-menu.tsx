import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'

export type HeaderUser = { name: string; email: string; role: 'user' | 'admin' | 'moderator' }

/** Signed in: a welcome line (full name, or the e-mail), an Admin badge, other roles in brackets, sign out. */
export function UserMenu({ user }: { user: HeaderUser }) {
  const { t } = useTranslation()
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="text-slate-800">{t('session.welcome', { name: user.name || user.email })}</span>
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
      <Form method="post" action="/auth/sign-out">
        <button
          type="submit"
          className="min-h-11 rounded-md border border-slate-300 px-3 font-medium text-slate-900 hover:bg-slate-50"
        >
          {t('session.signOut')}
        </button>
      </Form>
    </div>
  )
}
