import { Boxes, Truck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Link, useActionData, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { formatGrams, japanDateTime, japanDay } from '#app/lib/dates.ts'
import { refusalOf } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { countryName } from '#core/customers/countries.ts'
import { listAddresses } from '#core/customers/profile-service.ts'
import { methodsFor } from '#core/landed-cost/destination-rules.ts'
import { customsRatesOf } from '#core/landed-cost/landed-cost.ts'
import { formatMoney, formatPercent } from '#core/money/money.ts'
import { chosenItemsEstimate } from '#core/shipping/import-estimate.ts'
import { estimateMyShipment, listMyShipments, requestShipment } from '#core/shipping/shipment-service.ts'
import { listStoredItems } from '#core/warehouse/stored-items.ts'
import type { Route } from './+types/shipping.ts'
import { ShipForm } from './shipping-form.tsx'

// The shipping tab (docs/decisions/027, 028): the customer's items at our office in Osaka, each
// with its package's photos, its weight, its arrival and the free storage it has left (standing
// out below 7 days); a form to send some of them together (items from any request, an address
// from the book, a method) with the estimate first; and their shipments. Works without
// JavaScript: "see the estimate" and "ask to ship" are two buttons of one form. The layout's
// loader refuses anyone not signed in.

export async function loader({ context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const { language, currency, importRules } = context.get(requestContext)
  const { freeStorageDays, storageFeePerDayJpy, taxRate, yenRates } = await orders.settings.get()
  const [items, addressBook, shipments, rules] = await Promise.all([
    listStoredItems(orders, {
      now: new Date(),
      freeDays: freeStorageDays,
      feePerDayJpy: storageFeePerDayJpy,
    }),
    listAddresses(orders),
    listMyShipments(orders),
    importRules.inEffect(),
  ])
  const when = japanDateTime(language)
  const day = japanDay(language)
  return {
    freeDays: freeStorageDays,
    // The storage fee as it accrues (docs/decisions/037), in yen and about how much in the
    // visitor's currency at today's rates.
    money: {
      language,
      currency,
      rates: currency === 'JPY' ? null : yenRates,
      feePerDay: formatMoney(storageFeePerDayJpy, 'JPY', language),
      taxRate: formatPercent(taxRate, language),
    },
    items: items.map((item) => ({
      id: item.id,
      requestId: item.requestId,
      requestNumber: item.requestNumber,
      position: item.position,
      title: item.title,
      shopHost: item.shopHost,
      weightLabel: formatGrams(item.weightGrams, language),
      arrivedLabel: when(item.receivedAt),
      packageNumber: item.packageNumber,
      photos: item.photos,
      daysLeft: item.storage.daysLeft,
      untilLabel: day(item.storage.freeUntil),
      endingSoon: item.storage.endingSoon && !item.shipment,
      expired: item.storage.expired,
      storageFee: item.storageFee,
      shipment: item.shipment,
    })),
    addresses: addressBook.map((address) => ({
      id: address.id,
      label: `${address.fullName}, ${address.city}, ${countryName(address.country, language)}`,
      isDefault: address.isDefault,
      country: countryName(address.country, language),
      // The methods its country can use today, and why the others are missing (issue 30).
      methods: methodsFor(rules, address.country).map((choice) => ({
        method: choice.method,
        available: choice.available,
        note: choice.note ? choice.note[language] : null,
      })),
    })),
    shipments: shipments.map((shipment) => ({
      ...shipment,
      country: countryName(shipment.country, language),
      requestedLabel: when(shipment.requestedAt),
    })),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData())
  const intent = form.get('intent') === 'request' ? 'request' : 'estimate'
  const input = {
    items: form.getAll('items'),
    addressId: form.get('addressId') ?? undefined,
    method: form.get('method') ?? undefined,
  }
  const sent = {
    items: input.items.filter((value): value is string => typeof value === 'string'),
    addressId: typeof input.addressId === 'string' ? input.addressId : '',
    method: typeof input.method === 'string' ? input.method : '',
  }
  const orders = getOrderContext(context)
  const { language, currency, shippingRates, importRules } = context.get(requestContext)
  try {
    const { tables } = await shippingRates.get()
    if (intent === 'request') {
      const created = await requestShipment(orders, input, tables, { locale: language })
      return redirectWithNotice(context, `/user-dashboard/shipments/${created.id}`, 'shipmentRequested')
    }
    const { estimate, country, choice } = await estimateMyShipment(orders, input, tables)
    const settings = await orders.settings.get()
    const taxRateLabel = formatPercent(settings.taxRate, language)
    // What the parcel would cost at the door (issue 30): the items' paid prices and this shipping,
    // with the rule's warnings; never a suggestion to declare less.
    const landed =
      estimate.ok && orders.actor
        ? await chosenItemsEstimate(orders.db, {
            userId: orders.actor.id,
            itemIds: choice.items,
            country,
            shippingJpy: estimate.priceJpy,
            rules: await importRules.inEffect(),
            rates: customsRatesOf(settings),
            now: new Date(),
          })
        : null
    return {
      intent,
      sent,
      estimate: estimate.ok
        ? {
            ok: true as const,
            weight: formatGrams(estimate.weightG, language),
            priceJpy: estimate.priceJpy,
            breakdown: {
              shippingJpy: estimate.priceJpy,
              storage: estimate.storage.map(({ itemId, title, days, feePerDayJpy }) => ({
                id: itemId,
                title,
                days,
                feePerDayJpy,
              })),
              storageFeeJpy: estimate.storageFeeJpy,
              taxJpy: estimate.taxJpy,
              taxRateLabel,
              totalJpy: estimate.totalJpy,
            },
            deliveryTime: estimate.deliveryTime,
            route: estimate.route,
            country: countryName(country, language),
            landed: landed ? { ...landed, paidJpy: estimate.totalJpy, yenRates: settings.yenRates } : null,
            rates: currency === 'JPY' ? null : settings.yenRates,
            currency,
            language,
          }
        : {
            ok: false as const,
            refusal: estimate.refusal,
            weight: formatGrams(estimate.weightG, language),
            max: formatGrams(estimate.maxG, language),
          },
      errors: null,
      messageKey: null,
    }
  } catch (caught) {
    const refusal = refusalOf(caught, { write: intent === 'request' })
    // Input, a stale page or a missing address is said beside the form; the rest is the error page.
    if (!['invalid', 'conflict', 'not_found'].includes(refusal.error.code)) throw refusal.error
    return data(
      { intent, sent, estimate: null, errors: refusal.fieldErrors, messageKey: refusal.messageKey },
      refusal.init,
    )
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const NEXT = [
  { key: 'consolidation', Icon: Boxes },
  { key: 'shipments', Icon: Truck },
] as const

export default function ShippingRoute() {
  const { t } = useTranslation()
  const { items, freeDays, addresses, shipments, money } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const linkClass =
    'inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4'
  return (
    <section aria-labelledby="shipping-heading" className="space-y-8">
      <PageMeta title={t('shippingTab.title')} description={t('shippingTab.lead', { days: freeDays })} />
      <header>
        <h1 id="shipping-heading" className="text-3xl font-bold text-slate-900">
          {t('shippingTab.title')}
        </h1>
        <p className="mt-2 max-w-3xl text-slate-700">{t('shippingTab.lead', { days: freeDays })}</p>
      </header>
      {items.length === 0 ? (
        <p className="rounded-md border border-slate-200 bg-slate-50 p-4 font-medium text-slate-800">
          {t('shippingTab.nothingYet')}
        </p>
      ) : (
        <ShipForm items={items} addresses={addresses} money={money} answer={answer} />
      )}
      {shipments.length > 0 ? <ShipmentList shipments={shipments} /> : null}
      <section aria-labelledby="coming-heading" className="space-y-4">
        <h2 id="coming-heading" className="text-xl font-semibold text-slate-900">
          {t('shippingTab.comingHeading')}
        </h2>
        <ol className="grid gap-4 lg:grid-cols-2">
          {NEXT.map(({ key, Icon }) => (
            <li key={key} className="rounded-lg border border-slate-200 p-5">
              <Icon aria-hidden="true" className="size-7 text-red-700" />
              <h3 className="mt-3 text-lg font-semibold text-slate-900">{t(`shippingTab.${key}Heading`)}</h3>
              <p className="mt-2 text-slate-700">{t(`shippingTab.${key}Text`)}</p>
            </li>
          ))}
        </ol>
        <p className="max-w-3xl text-slate-700">{t('shippingTab.methods')}</p>
      </section>
      <section aria-labelledby="now-heading">
        <h2 id="now-heading" className="text-xl font-semibold text-slate-900">
          {t('shippingTab.nowHeading')}
        </h2>
        <ul className="mt-2 space-y-1">
          <li>
            <Link to="/calculator" className={linkClass}>
              {t('shippingTab.calculatorLink')}
            </Link>
          </li>
          <li>
            <Link to="/user-dashboard/profile/addresses/new" className={linkClass}>
              {t('shippingTab.addressLink')}
            </Link>
          </li>
          <li>
            <Link to="/user-dashboard/requests" className={linkClass}>
              {t('shippingTab.requestsLink')}
            </Link>
          </li>
        </ul>
      </section>
    </section>
  )
}

/** The customer's shipments, newest first: number, what and where, when asked, status. */
function ShipmentList({
  shipments,
}: {
  shipments: ReturnType<typeof useLoaderData<typeof loader>>['shipments']
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="shipments-heading" className="space-y-3">
      <h2 id="shipments-heading" className="text-xl font-semibold text-slate-900">
        {t('shipments.listHeading')}
      </h2>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {shipments.map((shipment) => (
          <li key={shipment.id} className="flex flex-wrap items-center justify-between gap-2 p-4">
            <div>
              <Link
                to={`/user-dashboard/shipments/${shipment.id}`}
                className="font-semibold text-red-800 underline"
              >
                {shipment.number}
              </Link>{' '}
              <span className="text-slate-800">
                {t('shipments.summary', {
                  count: shipment.items,
                  method: t(`shipments.methodNames.${shipment.method}`),
                  country: shipment.country,
                })}
              </span>
              <p className="text-sm text-slate-700">
                {t('shipments.requestedOn', { date: shipment.requestedLabel })}
              </p>
            </div>
            <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-900">
              {t(`shipments.statuses.${shipment.status}`)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
