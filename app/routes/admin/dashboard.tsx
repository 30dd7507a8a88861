import { useTranslation } from 'react-i18next'
import { useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { SecurityLink } from '#app/components/security-link.tsx'
import { getUser } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/dashboard.ts'

export function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  return { user }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function AdminDashboardRoute() {
  const { t } = useTranslation()
  const { user } = useLoaderData<typeof loader>()
  return (
    <section>
      <PageMeta title={t('dashboard.adminTitle')} description={t('dashboard.adminTitle')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('dashboard.adminTitle')}</h1>
      <p className="mt-3 text-slate-700">
        {t('dashboard.signedInAs', { name: user.name, email: user.email })}
      </p>
      <p className="text-slate-700">{t('dashboard.role', { role: t(`session.roles.${user.role}`) })}</p>
      <p className="mt-6">
        <SecurityLink />
      </p>
    </section>
  )
}
