import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { DeclarationTable } from '#app/components/orders/customs-declaration.tsx'
import { PrintButton } from '#app/components/orders/receipt.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { declarationForPage } from '#app/lib/declaration-views.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { formatPhone } from '#core/customers/address-rules.ts'
import { countryName } from '#core/customers/countries.ts'
import { getPrintableDeclaration } from '#core/shipping/customs-declaration.ts'
import type { Route } from './+types/shipment-declaration.ts'

// A shipment's customs declaration to print (issue 30), laid out like a CN23: sender (the
// company's details in the settings), recipient (the shipment's address as asked), the lines
// with quantity, net weight, value paid, HS code and origin, the totals, "Sale of goods", the
// date. Staff who handle the warehouse only (the service checks). The form's contents are in
// English whatever the page's language, as customs read them: the company's English address and
// the country names in English; the labels follow the page.

export async function loader({ params, context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const printable = await getPrintableDeclaration(orders, params.id)
  const { language } = context.get(requestContext)
  const { sender, address } = printable
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(
    printable.packedAt ?? new Date(),
  )
  return {
    shipmentId: printable.shipmentId,
    number: printable.number,
    method: printable.method === 'express' ? ('express' as const) : ('economic' as const),
    date: day,
    sender: {
      name: sender.name,
      address: typeof sender.address === 'string' ? sender.address : sender.address.en,
      email: sender.email,
    },
    recipient: {
      lines: [
        address.fullName,
        address.street,
        [address.city, address.region, address.postalCode].filter(Boolean).join(', '),
        countryName(address.country, 'en').toUpperCase(),
      ],
      phone: formatPhone(address.phone),
    },
    declaration: declarationForPage(printable, language),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

function Box({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="border border-slate-900 p-3 print:p-2">
      <p className="text-xs font-semibold tracking-wide text-slate-700 uppercase">{label}</p>
      <div className="mt-1 text-slate-900">{children}</div>
    </div>
  )
}

export default function ShipmentDeclarationRoute() {
  const { t } = useTranslation()
  const { shipmentId, number, method, date, sender, recipient, declaration } = useLoaderData<typeof loader>()
  const title = t('staffDeclaration.printable.title', { form: declaration.form, number })
  return (
    <article aria-labelledby="declaration-title" className="space-y-4 print:space-y-2 print:text-sm">
      <PageMeta title={title} description={title} />
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link
          to={`/admin-dashboard/shipments/${shipmentId}`}
          className="font-semibold text-red-800 underline"
        >
          {t('staffDeclaration.printable.back', { number })}
        </Link>
        <PrintButton />
      </div>
      <h1 id="declaration-title" className="text-2xl font-bold text-slate-900">
        {title}
      </h1>
      {declaration.confirmedLabel ? null : (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900 print:hidden">
          {t('staffDeclaration.printable.notConfirmed')}
        </p>
      )}
      {declaration.totals.missing > 0 ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900 print:hidden">
          {t('staffDeclaration.printable.missingDescriptions')}
        </p>
      ) : null}
      {declaration.totals.exportDeclaration ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900 print:hidden">
          {t('staffDeclaration.exportDeclaration')}
        </p>
      ) : null}
      <div className="grid gap-0 sm:grid-cols-2 print:grid-cols-2">
        <Box label={t('staffDeclaration.printable.sender')}>
          <p className="font-semibold">{sender.name}</p>
          <p className="whitespace-pre-line">{sender.address}</p>
          <p>{sender.email}</p>
        </Box>
        <Box label={t('staffDeclaration.printable.recipient')}>
          <address className="whitespace-pre-line not-italic" data-testid="declaration-recipient">
            {recipient.lines.join('\n')}
          </address>
          <p>{t('staffDeclaration.printable.phone', { phone: recipient.phone })}</p>
        </Box>
        <Box label={t('staffDeclaration.printable.category')}>
          <p>
            <span aria-hidden="true">☑ </span>
            {t('staffDeclaration.printable.saleOfGoods')}
          </p>
        </Box>
        <Box label={t('staffDeclaration.printable.method')}>
          <p>
            {t(`staffShipments.methods.${method}`)} · {number}
          </p>
        </Box>
      </div>
      <DeclarationTable declaration={declaration} caption={title} />
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-slate-900">
        <dt className="font-semibold">{t('staffDeclaration.printable.totalValue')}</dt>
        <dd className="tabular-nums" data-testid="declaration-total-value">
          {declaration.totals.value}
        </dd>
        <dt className="font-semibold">{t('staffDeclaration.printable.totalWeight')}</dt>
        <dd className="tabular-nums">{declaration.totals.weight ?? t('declaration.notWeighed')}</dd>
        <dt className="font-semibold">{t('declaration.columns.origin')}</dt>
        <dd>{t('declaration.originJapan')}</dd>
      </dl>
      <p className="text-sm text-slate-800">{t('staffDeclaration.printable.certify')}</p>
      <div className="grid gap-0 sm:grid-cols-2 print:grid-cols-2">
        <Box label={t('staffDeclaration.printable.date')}>
          <p className="tabular-nums">{date}</p>
        </Box>
        <Box label={t('staffDeclaration.printable.signature')}>
          <p className="h-8" />
        </Box>
      </div>
    </article>
  )
}
