import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { formatMoney } from '#core/money/money.ts'
import { listMyRequests } from '#core/orders/request-service.ts'
import type { Route } from './+types/requests.ts'

// The customer's requests, newest first, 20 a page (?cursor= for older ones), each with its
// quote's amounts (items, shipping within Japan, service fee, tax, total), or a plain word that
// there is none yet; an open quote to pay links to the request's payment panel (ADR 036).

export async function loader({ request, context }: Route.LoaderArgs) {
  const cursor = new URL(request.url).searchParams.get('cursor')
  const page = await listMyRequests(getServiceContext(context), { cursor })
  const { language } = context.get(requestContext)
  const format = japanDateTime(language)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return {
    first: !cursor,
    nextCursor: page.nextCursor,
    requests: page.rows.map(({ quote, ...row }) => ({
      ...row,
      submittedLabel: format(row.submittedAt),
      quote: quote
        ? {
            status: quote.status,
            items: yen(quote.itemsJpy),
            domesticShipping: quote.domesticShippingJpy > 0 ? yen(quote.domesticShippingJpy) : null,
            serviceFee: yen(quote.serviceFeeJpy),
            tax: yen(quote.taxJpy),
            total: yen(quote.totalJpy),
            dueLabel: format(quote.dueAt),
            // An open quote on a quoted request, nothing being checked: there is something to pay.
            toPay: quote.status === 'open' && row.status === 'quoted' && !quote.beingChecked,
            beingChecked: quote.status === 'open' && quote.beingChecked,
          }
        : null,
    })),
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
              <RequestAmounts
                id={request.id}
                number={request.number}
                status={request.status}
                quote={request.quote}
              />
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

type QuoteAmounts = NonNullable<Awaited<ReturnType<typeof loader>>['requests'][number]['quote']>

/** A request's amounts in the history: its quote's lines and total, what to pay and how, or why there are none. */
function RequestAmounts({
  id,
  number,
  status,
  quote,
}: {
  id: string
  number: string
  status: string
  quote: QuoteAmounts | null
}) {
  const { t } = useTranslation()
  if (!quote) {
    return (
      <p className="mt-3 text-sm text-slate-700" data-testid="request-amounts">
        {status === 'submitted'
          ? t('requests.amounts.noneYet')
          : status === 'rejected'
            ? t('requests.amounts.noneRejected')
            : t('requests.amounts.none')}
      </p>
    )
  }
  const rows: [string, string][] = [
    [t('requests.amounts.items'), quote.items],
    ...(quote.domesticShipping
      ? [[t('requests.amounts.domesticShipping'), quote.domesticShipping] as [string, string]]
      : []),
    [t('requests.amounts.serviceFee'), quote.serviceFee],
    [t('requests.amounts.tax'), quote.tax],
  ]
  return (
    <div className="mt-3 space-y-2" data-testid="request-amounts">
      <dl
        aria-label={t('requests.amounts.label', { number })}
        className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-800"
      >
        {rows.map(([term, value]) => (
          <div key={term} className="flex gap-1">
            <dt className="text-slate-700">{term}:</dt>
            <dd className="tabular-nums">{value}</dd>
          </div>
        ))}
        <div className="flex gap-1 font-semibold text-slate-900">
          <dt>{t(`requests.amounts.total.${quote.status}`)}:</dt>
          <dd className="tabular-nums" data-testid="request-total">
            {quote.total}
          </dd>
        </div>
      </dl>
      {quote.toPay ? (
        <p className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-md bg-sky-50 p-3 text-sky-950">
          <span>{t('requests.amounts.toPay', { amount: quote.total, date: quote.dueLabel })}</span>
          <Link
            to={`/user-dashboard/requests/${id}#payment-heading`}
            aria-label={t('requests.amounts.payLabel', { amount: quote.total, number })}
            className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
          >
            {t('requests.amounts.pay')}
          </Link>
        </p>
      ) : quote.beingChecked ? (
        <p className="rounded-md bg-sky-50 p-3 text-sky-950">{t('requests.amounts.beingChecked')}</p>
      ) : null}
    </div>
  )
}
