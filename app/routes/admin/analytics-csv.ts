import { requestContext } from '#app/context.ts'
import { translator } from '#app/i18n.server.ts'
import { apiError } from '#app/lib/http-errors.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import { getAnalytics } from '#core/analytics/analytics.ts'
import { parsePeriod, periodInput } from '#core/analytics/period.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Route } from './+types/analytics-csv.ts'

// /admin-dashboard/analytics.csv?preset=… or ?from=&to=: the analytics page's figures and series
// as CSV (admins only: the admin layout's middleware, and the service again). Whole yen; the
// headings in the admin's language; a cell that a spreadsheet would run as a formula is quoted.

/** One CSV cell: quoted when needed; a leading = + - @ (a formula) is defused with a quote mark. */
export function csvCell(value: string | number): string {
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

async function resource({ request, context }: Route.LoaderArgs) {
  const { language } = context.get(requestContext)
  const t = translator(language)
  const search = new URL(request.url).searchParams
  try {
    const period = parsePeriod(periodInput(search))
    const figures = await getAnalytics(getServiceContext(context), period)
    const rows: (string | number)[][] = [
      [t('analytics.csvHeadings.figure'), t('analytics.csvHeadings.value')],
      [t('analytics.from'), period.fromDay],
      [t('analytics.to'), period.toDay],
      [t('analytics.figures.requests'), figures.requestsReceived],
      [t('analytics.figures.quotesIssued'), figures.quotesIssued],
      [t('analytics.figures.quotesPaid'), figures.quotesPaid],
      [t('analytics.figures.paidInvoices'), figures.revenue.invoices],
      [t('analytics.split.items'), figures.revenue.itemsJpy],
      [t('analytics.split.serviceFees'), figures.revenue.serviceFeeJpy],
      [t('analytics.split.domesticShipping'), figures.revenue.domesticShippingJpy],
      [t('analytics.split.tax'), figures.revenue.taxJpy],
      [t('analytics.csvHeadings.grossRevenueJpy'), figures.revenue.grossJpy],
      [t('analytics.csvHeadings.refundsJpy'), figures.revenue.refundedJpy],
      [t('analytics.figures.revenue'), figures.revenue.totalJpy],
      [t('analytics.figures.average'), figures.revenue.averageJpy],
      [t('analytics.figures.newUsers'), figures.newUsers],
      [t('analytics.figures.shippingRevenue'), figures.shippingRevenue.invoices],
      [t('analytics.csvHeadings.shippingJpy'), figures.shippingRevenue.shippingJpy],
      [t('analytics.csvHeadings.storageFeeJpy'), figures.shippingRevenue.storageFeeJpy],
      [t('analytics.csvHeadings.shippingTaxJpy'), figures.shippingRevenue.taxJpy],
      [t('analytics.csvHeadings.shippingRefundsJpy'), figures.shippingRevenue.refundedJpy],
      [t('analytics.csvHeadings.shippingNetJpy'), figures.shippingRevenue.totalJpy],
      [t('analytics.figures.office'), figures.office.items],
      [t('analytics.csvHeadings.averageDays'), figures.office.averageDaysStored],
      [t('analytics.csvHeadings.claimsOpened'), figures.claims.opened],
      [t('analytics.csvHeadings.claimsLost'), figures.claims.lost],
      [t('analytics.csvHeadings.claimsRefundJpy'), figures.claims.refundJpy],
      [],
      [
        t('analytics.shippedColumns.method'),
        t('analytics.shippedColumns.region'),
        t('analytics.shippedColumns.shipments'),
      ],
      ...figures.shipped.map((row) => [
        t(`analytics.methods.${row.method as 'economic'}`),
        t(`analytics.regions.${row.region as 'asia'}`),
        row.shipments,
      ]),
      [],
      [t('analytics.shopsHeading'), t('analytics.figures.requests')],
      ...figures.topShops.map((shop) => [
        shop.name ? `${shop.name} (${shop.host})` : shop.host,
        shop.requests,
      ]),
      [],
      [
        t(period.bucket === 'day' ? 'analytics.day' : 'analytics.month'),
        t('analytics.figures.requests'),
        t('analytics.csvHeadings.revenueJpy'),
      ],
      ...figures.series.map((entry) => [entry.bucket, entry.requests, entry.revenueJpy]),
    ]
    const body = `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`
    return new Response(`\uFEFF${body}`, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="analytics-${period.fromDay}-${period.toDay}.csv"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    })
  } catch (error) {
    if (!isAppError(error)) throw error
    const { status, body } = apiError(error, t)
    return new Response(body.error.message, {
      status,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
}

// The CSV, or for a browser refused by the guard the guard page (app/middleware/guarded-file.server.ts).
export const middleware: Route.MiddlewareFunction[] = [guardedFile(resource)]

export default function AnalyticsCsv() {
  return null
}
