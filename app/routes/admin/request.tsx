import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { throwRouteError } from '#app/lib/http-errors.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { getRequest } from '#core/orders/request-service.ts'
import type { Route } from './+types/request.ts'

// One request for staff, read-only in this slice: the customer, the links, the whole history.

export async function loader({ params, context }: Route.LoaderArgs) {
  const detail = await getRequest(getServiceContext(context), params.id).catch(throwRouteError)
  const format = japanDateTime(context.get(requestContext).language)
  return {
    request: {
      ...detail,
      submittedLabel: format(detail.submittedAt),
      events: detail.events.map((event) => ({ ...event, createdLabel: format(event.createdAt) })),
    },
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function StaffRequestRoute() {
  const { t } = useTranslation()
  const { request } = useLoaderData<typeof loader>()
  const title = t('queue.detailTitle', { number: request.number })
  return (
    <article aria-labelledby="request-heading" className="space-y-8">
      <PageMeta title={title} description={title} />
      <p>
        <Link to="/admin-dashboard/requests" className="font-semibold text-red-800 underline">
          {t('queue.back')}
        </Link>
      </p>
      <header className="flex flex-wrap items-center gap-3">
        <h1 id="request-heading" className="text-3xl font-bold text-slate-900">
          {title}
        </h1>
        <StatusBadge status={request.status} label={t(`queue.statuses.${request.status}`)} />
      </header>
      <p className="text-slate-700">
        {t('queue.submittedAt')}: {request.submittedLabel}
      </p>
      <section aria-labelledby="customer-heading">
        <h2 id="customer-heading" className="text-xl font-semibold text-slate-900">
          {t('queue.customerHeading')}
        </h2>
        <p className="mt-2 text-slate-900">{request.customer?.name}</p>
        <p className="break-all text-slate-700">
          <a href={`mailto:${request.customer?.email ?? ''}`} className="underline">
            {request.customer?.email}
          </a>
        </p>
        <p className="text-slate-700">{t('queue.language', { language: request.locale.toUpperCase() })}</p>
        {request.customerNote ? (
          <div className="mt-3">
            <h3 className="font-semibold text-slate-900">{t('queue.customerNote')}</h3>
            <p className="whitespace-pre-line text-slate-800">{request.customerNote}</p>
          </div>
        ) : null}
      </section>
      <section aria-labelledby="items-heading">
        <h2 id="items-heading" className="text-xl font-semibold text-slate-900">
          {t('queue.itemsHeading')}
        </h2>
        <ol className="mt-3 space-y-3">
          {request.items.map((item) => (
            <li key={item.id} className="rounded-lg border border-slate-200 p-4">
              <a
                href={item.url}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="font-semibold text-red-800 underline"
              >
                {t('queue.openLink', { host: item.shopHost })}
              </a>
              <p className="mt-1 break-all text-sm text-slate-700">{item.url}</p>
              {item.storeName ? (
                <p className="text-sm text-slate-700">{t('queue.store', { name: item.storeName })}</p>
              ) : null}
              <p className="mt-1 text-slate-800">
                {t('queue.quantity')}: {item.quantity}
              </p>
              {item.notes ? (
                <p className="mt-1 whitespace-pre-line text-slate-800">
                  {t('queue.notes')}: {item.notes}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="history-heading">
        <h2 id="history-heading" className="text-xl font-semibold text-slate-900">
          {t('queue.history')}
        </h2>
        <ol className="mt-3 space-y-2 border-l-2 border-slate-300 pl-4">
          {request.events.map((event) => (
            <li key={event.id}>
              <span className="font-semibold text-slate-900">
                {t(`queue.events.${event.event as 'submit'}`)}
              </span>{' '}
              <span className="text-sm text-slate-700">
                ({t(`queue.actor.${event.actorKind as 'customer'}`)}) {event.createdLabel}
              </span>
            </li>
          ))}
        </ol>
      </section>
      <p className="text-sm text-slate-700">{t('queue.readOnly')}</p>
    </article>
  )
}
