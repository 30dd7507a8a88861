import { useTranslation } from 'react-i18next'
import { Form, Link, useLoaderData } from 'react-router'
import { VoidAmount } from '#app/components/orders/void-amount.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { countryName } from '#core/customers/countries.ts'
import { formatMoney } from '#core/money/money.ts'
import { SHIPMENT_STATUSES } from '#core/shipping/shipment-machine.ts'
import { listShipmentQueue } from '#core/shipping/shipment-service.ts'
import type { Route } from './+types/shipments.ts'

// The staff queue of shipments (docs/decisions/028): filter by status (the state lives in the
// URL), or to those with a claim to decide (?claim=open: the work for today, ADR 036), newest
// first, keyset paging; each row opens the shipment. Admins and moderators.

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const status = url.searchParams.get('status') || null
  const cursor = url.searchParams.get('cursor') || null
  const q = url.searchParams.get('q')?.slice(0, 200) || null
  const claim = url.searchParams.get('claim') === 'open'
  const page = await listShipmentQueue(getServiceContext(context), { status, cursor, q, claim })
  const { language } = context.get(requestContext)
  const when = japanDateTime(language)
  return {
    status,
    q,
    claim,
    paged: Boolean(cursor),
    nextCursor: page.nextCursor,
    counts: page.counts,
    rows: page.rows.map((row) => ({
      ...row,
      country: countryName(row.country, language),
      price: formatMoney(row.estimatedPriceJpy, 'JPY', language),
      requestedLabel: when(row.requestedAt),
    })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function ShipmentsQueueRoute() {
  const { t } = useTranslation()
  const { rows, status, q, claim, counts, nextCursor, paged } = useLoaderData<typeof loader>()
  const query = (extra: Record<string, string>) =>
    `?${new URLSearchParams({
      ...(status ? { status } : {}),
      ...(q ? { q } : {}),
      ...(claim ? { claim: 'open' } : {}),
      ...extra,
    }).toString()}`
  return (
    <section aria-labelledby="shipments-heading" className="space-y-6">
      <PageMeta title={t('staffShipments.title')} description={t('staffShipments.lead')} />
      <h1 id="shipments-heading" className="text-3xl font-bold text-slate-900">
        {t('staffShipments.title')}
      </h1>
      <p className="max-w-3xl text-slate-700">{t('staffShipments.lead')}</p>
      {claim ? (
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md bg-sky-50 p-3 text-sky-950">
          <span className="font-medium" data-testid="shipments-claims">
            {t('staffShipments.claimFilter')}
          </span>
          <Link
            to={`?${new URLSearchParams({ ...(status ? { status } : {}), ...(q ? { q } : {}) })}`}
            className="font-semibold text-red-800 underline"
          >
            {t('staffShipments.claimFilterClear')}
          </Link>
        </p>
      ) : null}
      <ShipmentFilters status={status} q={q} claim={claim} counts={counts} />
      {rows.length === 0 ? (
        <p className="rounded-md bg-slate-50 p-4 text-slate-800">{t('staffShipments.empty')}</p>
      ) : (
        // Below 768 px each row is a card (app/app.css, `row-cards`): every column shows.
        <ShipmentsTable rows={rows} />
      )}
      <nav aria-label={t('staffShipments.title')} className="flex gap-4">
        {paged ? (
          <Link
            to={query({})}
            className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
          >
            {t('staffShipments.first')}
          </Link>
        ) : null}
        {nextCursor ? (
          <Link
            to={query({ cursor: nextCursor })}
            className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
          >
            {t('staffShipments.next')}
          </Link>
        ) : null}
      </nav>
    </section>
  )
}

type Loaded = Awaited<ReturnType<typeof loader>>

/** The plain GET form: a status (with its count) and a search; the claims filter is kept. */
function ShipmentFilters({ status, q, claim, counts }: Pick<Loaded, 'status' | 'q' | 'claim' | 'counts'>) {
  const { t } = useTranslation()
  const total = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0)
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3">
      {claim ? <input type="hidden" name="claim" value="open" /> : null}
      <div className="space-y-1">
        <label htmlFor="status" className="block text-sm font-medium text-slate-800">
          {t('staffShipments.filter')}
        </label>
        <select
          id="status"
          name="status"
          defaultValue={status ?? ''}
          className="min-h-11 rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900"
        >
          <option value="">{t('staffShipments.all', { count: total })}</option>
          {SHIPMENT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t('staffShipments.statusCount', {
                status: t(`staffShipments.statuses.${value}`),
                count: counts[value] ?? 0,
              })}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1">
        <label htmlFor="q" className="block text-sm font-medium text-slate-800">
          {t('staffShipments.search')}
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={q ?? ''}
          maxLength={200}
          placeholder={t('staffShipments.searchPlaceholder')}
          className="min-h-11 w-72 max-w-full rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900"
        />
      </div>
      <button
        type="submit"
        className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
      >
        {t('staffShipments.apply')}
      </button>
    </Form>
  )
}

/** The shipments of this page, each opening its staff page. */
function ShipmentsTable({ rows }: { rows: Loaded['rows'] }) {
  const { t } = useTranslation()
  return (
    <div className="relative overflow-x-auto">
      <table className="row-cards w-full text-left text-sm md:min-w-[48rem]">
        <caption className="sr-only">{t('staffShipments.title')}</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className="py-2 pr-3">
              {t('staffShipments.columns.number')}
            </th>
            <th scope="col" className="py-2 pr-3">
              {t('staffShipments.columns.customer')}
            </th>
            <th scope="col" className="py-2 pr-3">
              {t('staffShipments.columns.items')}
            </th>
            <th scope="col" className="py-2 pr-3">
              {t('staffShipments.columns.destination')}
            </th>
            <th scope="col" className="py-2 pr-3">
              {t('staffShipments.columns.estimate')}
            </th>
            <th scope="col" className="py-2 pr-3">
              {t('staffShipments.columns.requested')}
            </th>
            <th scope="col" className="py-2">
              {t('staffShipments.columns.status')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={row.id}>
              <td className="py-2 pr-3">
                <Link
                  to={`/admin-dashboard/shipments/${row.id}`}
                  className="font-semibold text-red-800 underline"
                >
                  {row.number}
                </Link>
              </td>
              <td className="py-2 pr-3 break-all" data-label={t('staffShipments.columns.customer')}>
                {row.customerName}
                <br />
                <span className="text-slate-600">{row.customerEmail}</span>
              </td>
              <td className="py-2 pr-3 tabular-nums" data-label={t('staffShipments.columns.items')}>
                {row.items}
              </td>
              <td className="py-2 pr-3" data-label={t('staffShipments.columns.destination')}>
                {t(`staffShipments.methods.${row.method}`)} · {row.country}
              </td>
              <td className="py-2 pr-3 tabular-nums" data-label={t('staffShipments.columns.estimate')}>
                <VoidAmount voided={row.status === 'cancelled'}>{row.price}</VoidAmount>
              </td>
              <td className="py-2 pr-3" data-label={t('staffShipments.columns.requested')}>
                {row.requestedLabel}
              </td>
              <td className="py-2 font-semibold" data-label={t('staffShipments.columns.status')}>
                {t(`staffShipments.statuses.${row.status}`)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
