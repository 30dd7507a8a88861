import { Boxes, Package, Truck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { useRootData } from '#app/lib/root-data.ts'
import type { Route } from './+types/shipping.ts'

// The shipping tab. Packages, consolidation and shipments come with part 2 of the orders work;
// until then the tab says what will appear here (the spec's steps 4 to 6) and links to what the
// customer can already do. No button stands in for something that does not exist yet. The
// layout's loader refuses anyone not signed in.

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const SECTIONS = [
  { key: 'storage', Icon: Package },
  { key: 'consolidation', Icon: Boxes },
  { key: 'shipments', Icon: Truck },
] as const

export default function ShippingRoute() {
  const { t } = useTranslation()
  const days = useRootData()?.settings.freeStorageDays ?? 0
  const linkClass =
    'inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4'
  return (
    <section aria-labelledby="shipping-heading" className="space-y-8">
      <PageMeta title={t('shippingTab.title')} description={t('shippingTab.lead')} />
      <header>
        <h1 id="shipping-heading" className="text-3xl font-bold text-slate-900">
          {t('shippingTab.title')}
        </h1>
        <p className="mt-2 max-w-3xl text-slate-700">{t('shippingTab.lead')}</p>
      </header>
      <p className="rounded-md border border-slate-200 bg-slate-50 p-4 font-medium text-slate-800">
        {t('shippingTab.nothingYet')}
      </p>
      <ol className="grid gap-4 lg:grid-cols-3">
        {SECTIONS.map(({ key, Icon }) => (
          <li key={key} className="rounded-lg border border-slate-200 p-5">
            <Icon aria-hidden="true" className="size-7 text-red-700" />
            <h2 className="mt-3 text-lg font-semibold text-slate-900">{t(`shippingTab.${key}Heading`)}</h2>
            <p className="mt-2 text-slate-700">{t(`shippingTab.${key}Text`, { days })}</p>
          </li>
        ))}
      </ol>
      <p className="max-w-3xl text-slate-700">{t('shippingTab.methods')}</p>
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
