import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { SecurityLink } from '#app/components/security-link.tsx'
import { requestContext } from '#app/context.ts'
import { getServiceContext, getUser } from '#app/middleware/auth.server.ts'
import { formatNumber } from '#core/money/money.ts'
import { staffWorkToday, type WorkKind } from '#core/orders/staff-work.ts'
import type { Route } from './+types/dashboard.ts'

// The admin area's landing page: the staff's work for today (docs/decisions/036). Each kind of
// work with its count and a link to the list that shows exactly it; a moderator sees what they
// may act on (core/shared/staff-policy.ts). Admins and moderators.

export async function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  const work = await staffWorkToday(getServiceContext(context))
  const { language } = context.get(requestContext)
  return {
    user: { name: user.name, email: user.email, role: user.role },
    work: work.map((entry) => ({
      ...entry,
      countLabel: formatNumber(entry.count, language),
      detailLabels: Object.fromEntries(
        Object.entries(entry.detail).map(([part, value]) => [part, formatNumber(value, language)]),
      ),
    })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function AdminDashboardRoute() {
  const { t } = useTranslation()
  const { user, work } = useLoaderData<typeof loader>()
  const waiting = work.reduce((sum, entry) => sum + entry.count, 0)
  return (
    <section aria-labelledby="today-heading">
      <PageMeta title={t('today.title')} description={t('today.lead')} />
      <h1 id="today-heading" className="text-3xl font-bold text-slate-900">
        {t('today.title')}
      </h1>
      <p className="mt-2 max-w-3xl text-slate-700">{t('today.lead')}</p>
      {waiting === 0 ? (
        <p role="status" className="mt-4 rounded-md bg-emerald-50 p-3 font-medium text-emerald-900">
          {t('today.allDone')}
        </p>
      ) : null}
      <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={t('today.listLabel')}>
        {work.map((entry) => (
          <li key={entry.kind} data-testid={`work-${entry.kind}`} data-count={entry.count}>
            <Link
              to={entry.link}
              className={`flex h-full min-h-24 flex-col gap-1 rounded-lg border p-4 hover:bg-slate-50 ${
                entry.count > 0 ? 'border-red-300 bg-red-50/40' : 'border-slate-200'
              }`}
            >
              <span className="flex items-baseline gap-3">
                <span
                  className={`text-3xl font-bold tabular-nums ${entry.count > 0 ? 'text-red-800' : 'text-slate-600'}`}
                >
                  {entry.countLabel}
                </span>
                <span className="font-semibold text-slate-900 underline underline-offset-4">
                  {t(`today.kinds.${entry.kind}`, { count: entry.count })}
                </span>
              </span>
              <WorkDetail
                kind={entry.kind}
                count={entry.count}
                detail={entry.detail}
                labels={entry.detailLabels}
              />
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-8 text-sm text-slate-700">
        {t('dashboard.signedInAs', { name: user.name, email: user.email })}{' '}
        {t('dashboard.role', { role: t(`session.roles.${user.role}`) })}
      </p>
      <p className="mt-2">
        <SecurityLink />
      </p>
    </section>
  )
}

/** The line under a count: what it is made of, or that nothing waits. */
function WorkDetail({
  kind,
  count,
  detail,
  labels,
}: {
  kind: WorkKind
  count: number
  detail: Record<string, number>
  labels: Record<string, string>
}) {
  const { t } = useTranslation()
  if (count === 0) return <span className="text-sm text-slate-700">{t('today.nothing')}</span>
  if (kind === 'payments') {
    return (
      <span className="text-sm text-slate-700">
        {t('today.details.payments', { held: labels.held ?? '0', reported: labels.reported ?? '0' })}
      </span>
    )
  }
  if (kind === 'buy' || kind === 'receive') {
    return (
      <span className="text-sm text-slate-700">
        {t(`today.details.${kind}`, { count: detail.requests ?? 0, requests: labels.requests ?? '0' })}
      </span>
    )
  }
  return <span className="text-sm text-slate-700">{t(`today.hints.${kind}`)}</span>
}
