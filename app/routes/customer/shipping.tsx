import { Boxes, Truck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PackagePhotos } from '#app/components/orders/warehouse-panel.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { formatGrams, japanDateTime, japanDay } from '#app/lib/dates.ts'
import { throwRouteError } from '#app/lib/http-errors.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { listStoredItems } from '#core/warehouse/stored-items.ts'
import type { Route } from './+types/shipping.ts'

// The shipping tab: the customer's items at our office in Osaka (docs/decisions/027), each with
// its package's photos, its weight, its arrival and the free storage it has left (standing out
// below 7 days). Choosing items to ship together comes with the shipments (issue "Orders, part
// 2"); until then the tab says what comes next, with no button standing in for it. The layout's
// loader refuses anyone not signed in.

export async function loader({ context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const { language } = context.get(requestContext)
  const { freeStorageDays } = await orders.settings.get()
  const items = await listStoredItems(orders, { now: new Date(), freeDays: freeStorageDays }).catch(
    throwRouteError,
  )
  const when = japanDateTime(language)
  const day = japanDay(language)
  return {
    freeDays: freeStorageDays,
    items: items.map((item) => ({
      id: item.id,
      requestId: item.requestId,
      requestNumber: item.requestNumber,
      position: item.position,
      title: item.title,
      shopHost: item.shopHost,
      quantity: item.quantity,
      weightLabel: formatGrams(item.weightGrams, language),
      arrivedLabel: when(item.receivedAt),
      packageNumber: item.packageNumber,
      photos: item.photos,
      daysLeft: item.storage.daysLeft,
      untilLabel: day(item.storage.freeUntil),
      endingSoon: item.storage.endingSoon,
      expired: item.storage.expired,
    })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const NEXT = [
  { key: 'consolidation', Icon: Boxes },
  { key: 'shipments', Icon: Truck },
] as const

export default function ShippingRoute() {
  const { t } = useTranslation()
  const { items, freeDays } = useLoaderData<typeof loader>()
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
        <section aria-labelledby="stored-heading" className="space-y-3">
          <h2 id="stored-heading" className="text-xl font-semibold text-slate-900">
            {t('shippingTab.storedHeading', { count: items.length })}
          </h2>
          <ul className="space-y-3">
            {items.map((item) => (
              <li
                key={item.id}
                className={`grid gap-3 rounded-lg border p-4 sm:grid-cols-[minmax(0,1fr)_auto] ${
                  item.endingSoon ? 'border-amber-500 bg-amber-50' : 'border-slate-200'
                }`}
              >
                <div className="min-w-0 space-y-1">
                  <h3 className="font-semibold break-words text-slate-900">
                    {item.title ??
                      t('shippingTab.itemTitle', { position: item.position, number: item.requestNumber })}
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
                  <p className={item.endingSoon ? 'font-semibold text-amber-950' : 'text-slate-800'}>
                    {item.expired
                      ? t('shippingTab.storageOver', { date: item.untilLabel })
                      : t('shippingTab.daysLeft', { count: item.daysLeft, date: item.untilLabel })}
                  </p>
                </div>
                <PackagePhotos
                  number={item.packageNumber}
                  photos={item.photos}
                  altKey="shippingTab.photoAlt"
                />
              </li>
            ))}
          </ul>
        </section>
      )}
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
