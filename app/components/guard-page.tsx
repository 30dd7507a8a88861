import { useTranslation } from 'react-i18next'
import { isRouteErrorResponse, Link } from 'react-router'
import type { GuardFailure } from '#app/lib/session.server.ts'
import { PageMeta } from './page-meta.tsx'

/** The guard failure a branch's middleware refused a request with (app/middleware/), or null. */
export function guardFailureOf(error: unknown): GuardFailure | null {
  if (!isRouteErrorResponse(error)) return null
  const failure = error.data as Partial<GuardFailure> | undefined
  return failure?.guard === 'login' || failure?.guard === 'admin' ? (failure as GuardFailure) : null
}

/** What a protected page shows instead of itself: sign in, or the role that is missing. */
export function GuardPage({ failure }: { failure: GuardFailure }) {
  const { t } = useTranslation()
  const isLogin = failure.guard === 'login'
  const title = isLogin ? t('session.guards.loginRequired') : t('session.guards.adminRequired')
  return (
    <section className="mx-auto max-w-xl px-4 py-20 text-center">
      <PageMeta
        title={title}
        description={isLogin ? t('session.guards.loginRequiredText') : t('session.guards.adminRequiredText')}
      />
      <h1 className="text-2xl font-bold text-slate-900">
        {isLogin ? t('session.guards.loginRequired') : t('session.guards.adminRequired')}
      </h1>
      <p className="mt-3 text-slate-700">
        {isLogin ? t('session.guards.loginRequiredText') : t('session.guards.adminRequiredText')}
      </p>
      {failure.guard === 'admin' ? (
        <p className="mt-2 text-slate-700">
          {t('session.guards.currentRole', { role: t(`session.roles.${failure.role}`) })}
        </p>
      ) : null}
      <p className="mt-8">
        <Link
          to={
            failure.guard === 'login'
              ? `/auth?redirectTo=${encodeURIComponent(failure.redirectTo)}`
              : '/dashboard'
          }
          className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {isLogin ? t('session.guards.signIn') : t('session.guards.backToDashboard')}
        </Link>
      </p>
    </section>
  )
}
