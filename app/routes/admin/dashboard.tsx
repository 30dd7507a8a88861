import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { SecurityLink } from '#app/components/security-link.tsx'
import { throwRouteError } from '#app/lib/http-errors.ts'
import { getServiceContext, getUser } from '#app/middleware/auth.server.ts'
import { countOpenContactMessages } from '#core/contact/inbox-service.ts'
import type { Route } from './+types/dashboard.ts'

export async function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  const openMessages = await countOpenContactMessages(getServiceContext(context)).catch(throwRouteError)
  return { user, openMessages }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function AdminDashboardRoute() {
  const { t } = useTranslation()
  const { user, openMessages } = useLoaderData<typeof loader>()
  return (
    <section>
      <PageMeta title={t('dashboard.adminTitle')} description={t('dashboard.adminTitle')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('dashboard.adminTitle')}</h1>
      <p className="mt-3 text-slate-700">
        {t('dashboard.signedInAs', { name: user.name, email: user.email })}
      </p>
      <p className="text-slate-700">{t('dashboard.role', { role: t(`session.roles.${user.role}`) })}</p>
      <p className="mt-6">
        <Link
          to="/admin-dashboard/messages"
          className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
        >
          {t('inbox.dashboardLink')}
        </Link>{' '}
        <span className="text-slate-700">({t('inbox.dashboardOpen', { count: openMessages })})</span>
      </p>
      <p className="mt-2">
        <SecurityLink />
      </p>
    </section>
  )
}
