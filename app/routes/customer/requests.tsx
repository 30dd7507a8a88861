import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { throwRouteError } from '#app/lib/http-errors.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { listMyRequests } from '#core/orders/request-service.ts'
import type { Route } from './+types/requests.ts'

// The customer's requests, newest first, 20 a page (?cursor= for older ones).

export async function loader({ request, context }: Route.LoaderArgs) {
  const cursor = new URL(request.url).searchParams.get('cursor')
  const page = await listMyRequests(getServiceContext(context), { cursor }).catch(throwRouteError)
  const format = japanDateTime(context.get(requestContext).language)
  return {
    first: !cursor,
    nextCursor: page.nextCursor,
    requests: page.rows.map((row) => ({ ...row, submittedLabel: format(row.submittedAt) })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function MyRequestsRoute() {
  const { t } = useTranslation()
  const { requests, nextCursor, first } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="history-heading">
      <PageMeta title={t('requests.historyTitle')} description={t('requests.historyLead')} />
      <h1 id="history-heading" className="text-3xl font-bold text-slate-900">
        {t('requests.historyTitle')}
      </h1>
      <p className="mt-2 text-slate-700">
        {t('requests.historyLead')} {t('requests.japanTime')}
      </p>
      {requests.length === 0 ? (
        <p className="mt-6 text-slate-700">
          {t('requests.empty')}{' '}
          <Link to="/user-dashboard" className="font-semibold text-red-800 underline">
            {t('requests.sendFirst')}
          </Link>
        </p>
      ) : (
        <ul className="mt-6 space-y-4">
          {requests.map((request) => (
            <li key={request.id} className="rounded-lg border border-slate-200 p-4" data-testid="request-row">
              <div className="flex flex-wrap items-center gap-3">
                <h2 className="text-lg font-semibold text-slate-900">
                  <Link
                    to={`/user-dashboard/requests/${request.id}`}
                    aria-label={t('requests.view', { number: request.number })}
                    className="text-red-800 underline"
                  >
                    {request.number}
                  </Link>
                </h2>
                <StatusBadge status={request.status} label={t(`requests.status.${request.status}`)} />
                <span className="text-sm text-slate-700">
                  {t('requests.submittedAt')}: {request.submittedLabel}
                </span>
              </div>
              <ul className="mt-3 space-y-1 text-sm text-slate-800" aria-label={t('requests.items')}>
                {request.items.map((item) => (
                  <li key={item.position} className="break-all">
                    {t('requests.itemLine', { quantity: item.quantity, host: item.shopHost })} — {item.url}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-6 flex flex-wrap gap-4">
        {first ? null : (
          <Link to="/user-dashboard/requests" className="font-semibold text-red-800 underline">
            {t('requests.newest')}
          </Link>
        )}
        {nextCursor ? (
          <Link
            to={`/user-dashboard/requests?cursor=${encodeURIComponent(nextCursor)}`}
            className="font-semibold text-red-800 underline"
          >
            {t('requests.older')}
          </Link>
        ) : null}
      </p>
    </section>
  )
}
