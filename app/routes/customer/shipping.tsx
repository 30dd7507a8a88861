import { Boxes, Truck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { ShippingBreakdown } from '#app/components/orders/shipping-breakdown.tsx'
import { PackagePhotos } from '#app/components/orders/warehouse-panel.tsx'
import { YenAmount } from '#app/components/orders/yen-amount.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { formatGrams, japanDateTime, japanDay } from '#app/lib/dates.ts'
import { refusalOf } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { countryName } from '#core/customers/countries.ts'
import { listAddresses } from '#core/customers/profile-service.ts'
import { formatMoney, formatPercent, type YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { SHIPPING_METHODS } from '#core/pricing/pricing.ts'
import { estimateMyShipment, listMyShipments, requestShipment } from '#core/shipping/shipment-service.ts'
import { listStoredItems } from '#core/warehouse/stored-items.ts'
import type { Route } from './+types/shipping.ts'

// The shipping tab (docs/decisions/027, 028): the customer's items at our office in Osaka, each
// with its package's photos, its weight, its arrival and the free storage it has left (standing
// out below 7 days); a form to send some of them together (items from any request, an address
// from the book, a method) with the estimate first; and their shipments. Works without
// JavaScript: "see the estimate" and "ask to ship" are two buttons of one form. The layout's
// loader refuses anyone not signed in.

export async function loader({ context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const { language, currency } = context.get(requestContext)
  const { freeStorageDays, storageFeePerDayJpy, taxRate, yenRates } = await orders.settings.get()
  const [items, addressBook, shipments] = await Promise.all([
    listStoredItems(orders, {
      now: new Date(),
      freeDays: freeStorageDays,
      feePerDayJpy: storageFeePerDayJpy,
    }),
    listAddresses(orders),
    listMyShipments(orders),
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
  const { language, currency, shippingRates } = context.get(requestContext)
  try {
    const { tables } = await shippingRates.get()
    if (intent === 'request') {
      const created = await requestShipment(orders, input, tables, { locale: language })
      return redirectWithNotice(context, `/user-dashboard/shipments/${created.id}`, 'shipmentRequested')
    }
    const { estimate, country } = await estimateMyShipment(orders, input, tables)
    const settings = await orders.settings.get()
    const taxRateLabel = formatPercent(settings.taxRate, language)
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
  const shippable = items.filter((item) => !item.shipment)
  const sent = answer?.sent
  const fieldError = (name: string) => {
    const key = answer?.errors?.[name]?.[0]
    return errorTextIn(t, 'shipments.errors', key)
  }
  const defaultAddress =
    sent?.addressId || addresses.find((address) => address.isDefault)?.id || addresses[0]?.id
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
        <Form method="post" className="space-y-6">
          <section aria-labelledby="stored-heading" className="space-y-3">
            <h2 id="stored-heading" className="text-xl font-semibold text-slate-900">
              {t('shippingTab.storedHeading', { count: items.length })}
            </h2>
            {shippable.length > 0 ? (
              <p className="max-w-3xl text-slate-700">{t('shipments.chooseLead')}</p>
            ) : null}
            <FormAlert tone="warning" look="box">
              {errorText(t, answer?.messageKey)}
            </FormAlert>
            {fieldError('items') ? (
              <p id="items-error" className="font-medium text-red-800">
                {fieldError('items')}
              </p>
            ) : null}
            <ul className="space-y-3">
              {items.map((item) => {
                const heading =
                  item.title ??
                  t('shippingTab.itemTitle', { position: item.position, number: item.requestNumber })
                return (
                  <li
                    key={item.id}
                    className={`grid gap-3 rounded-lg border p-4 sm:grid-cols-[minmax(0,1fr)_auto] ${
                      item.endingSoon ? 'border-amber-500 bg-amber-50' : 'border-slate-200'
                    }`}
                  >
                    <div className="min-w-0 space-y-1">
                      <h3 id={`item-${item.id}`} className="font-semibold break-words text-slate-900">
                        {heading}
                      </h3>
                      <p className="text-sm text-slate-700">
                        <Link
                          to={`/user-dashboard/requests/${item.requestId}`}
                          className="font-semibold text-red-800 underline"
                        >
                          {t('shippingTab.requestLink', { number: item.requestNumber })}
                        </Link>
                        {' · '}
                        {item.shopHost} · {t('shippingTab.packageLabel', { number: item.packageNumber })}
                      </p>
                      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-slate-800">
                        <dt className="font-medium">{t('shippingTab.weight')}</dt>
                        <dd>{item.weightLabel}</dd>
                        <dt className="font-medium">{t('shippingTab.arrived')}</dt>
                        <dd>{item.arrivedLabel}</dd>
                      </dl>
                      {item.shipment ? (
                        <>
                          <p className="text-slate-800">
                            <Link
                              to={`/user-dashboard/shipments/${item.shipment.id}`}
                              className="font-semibold text-red-800 underline"
                            >
                              {t('shipments.inShipment', { number: item.shipment.number })}
                            </Link>
                          </p>
                          <StorageFee fee={item.storageFee} money={money} inShipment />
                        </>
                      ) : (
                        <>
                          <p className={item.endingSoon ? 'font-semibold text-amber-950' : 'text-slate-800'}>
                            {item.expired
                              ? t('shippingTab.storageOver', { date: item.untilLabel })
                              : t('shippingTab.daysLeft', { count: item.daysLeft, date: item.untilLabel })}
                          </p>
                          <StorageFee fee={item.storageFee} money={money} inShipment={false} />
                          <div className="flex min-h-11 items-center gap-3">
                            <input
                              type="checkbox"
                              id={`ship-${item.id}`}
                              name="items"
                              value={item.id}
                              defaultChecked={sent?.items.includes(item.id) ?? false}
                              aria-describedby={`item-${item.id}${fieldError('items') ? ' items-error' : ''}`}
                              className="size-5 accent-red-700"
                            />
                            <label htmlFor={`ship-${item.id}`} className="font-medium text-slate-900">
                              {t('shipments.select')}
                            </label>
                          </div>
                        </>
                      )}
                    </div>
                    <PackagePhotos
                      number={item.packageNumber}
                      photos={item.photos}
                      altKey="shippingTab.photoAlt"
                    />
                  </li>
                )
              })}
            </ul>
          </section>
          {shippable.length > 0 ? (
            <section
              aria-labelledby="choose-heading"
              className="space-y-4 rounded-lg border border-slate-200 p-4"
            >
              <h2 id="choose-heading" className="text-xl font-semibold text-slate-900">
                {t('shipments.chooseHeading')}
              </h2>
              {addresses.length === 0 ? (
                <p className="text-slate-800">
                  {t('shipments.addressNone')}{' '}
                  <Link
                    to="/user-dashboard/profile/addresses/new"
                    className="font-semibold text-red-800 underline"
                  >
                    {t('shipments.addAddress')}
                  </Link>
                </p>
              ) : (
                <div className="space-y-1">
                  <label htmlFor="ship-address" className="block text-sm font-medium text-slate-800">
                    {t('shipments.address')}
                  </label>
                  <select
                    id="ship-address"
                    name="addressId"
                    defaultValue={defaultAddress}
                    aria-describedby={fieldError('addressId') ? 'address-error' : undefined}
                    aria-invalid={fieldError('addressId') ? true : undefined}
                    className="block min-h-11 w-full max-w-xl rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900"
                  >
                    {addresses.map((address) => (
                      <option key={address.id} value={address.id}>
                        {address.label}
                      </option>
                    ))}
                  </select>
                  {fieldError('addressId') ? (
                    <p id="address-error" className="text-sm font-medium text-red-800">
                      {fieldError('addressId')}
                    </p>
                  ) : null}
                  <Link
                    to="/user-dashboard/profile/addresses/new"
                    className="inline-flex min-h-11 items-center text-sm font-semibold text-red-800 underline"
                  >
                    {t('shipments.addAddress')}
                  </Link>
                </div>
              )}
              <fieldset
                className="space-y-2"
                aria-describedby={fieldError('method') ? 'method-error' : undefined}
              >
                <legend className="text-sm font-medium text-slate-800">{t('shipments.method')}</legend>
                {SHIPPING_METHODS.map((method) => (
                  <div key={method} className="flex min-h-11 items-center gap-3">
                    <input
                      type="radio"
                      id={`method-${method}`}
                      name="method"
                      value={method}
                      defaultChecked={(sent?.method || 'economic') === method}
                      className="size-5 accent-red-700"
                    />
                    <label htmlFor={`method-${method}`} className="text-slate-900">
                      {t(`shipments.methods.${method}`)}
                    </label>
                  </div>
                ))}
                {fieldError('method') ? (
                  <p id="method-error" className="text-sm font-medium text-red-800">
                    {fieldError('method')}
                  </p>
                ) : null}
              </fieldset>
              {answer?.estimate ? <EstimatePanel estimate={answer.estimate} /> : null}
              {addresses.length > 0 ? (
                <div className="flex flex-wrap gap-3">
                  <button
                    type="submit"
                    name="intent"
                    value="estimate"
                    className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
                  >
                    {t('shipments.estimateButton')}
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="request"
                    className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
                  >
                    {t('shipments.requestButton')}
                  </button>
                </div>
              ) : null}
            </section>
          ) : null}
        </Form>
      )}
      {shipments.length > 0 ? (
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
      ) : null}
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

type EstimateAnswer = NonNullable<NonNullable<ReturnType<typeof useActionData<typeof action>>>['estimate']>

function EstimatePanel({ estimate }: { estimate: EstimateAnswer }) {
  const { t } = useTranslation()
  if (!estimate.ok) {
    return (
      <p role="status" className="rounded-md bg-amber-50 p-3 font-medium text-amber-950">
        {t(estimate.refusal === 'tooHeavy' ? 'shipments.tooHeavy' : 'shipments.noRate', {
          weight: estimate.weight,
          max: estimate.max,
        })}
      </p>
    )
  }
  return (
    <section
      role="status"
      aria-labelledby="estimate-heading"
      className="space-y-2 rounded-md bg-slate-50 p-4"
    >
      <h3 id="estimate-heading" className="font-semibold text-slate-900">
        {t('shipments.estimateHeading')} · {estimate.country}
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800">
        <dt className="font-medium">{t('shipments.estimateWeight')}</dt>
        <dd>{estimate.weight}</dd>
        <dt className="font-medium">{t('shipments.estimateTime')}</dt>
        <dd>{t(`shipments.delivery.${estimate.deliveryTime}`)}</dd>
        <dt className="font-medium">{t('shipments.estimateRoute')}</dt>
        <dd>{t(`shipments.routes.${estimate.route}`)}</dd>
      </dl>
      <ShippingBreakdown
        data={estimate.breakdown}
        language={estimate.language}
        currency={estimate.currency}
        rates={estimate.rates}
        shippingLabel={t('shipments.estimatePrice')}
        totalLabel={t('shippingCosts.estimateTotal')}
        testId="shipment-estimate"
      />
      {estimate.breakdown.storage.length > 0 ? (
        <p className="text-sm text-slate-700">{t('shippingCosts.storageStops')}</p>
      ) : null}
      <p className="text-sm text-slate-700">{t('shipments.estimateNote')}</p>
    </section>
  )
}

/**
 * What an item's storage has cost so far past its free days (docs/decisions/037): the days × the
 * daily fee, in yen and about how much in the visitor's currency, before tax; nothing while it is
 * within its free days. In a shipment request the figure is final (the clock stopped).
 */
function StorageFee({
  fee,
  money,
  inShipment,
}: {
  fee: { days: number; feePerDayJpy: number; feeJpy: number }
  money: {
    language: Language
    currency: Currency
    rates: YenRates | null
    feePerDay: string
    taxRate: string
  }
  inShipment: boolean
}) {
  const { t } = useTranslation()
  if (fee.days <= 0 || fee.feeJpy <= 0) return null
  return (
    <div
      className="rounded-md border border-amber-300 bg-amber-50 p-2 text-slate-900"
      data-testid="storage-fee"
    >
      <p className="flex flex-wrap items-baseline gap-x-2 font-semibold">
        <span>
          {t(inShipment ? 'shippingCosts.feeInShipment' : 'shippingCosts.feeSoFar', {
            count: fee.days,
            fee: money.feePerDay,
          })}
        </span>
        <YenAmount
          amountJpy={fee.feeJpy}
          currency={money.currency}
          language={money.language}
          rates={money.rates}
        />
      </p>
      <p className="text-sm text-slate-800">
        {t(inShipment ? 'shippingCosts.feeInShipmentHint' : 'shippingCosts.feeSoFarHint', {
          rate: money.taxRate,
          fee: money.feePerDay,
        })}
      </p>
    </div>
  )
}
