import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useLoaderData } from 'react-router'
import { BarChart } from '#app/components/admin/bar-chart.tsx'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { toPublicError } from '#app/lib/http-errors.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { type Analytics, getAnalytics } from '#core/analytics/analytics.ts'
import { ANALYTICS_PRESETS, type Period, parsePeriod, periodInput } from '#core/analytics/period.ts'
import { convertFromYen, formatMoney, formatNumber, formatPercent } from '#core/money/money.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Route } from './+types/analytics.ts'

// The admin panel's analytics (docs/decisions/025-admin-analytics.md): ?preset= or ?from=&to=
// (Japan days) in a plain GET form; figures, each saying what it counts; two server-drawn charts
// with their tables; a CSV of the same. Admins only (the admin layout, and the service again).

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams
  const ctx = getServiceContext(context)
  const { language, settings } = context.get(requestContext)
  const input = periodInput(search)
  let period: Period
  try {
    period = parsePeriod(input)
  } catch (error) {
    if (!isAppError(error)) throw error
    const fallback = parsePeriod({})
    return data(
      {
        problem: toPublicError(error).messageKey,
        period: { ...fallback, preset: 'custom' as const, fromDay: input.from ?? '', toDay: input.to ?? '' },
        view: null,
      },
      { status: 400 },
    )
  }
  const figures = await getAnalytics(ctx, period)
  const { yenRates } = await settings.get()
  return { problem: null, period, view: present(figures, period, language, yenRates) }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

/** The figures as the page writes them, in the reader's language. */
function present(
  figures: Analytics,
  period: Period,
  language: 'es' | 'en',
  rates: { USD: number; MXN: number; CLP: number },
) {
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const total = figures.revenue.totalJpy
  const gross = figures.revenue.grossJpy
  return {
    requests: formatNumber(figures.requestsReceived, language),
    quotesIssued: formatNumber(figures.quotesIssued, language),
    quotesPaid: formatNumber(figures.quotesPaid, language),
    paidShare: formatPercent(figures.paidShare, language),
    newUsers: formatNumber(figures.newUsers, language),
    paidInvoices: formatNumber(figures.revenue.invoices, language),
    paidCount: figures.revenue.invoices,
    total: yen(total),
    gross: yen(gross),
    refunded: yen(figures.revenue.refundedJpy),
    equivalents: (['USD', 'MXN', 'CLP'] as const).map((currency) =>
      formatMoney(convertFromYen(total, currency, rates), currency, language),
    ),
    average: yen(figures.revenue.averageJpy),
    split: (
      [
        ['items', figures.revenue.itemsJpy],
        ['serviceFees', figures.revenue.serviceFeeJpy],
        ['domesticShipping', figures.revenue.domesticShippingJpy],
        ['tax', figures.revenue.taxJpy],
      ] as const
    ).map(([part, amount]) => ({ part, amount: yen(amount), share: gross === 0 ? 0 : amount / gross })),
    shipping: {
      total: yen(figures.shippingRevenue.totalJpy),
      refunded: figures.shippingRevenue.refundedJpy > 0 ? yen(figures.shippingRevenue.refundedJpy) : null,
      count: figures.shippingRevenue.invoices,
      invoices: formatNumber(figures.shippingRevenue.invoices, language),
      shipping: yen(figures.shippingRevenue.shippingJpy),
      storage: yen(figures.shippingRevenue.storageFeeJpy),
      tax: yen(figures.shippingRevenue.taxJpy),
    },
    office: {
      items: formatNumber(figures.office.items, language),
      average: formatNumber(figures.office.averageDaysStored, language),
      longest: formatNumber(figures.office.longestDaysStored, language),
    },
    shipped: figures.shipped.map((row) => ({ ...row, count: formatNumber(row.shipments, language) })),
    claims: {
      opened: formatNumber(figures.claims.opened, language),
      lost: formatNumber(figures.claims.lost, language),
      closed: formatNumber(figures.claims.closed, language),
      refund: yen(figures.claims.refundJpy),
    },
    topShops: figures.topShops.map((shop) => ({
      ...shop,
      count: shop.requests,
      requests: formatNumber(shop.requests, language),
    })),
    bucket: period.bucket,
    requestBars: figures.series.map((entry) => ({
      label: entry.bucket,
      value: entry.requests,
      valueLabel: formatNumber(entry.requests, language),
    })),
    revenueBars: figures.series.map((entry) => ({
      label: entry.bucket,
      value: entry.revenueJpy,
      valueLabel: yen(entry.revenueJpy),
    })),
  }
}

const SPLIT_COLOURS = {
  items: 'bg-red-700',
  serviceFees: 'bg-slate-700',
  domesticShipping: 'bg-amber-500',
  tax: 'bg-sky-700',
}
const SPLIT_FILLS = { items: '#b91c1c', serviceFees: '#334155', domesticShipping: '#f59e0b', tax: '#0369a1' }

/** Where each part of the stacked bar starts: the shares before it. */
function splitOffsets<Part extends { share: number }>(parts: Part[]): (Part & { offset: number })[] {
  let offset = 0
  return parts.map((part) => {
    const placed = { ...part, offset }
    offset += part.share
    return placed
  })
}

export default function AnalyticsRoute() {
  const { t } = useTranslation()
  const { problem, period, view } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="analytics-heading" className="space-y-8">
      <PageMeta title={t('analytics.title')} description={t('analytics.lead')} />
      <div>
        <h1 id="analytics-heading" className="text-3xl font-bold text-slate-900">
          {t('analytics.title')}
        </h1>
        <p className="mt-2 text-slate-700">{t('analytics.lead')}</p>
      </div>
      <PeriodForm period={period} />
      <p className="text-sm text-slate-700">{t('analytics.customHint')}</p>
      <FormAlert>{errorText(t, problem)}</FormAlert>
      {view ? <AnalyticsFigures period={period} view={view} /> : null}
    </section>
  )
}

type View = ReturnType<typeof present>
type ShownPeriod = Pick<Period, 'preset' | 'fromDay' | 'toDay'>

/** One figure: what it counts, its value and a sentence saying what it includes. */
function figure(t: TFunction, name: string, value: string, help: string) {
  return (
    <div key={name} className="rounded-lg border border-slate-200 p-4">
      <dt className="text-sm font-medium text-slate-700">{t(`analytics.figures.${name as 'requests'}`)}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900" data-testid={`figure-${name}`}>
        {value}
      </dd>
      <dd className="mt-1 text-sm text-slate-700">{help}</dd>
    </div>
  )
}

/** The plain GET form choosing the period: a preset, or from and to (Japan days). */
function PeriodForm({ period }: { period: ShownPeriod }) {
  const { t } = useTranslation()
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3">
      <div className="space-y-1">
        <label htmlFor="analytics-preset" className="block text-sm font-medium text-slate-800">
          {t('analytics.period')}
        </label>
        <select id="analytics-preset" name="preset" defaultValue={period.preset} className={inputClass}>
          {ANALYTICS_PRESETS.map((name) => (
            <option key={name} value={name}>
              {t(`analytics.presets.${name}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1">
        <label htmlFor="analytics-from" className="block text-sm font-medium text-slate-800">
          {t('analytics.from')}
        </label>
        <input
          id="analytics-from"
          name="from"
          type="date"
          defaultValue={period.fromDay}
          className={inputClass}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor="analytics-to" className="block text-sm font-medium text-slate-800">
          {t('analytics.to')}
        </label>
        <input id="analytics-to" name="to" type="date" defaultValue={period.toDay} className={inputClass} />
      </div>
      <input type="hidden" name="shown_from" value={period.fromDay} />
      <input type="hidden" name="shown_to" value={period.toDay} />
      <button type="submit" className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white">
        {t('analytics.apply')}
      </button>
    </Form>
  )
}

/** The period's figures: the headline numbers, the revenue's split, the charts, shops and shipping. */
function AnalyticsFigures({ period, view }: { period: ShownPeriod; view: View }) {
  const { t } = useTranslation()
  const csvHref = `/admin-dashboard/analytics.csv?${new URLSearchParams(
    period.preset === 'custom' ? { from: period.fromDay, to: period.toDay } : { preset: period.preset },
  )}`
  return (
    <>
      <p className="text-slate-800" data-testid="analytics-period">
        {t('analytics.showing', { from: period.fromDay, to: period.toDay })}{' '}
        <Link to={csvHref} reloadDocument className="font-semibold text-red-800 underline">
          {t('analytics.csv')}
        </Link>
      </p>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {figure(t, 'requests', view.requests, t('analytics.help.requests'))}
        {figure(t, 'quotesIssued', view.quotesIssued, t('analytics.help.quotesIssued'))}
        {figure(
          t,
          'paidShare',
          view.paidShare,
          t('analytics.help.paidShare', { paid: view.quotesPaid, issued: view.quotesIssued }),
        )}
        {figure(
          t,
          'revenue',
          view.total,
          `${view.equivalents.join(' · ')}. ${t('analytics.help.revenue', { count: view.paidCount, invoices: view.paidInvoices })} ${t('analytics.help.refunds', { refunds: view.refunded })}`,
        )}
        {figure(t, 'average', view.average, t('analytics.help.average'))}
        {figure(t, 'newUsers', view.newUsers, t('analytics.help.newUsers'))}
      </dl>

      <RevenueSplit view={view} />

      <BarChart
        title={t(view.bucket === 'day' ? 'analytics.requestsPerDay' : 'analytics.requestsPerMonth')}
        summary={t('analytics.chartSummary', {
          from: period.fromDay,
          to: period.toDay,
          total: view.requests,
        })}
        bars={view.requestBars}
        columns={[
          t(view.bucket === 'day' ? 'analytics.day' : 'analytics.month'),
          t('analytics.figures.requests'),
        ]}
      />
      <BarChart
        title={t(view.bucket === 'day' ? 'analytics.revenuePerDay' : 'analytics.revenuePerMonth')}
        summary={t('analytics.chartSummary', {
          from: period.fromDay,
          to: period.toDay,
          total: view.total,
        })}
        bars={view.revenueBars}
        columns={[
          t(view.bucket === 'day' ? 'analytics.day' : 'analytics.month'),
          t('analytics.figures.revenue'),
        ]}
      />

      <TopShops shops={view.topShops} />
      <ShippingFigures view={view} />
    </>
  )
}

/** How the revenue splits (items, fees, shipping in Japan, tax): a stacked bar and its figures. */
function RevenueSplit({ view }: { view: View }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="split-heading" className="space-y-3">
      <h2 id="split-heading" className="text-xl font-semibold text-slate-900">
        {t('analytics.splitHeading')}
      </h2>
      <p className="text-sm text-slate-700">{t('analytics.help.split')}</p>
      {/* Attributes, not inline styles: the page's CSP allows no style attribute. */}
      <svg
        aria-hidden="true"
        className="h-4 w-full max-w-3xl rounded bg-slate-100"
        preserveAspectRatio="none"
      >
        {splitOffsets(view.split).map((part) => (
          <rect
            key={part.part}
            x={`${part.offset * 100}%`}
            width={`${part.share * 100}%`}
            height="100%"
            fill={SPLIT_FILLS[part.part]}
          />
        ))}
      </svg>
      <dl className="grid max-w-3xl gap-2 sm:grid-cols-2">
        {view.split.map((part) => (
          <div key={part.part} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className={`inline-block size-3 rounded-sm ${SPLIT_COLOURS[part.part]}`}
            />
            <dt className="text-slate-700">{t(`analytics.split.${part.part}`)}</dt>
            <dd className="font-semibold text-slate-900" data-testid={`split-${part.part}`}>
              {part.amount}
            </dd>
          </div>
        ))}
      </dl>
      <p className="font-medium text-slate-900" data-testid="revenue-net">
        {t('analytics.netLine', { gross: view.gross, refunds: view.refunded, net: view.total })}
      </p>
    </section>
  )
}

/** The shops asked for most in the period. */
function TopShops({ shops }: { shops: View['topShops'] }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="shops-heading">
      <h2 id="shops-heading" className="text-xl font-semibold text-slate-900">
        {t('analytics.shopsHeading')}
      </h2>
      <p className="text-sm text-slate-700">{t('analytics.help.shops')}</p>
      {shops.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('analytics.noShops')}</p>
      ) : (
        <ol className="mt-3 list-decimal space-y-1 pl-6" data-testid="top-shops">
          {shops.map((shop) => (
            <li key={shop.host} className="text-slate-900">
              {shop.name ? `${shop.name} (${shop.host})` : shop.host}:{' '}
              {t('analytics.shopRequests', { count: shop.count, requests: shop.requests })}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** Shipping: its revenue, the items stored at the office, claims, and what was shipped where. */
function ShippingFigures({ view }: { view: View }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="shipping-heading" className="space-y-4">
      <h2 id="shipping-heading" className="text-xl font-semibold text-slate-900">
        {t('analytics.shippingHeading')}
      </h2>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {figure(
          t,
          'shippingRevenue',
          view.shipping.total,
          `${t('analytics.shippingRevenueHelp', {
            count: view.shipping.count,
            invoices: view.shipping.invoices,
            shipping: view.shipping.shipping,
            storage: view.shipping.storage,
            tax: view.shipping.tax,
          })}${view.shipping.refunded ? ` ${t('analytics.shippingRefunds', { refunds: view.shipping.refunded })}` : ''}`,
        )}
        {figure(
          t,
          'office',
          view.office.items,
          t('analytics.officeHelp', { average: view.office.average, longest: view.office.longest }),
        )}
        {figure(t, 'claims', view.claims.opened, t('analytics.claimsHelp', view.claims))}
      </dl>
      <div>
        <h3 id="shipped-heading" className="text-lg font-semibold text-slate-900">
          {t('analytics.shippedHeading')}
        </h3>
        <p className="text-sm text-slate-700">{t('analytics.shippedHelp')}</p>
        {view.shipped.length === 0 ? (
          <p className="mt-2 text-slate-700">{t('analytics.shippedNone')}</p>
        ) : (
          <table
            aria-labelledby="shipped-heading"
            className="mt-2 w-full max-w-2xl text-left text-sm"
            data-testid="shipped"
          >
            <thead className="border-b border-slate-300 text-slate-700">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  {t('analytics.shippedColumns.method')}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t('analytics.shippedColumns.region')}
                </th>
                <th scope="col" className="py-2 text-right">
                  {t('analytics.shippedColumns.shipments')}
                </th>
              </tr>
            </thead>
            <tbody>
              {view.shipped.map((row) => (
                <tr key={`${row.method}-${row.region}`} className="border-b border-slate-200">
                  <td className="py-2 pr-3">{t(`analytics.methods.${row.method as 'economic'}`)}</td>
                  <td className="py-2 pr-3">{t(`analytics.regions.${row.region as 'asia'}`)}</td>
                  <td className="py-2 text-right tabular-nums">{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  )
}
