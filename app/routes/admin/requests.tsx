import { useTranslation } from 'react-i18next'
import { Form, Link, useLoaderData } from 'react-router'
import { inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { isRequestStatus, REQUEST_STATUSES } from '#core/orders/request-machine.ts'
import { isQueueWork, listRequestQueue } from '#core/orders/request-service.ts'
import type { Route } from './+types/requests.ts'

// The staff queue: ?status= filters, ?q= searches, ?cursor= pages, ?work= narrows it to the
// warehouse's work (requests with items to buy, or bought and not yet here: the work for today,
// docs/decisions/036). A plain GET form, so it works without JavaScript and every view has its
// own address.

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams
  const status = search.get('status')
  const q = search.get('q')?.trim() || null
  const cursor = search.get('cursor')
  const work = search.get('work')
  const page = await listRequestQueue(getServiceContext(context), {
    status: isRequestStatus(status) ? status : null,
    q,
    cursor,
    work: isQueueWork(work) ? work : null,
  })
  const format = japanDateTime(context.get(requestContext).language)
  return {
    status: isRequestStatus(status) ? status : null,
    q,
    work: isQueueWork(work) ? work : null,
    workCount: page.workCount,
    first: !cursor,
    counts: page.counts,
    matchesAtLeast: page.matchesAtLeast,
    nextCursor: page.nextCursor,
    rows: page.rows.map((row) => ({ ...row, submittedLabel: format(row.submittedAt) })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

function queueHref(params: {
  status?: string | null
  q?: string | null
  cursor?: string | null
  work?: string | null
}) {
  const search = new URLSearchParams()
  if (params.status) search.set('status', params.status)
  if (params.q) search.set('q', params.q)
  if (params.work) search.set('work', params.work)
  if (params.cursor) search.set('cursor', params.cursor)
  const query = search.toString()
  return `/admin-dashboard/requests${query ? `?${query}` : ''}`
}

const QUEUE_COLUMNS = ['number', 'customer', 'shops', 'items', 'status', 'submittedAt'] as const

export default function RequestQueueRoute() {
  const { t } = useTranslation()
  const { rows, counts, matchesAtLeast, status, q, work, workCount, nextCursor, first } =
    useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="queue-heading">
      <PageMeta title={t('queue.title')} description={t('queue.lead')} />
      <h1 id="queue-heading" className="text-3xl font-bold text-slate-900">
        {t('queue.title')}
      </h1>
      <p className="mt-2 text-slate-700">{t('queue.lead')}</p>
      {work ? (
        <p className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md bg-sky-50 p-3 text-sky-950">
          <span className="font-medium" data-testid="queue-work">
            {t(`queue.work.${work}`, { count: workCount ?? 0 })}
          </span>
          <Link to={queueHref({ status, q })} className="font-semibold text-red-800 underline">
            {t('queue.work.clear')}
          </Link>
        </p>
      ) : null}

      <QueueFilters status={status} q={q} work={work} counts={counts} matchesAtLeast={matchesAtLeast} />

      {rows.length === 0 ? (
        <p className="mt-6 text-slate-700">{t('queue.empty')}</p>
      ) : (
        // Below 768 px each row is a card (app/app.css, `row-cards`): every column shows.
        <QueueTable rows={rows} />
      )}
      <p className="mt-6 flex flex-wrap gap-4">
        {first ? null : (
          <Link to={queueHref({ status, q, work })} className="font-semibold text-red-800 underline">
            {t('queue.first')}
          </Link>
        )}
        {nextCursor ? (
          <Link
            to={queueHref({ status, q, work, cursor: nextCursor })}
            className="font-semibold text-red-800 underline"
          >
            {t('queue.next')}
          </Link>
        ) : null}
      </p>
    </section>
  )
}

type Loaded = Awaited<ReturnType<typeof loader>>

/** The plain GET form: a status (with its count), a search; the warehouse's work is kept. */
function QueueFilters({
  status,
  q,
  work,
  counts,
  matchesAtLeast,
}: Pick<Loaded, 'status' | 'q' | 'work' | 'counts' | 'matchesAtLeast'>) {
  const { t } = useTranslation()
  // A broad search is not counted to the end (core/orders/request-service.ts): "N or more", and
  // the statuses without numbers.
  const total = counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : null
  return (
    <Form method="get" className="mt-6 flex flex-wrap items-end gap-3">
      {work ? <input type="hidden" name="work" value={work} /> : null}
      <div className="space-y-1">
        <label htmlFor="queue-status" className="block text-sm font-medium text-slate-800">
          {t('queue.filterLabel')}
        </label>
        <select id="queue-status" name="status" defaultValue={status ?? ''} className={inputClass}>
          <option value="">
            {total === null
              ? t('queue.allAtLeast', { count: matchesAtLeast ?? 0 })
              : t('queue.all', { count: total })}
          </option>
          {REQUEST_STATUSES.map((name) => (
            <option key={name} value={name}>
              {counts
                ? t('queue.statusCount', { status: t(`queue.statuses.${name}`), count: counts[name] })
                : t(`queue.statuses.${name}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-64 flex-1 space-y-1">
        <label htmlFor="queue-q" className="block text-sm font-medium text-slate-800">
          {t('queue.search')}
        </label>
        <input
          id="queue-q"
          name="q"
          type="search"
          defaultValue={q ?? ''}
          maxLength={200}
          aria-describedby="queue-q-hint"
          className={inputClass}
        />
        <p id="queue-q-hint" className="text-xs text-slate-600">
          {t('queue.searchHint')}
        </p>
      </div>
      <div className="flex gap-3 pb-5">
        <button type="submit" className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white">
          {t('queue.apply')}
        </button>
        {status || q || work ? (
          <Link
            to="/admin-dashboard/requests"
            className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-4 font-semibold"
          >
            {t('queue.clear')}
          </Link>
        ) : null}
      </div>
    </Form>
  )
}

/** The requests of this page, each opening its staff page. */
function QueueTable({ rows }: { rows: Loaded['rows'] }) {
  const { t } = useTranslation()
  return (
    <div className="relative mt-6 overflow-x-auto">
      <table className="row-cards w-full text-left text-sm md:min-w-[40rem]">
        <caption className="sr-only">{t('queue.title')}</caption>
        <thead className="border-b border-slate-300 text-slate-800">
          <tr>
            {QUEUE_COLUMNS.map((column, index) => (
              <th
                key={column}
                scope="col"
                className={index === QUEUE_COLUMNS.length - 1 ? 'py-2' : 'py-2 pr-3'}
              >
                {t(`queue.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-slate-200" data-testid="queue-row">
              <td className="py-3 pr-3">
                <Link
                  to={`/admin-dashboard/requests/${row.id}`}
                  className="font-semibold text-red-800 underline"
                >
                  {row.number}
                </Link>
              </td>
              <td className="py-3 pr-3" data-label={t('queue.customer')}>
                <span className="block font-medium text-slate-900">{row.customerName}</span>
                <span className="block break-all text-slate-700">{row.customerEmail}</span>
              </td>
              <td className="py-3 pr-3 break-all" data-label={t('queue.shops')}>
                {row.shopHosts.join(', ')}
              </td>
              <td className="py-3 pr-3" data-label={t('queue.items')}>
                {row.itemCount}
              </td>
              <td className="py-3 pr-3" data-label={t('queue.status')}>
                <StatusBadge status={row.status} label={t(`queue.statuses.${row.status}`)} />
              </td>
              <td className="py-3" data-label={t('queue.submittedAt')}>
                {row.submittedLabel}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
