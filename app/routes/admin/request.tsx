import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { RequestItems } from '#app/components/orders/request-items.tsx'
import { RequestTimeline } from '#app/components/orders/request-timeline.tsx'
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
      <RequestItems
        heading={t('queue.itemsHeading')}
        items={request.items}
        linkLabel={(item) => t('queue.openLink', { host: item.shopHost })}
        photo={(item) =>
          item.photo
            ? {
                src: `/admin-dashboard/requests/${request.id}/photos/${item.photo.id}`,
                alt: t('queue.photoAlt', { number: item.position }),
                width: item.photo.width,
                height: item.photo.height,
              }
            : null
        }
        details={(item) => (
          <>
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
          </>
        )}
      />
      <RequestTimeline
        headingId="history-heading"
        heading={t('queue.history')}
        events={request.events}
        eventLabel={(event) => t(`queue.events.${event.event as 'submit'}`)}
        detail={(event) => (
          <>
            ({t(`queue.actor.${event.actorKind as 'customer'}`)}) {event.createdLabel}
          </>
        )}
      />
      <p className="text-sm text-slate-700">{t('queue.readOnly')}</p>
    </article>
  )
}
