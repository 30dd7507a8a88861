import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import { RequestTimeline } from '#app/components/orders/request-timeline.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { formatGrams, japanDateTime } from '#app/lib/dates.ts'
import { errorHeaders, messageKeyOf, throwRouteError } from '#app/lib/http-errors.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { countryName } from '#core/customers/countries.ts'
import { formatMoney } from '#core/money/money.ts'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { isAppError } from '#core/shared/errors.ts'
import { cancelShipment, getShipment } from '#core/shipping/shipment-service.ts'
import type { Route } from './+types/shipment.ts'

// One shipment for staff (docs/decisions/028): who, where to, what to pack and where each item
// sits (package and shelf), the estimate the customer saw, the history; cancel while it waits
// to be packed (the customer is told). Packing, pricing and shipping come next (issue #11).

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const shipment = await getShipment(orders, params.id).catch(throwRouteError)
  const { language } = context.get(requestContext)
  const when = japanDateTime(language)
  return {
    cancelled: new URL(request.url).searchParams.has('cancelled'),
    shipment: {
      id: shipment.id,
      number: shipment.number,
      status: shipment.status,
      version: shipment.version,
      method: shipment.method,
      route: shipment.route,
      customer: shipment.customer,
      address: { ...shipment.address, countryName: countryName(shipment.address.country, language) },
      estimate: {
        weight: formatGrams(shipment.estimatedWeightG, language),
        price: formatMoney(shipment.estimatedPriceJpy, 'JPY', language),
      },
      lines: shipment.lines.map((line) => ({
        ...line,
        weight: line.weightGrams === null ? '' : formatGrams(line.weightGrams, language),
      })),
      events: shipment.events.map((event) => ({ ...event, createdLabel: when(event.createdAt) })),
    },
  }
}

export async function action({ params, context, request }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData())
  try {
    await cancelShipment(getOrderContext(context), { id: params.id, version: form.get('version') })
  } catch (error) {
    const failure = databaseUnavailableError(error, { write: true }) ?? error
    if (!isAppError(failure) || failure.code === 'not_found' || failure.code === 'unauthorized')
      throwRouteError(failure)
    const status = failure.code === 'conflict' ? 409 : failure.code === 'forbidden' ? 403 : 400
    return data({ messageKey: messageKeyOf(failure) }, { status, headers: errorHeaders(failure) })
  }
  return redirect(`/admin-dashboard/shipments/${params.id}?cancelled=1`)
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function StaffShipmentRoute() {
  const { t } = useTranslation()
  const { shipment, cancelled } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const title = t('staffShipments.detailTitle', { number: shipment.number })
  return (
    <article aria-labelledby="shipment-heading" className="space-y-6">
      <PageMeta title={title} description={title} />
      <p>
        <Link to="/admin-dashboard/shipments" className="font-semibold text-red-800 underline">
          {t('staffShipments.back')}
        </Link>
      </p>
      {answer?.messageKey ? (
        <p role="alert" className="rounded-md bg-amber-50 p-3 font-medium text-amber-950">
          {t(answer.messageKey as 'errors.codes.conflict')}
        </p>
      ) : cancelled ? (
        <p role="status" className="rounded-md bg-emerald-50 p-3 font-medium text-emerald-900">
          {t('staffShipments.cancelled')}
        </p>
      ) : null}
      <header className="flex flex-wrap items-center gap-3">
        <h1 id="shipment-heading" className="text-3xl font-bold text-slate-900">
          {title}
        </h1>
        <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-900">
          {t(`staffShipments.statuses.${shipment.status}`)}
        </span>
      </header>
      <p className="text-slate-800">
        {t('staffShipments.estimate', {
          ...shipment.estimate,
          method: t(`staffShipments.methods.${shipment.method}`),
        })}{' '}
        · {t(`staffShipments.route.${shipment.route as 'direct'}`)}
      </p>
      <div className="grid gap-6 md:grid-cols-2">
        <section aria-labelledby="customer-heading">
          <h2 id="customer-heading" className="text-xl font-semibold text-slate-900">
            {t('staffShipments.customerHeading')}
          </h2>
          {shipment.customer ? (
            <p className="mt-2 break-all text-slate-800">
              <Link to={`/admin-dashboard/users/${shipment.customer.id}`} className="underline">
                {shipment.customer.name}
              </Link>
              <br />
              {shipment.customer.email}
            </p>
          ) : null}
        </section>
        <section aria-labelledby="address-heading">
          <h2 id="address-heading" className="text-xl font-semibold text-slate-900">
            {t('staffShipments.addressHeading')}
          </h2>
          <address className="mt-2 whitespace-pre-line text-slate-800 not-italic">
            {[
              shipment.address.fullName,
              shipment.address.street,
              [shipment.address.city, shipment.address.region, shipment.address.postalCode]
                .filter(Boolean)
                .join(', '),
              shipment.address.countryName,
              shipment.address.phone,
            ].join('\n')}
          </address>
        </section>
      </div>
      <section aria-labelledby="items-heading">
        <h2 id="items-heading" className="text-xl font-semibold text-slate-900">
          {t('staffShipments.itemsHeading')}
        </h2>
        <ul className="mt-2 space-y-2 text-slate-800">
          {shipment.lines.map((line) => (
            <li key={line.id}>
              <Link to={`/admin-dashboard/requests/${line.requestId}`} className="font-semibold underline">
                {t('staffShipments.itemLine', {
                  request: line.requestNumber,
                  position: line.position,
                  title: line.title ?? line.shopHost,
                })}
              </Link>
              <br />
              {t('staffShipments.itemPlace', {
                weight: line.weight,
                package: line.packageNumber ?? '',
                shelf: line.shelf ?? '',
              })}
            </li>
          ))}
        </ul>
      </section>
      {shipment.status === 'requested' ? (
        <Form method="post" className="space-y-2 rounded-lg border border-slate-200 p-4">
          <input type="hidden" name="version" value={shipment.version} />
          <p id="cancel-hint" className="text-slate-700">
            {t('staffShipments.cancelHint')}
          </p>
          <button
            type="submit"
            aria-describedby="cancel-hint"
            className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
          >
            {t('staffShipments.cancel')}
          </button>
        </Form>
      ) : null}
      <RequestTimeline
        headingId="shipment-history"
        heading={t('staffShipments.history')}
        events={shipment.events}
        eventLabel={(event) => t(`staffShipments.events.${event.event as 'request'}`)}
        detail={(event) => event.createdLabel}
      />
    </article>
  )
}
