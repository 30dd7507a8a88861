import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { subjectLabel } from '#app/lib/contact-subject.ts'
import { japanTimeFormatter } from '#app/lib/japan-time.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { InboxQuerySchema } from '#core/contact/inbox-schemas.ts'
import { listContactMessages } from '#core/contact/inbox-service.ts'
import type { Route } from './+types/messages.ts'

// The staff contact inbox: every message sent through the contact form, newest first, 20 a page.

export async function loader({ request, context }: Route.LoaderArgs) {
  const { language } = context.get(requestContext)
  const url = new URL(request.url)
  const query = InboxQuerySchema.parse(Object.fromEntries(url.searchParams))
  const page = await listContactMessages(getServiceContext(context), query)
  const format = japanTimeFormatter(language)
  return {
    filter: query.spam ? ('spam' as const) : query.status,
    firstPage: query.after === null,
    nextCursor: page.nextCursor,
    items: page.items.map((item) => ({
      id: item.id,
      name: item.name,
      email: item.email,
      subject: item.subject,
      preview: item.preview,
      received: format(item.receivedAt),
      handled: item.handledAt !== null,
    })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const FILTERS = [
  { key: 'open', search: '' },
  { key: 'handled', search: '?status=handled' },
  { key: 'spam', search: '?spam=1' },
] as const

export default function MessagesRoute() {
  const { t } = useTranslation()
  const { filter, firstPage, nextCursor, items } = useLoaderData<typeof loader>()
  const filterSearch = FILTERS.find((candidate) => candidate.key === filter)?.search ?? ''
  const olderHref = nextCursor
    ? `/admin-dashboard/messages${filterSearch ? `${filterSearch}&` : '?'}after=${encodeURIComponent(nextCursor)}`
    : null
  return (
    <section>
      <PageMeta title={t('inbox.title')} description={t('inbox.lead')} />
      <p>
        <Link
          to="/admin-dashboard"
          className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
        >
          {t('dashboard.adminTitle')}
        </Link>
      </p>
      <h1 className="text-3xl font-bold text-slate-900">{t('inbox.title')}</h1>
      <p className="mt-3 max-w-3xl text-slate-700">{t('inbox.lead')}</p>
      <nav aria-label={t('inbox.filtersLabel')} className="mt-6">
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((candidate) => (
            <li key={candidate.key}>
              <Link
                to={`/admin-dashboard/messages${candidate.search}`}
                aria-current={candidate.key === filter ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center rounded-md border px-4 font-semibold ${
                  candidate.key === filter
                    ? 'border-red-800 bg-red-800 text-white'
                    : 'border-slate-300 text-slate-900 hover:bg-slate-100'
                }`}
              >
                {t(`inbox.filters.${candidate.key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h2 className="mt-8 text-xl font-bold text-slate-900">
        {t('inbox.listHeading', { filter: t(`inbox.filters.${filter}`) })}
      </h2>
      {items.length === 0 ? (
        <p className="mt-4 text-slate-700">{t(`inbox.empty.${filter}`)}</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {items.map((item) => (
            <li key={item.id} className="rounded-lg border border-slate-200 p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <h3 className="font-semibold text-slate-900">
                  <Link
                    to={`/admin-dashboard/messages/${item.id}`}
                    className="inline-flex min-h-11 items-center break-all text-red-800 underline underline-offset-4"
                    aria-label={t('inbox.read', { name: item.name })}
                  >
                    {item.name}
                  </Link>
                </h3>
                <p className="text-sm text-slate-700">{t('inbox.received', { date: item.received })}</p>
              </div>
              <p className="break-all text-sm text-slate-700">{item.email}</p>
              <p className="mt-1 text-sm font-medium text-slate-900">
                {subjectLabel(t, item.subject)}
                {item.handled ? (
                  <span className="ml-2 inline-block rounded bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">
                    {t('inbox.handledBadge')}
                  </span>
                ) : null}
              </p>
              <p className="mt-2 line-clamp-2 whitespace-pre-line break-words text-slate-700">
                {item.preview}
              </p>
            </li>
          ))}
        </ul>
      )}
      {firstPage && !olderHref ? null : (
        <nav aria-label={t('inbox.pagesLabel')} className="mt-6 flex flex-wrap gap-4">
          {firstPage ? null : (
            <Link
              to={`/admin-dashboard/messages${filterSearch}`}
              className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
            >
              {t('inbox.newestPage')}
            </Link>
          )}
          {olderHref ? (
            <Link
              to={olderHref}
              className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
            >
              {t('inbox.olderPage')}
            </Link>
          ) : null}
        </nav>
      )}
    </section>
  )
}
