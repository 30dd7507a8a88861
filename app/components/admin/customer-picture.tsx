import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { StatusBadge } from '#app/components/status-badge.tsx'
import type { loader } from '#app/routes/admin/user.tsx'

// A customer's whole picture on their staff page (issue 34, core/users/customer-picture.ts): the
// lifetime totals as a definition list, then one section per list (a table scrolling sideways
// inside its own box on a phone, or a line saying there is nothing), each row linking to its page.

type Picture = Awaited<ReturnType<typeof loader>>['picture']

const linkClass = 'font-semibold text-red-800 underline'
const cellClass = 'py-2 pr-3 align-top'

/** Lifetime totals: money in and out, and how many requests, shipments and items at the office. */
export function PictureTotals({ totals }: { totals: Picture['totals'] }) {
  const { t } = useTranslation()
  const facts: [string, string][] = [
    [t('customerPicture.totals.paid'), totals.paid],
    [t('customerPicture.totals.refunded'), totals.refunded],
    [t('customerPicture.totals.requests'), String(totals.requests)],
    [t('customerPicture.totals.shipments'), String(totals.shipments)],
    [t('customerPicture.totals.storedItems'), String(totals.storedItems)],
    [t('customerPicture.totals.balance'), totals.balance],
  ]
  return (
    <section aria-labelledby="picture-totals-heading">
      <h2 id="picture-totals-heading" className="text-xl font-semibold text-slate-900">
        {t('customerPicture.totalsHeading')}
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {facts.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-300 p-3">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="text-lg font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

/** Every list of the picture, in the order staff look for them. */
export function CustomerPictureSections({ picture }: { picture: Picture }) {
  return (
    <>
      <RequestsSection list={picture.requests} />
      <ShipmentsSection list={picture.shipments} />
      <StoredItemsSection list={picture.storedItems} />
      <AddressesSection list={picture.addresses} />
      <MoneySection list={picture.money} />
      <ConversationsSection list={picture.conversations} />
    </>
  )
}

/** A section: its heading (with the count of all), the rows or the empty line, and "newest N of M". */
function PictureSection({
  id,
  heading,
  shown,
  total,
  empty,
  children,
}: {
  id: string
  heading: string
  shown: number
  total: number
  empty: string
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      {total === 0 ? <p className="mt-2 text-slate-700">{empty}</p> : children}
      {total > shown ? (
        <p className="mt-2 text-sm text-slate-700">{t('customerPicture.showingNewest', { shown, total })}</p>
      ) : null}
    </section>
  )
}

/** A table that scrolls sideways inside its own box on a narrow screen; dates in Japan time. */
function PictureTable({
  caption,
  columns,
  children,
}: {
  caption: string
  columns: string[]
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">
          {caption}. {t('customerPicture.datesNote')}
        </caption>
        <thead className="border-b border-slate-300 text-slate-800">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="py-2 pr-3">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

function RequestsSection({ list }: { list: Picture['requests'] }) {
  const { t } = useTranslation()
  return (
    <PictureSection
      id="picture-requests"
      heading={t('customerPicture.requests.heading', { total: list.total })}
      shown={list.rows.length}
      total={list.total}
      empty={t('customerPicture.requests.empty')}
    >
      <PictureTable
        caption={t('customerPicture.requests.caption')}
        columns={[
          t('customerPicture.requests.number'),
          t('customerPicture.requests.status'),
          t('customerPicture.requests.date'),
        ]}
      >
        {list.rows.map((row) => (
          <tr key={row.id} className="border-b border-slate-200">
            <td className={cellClass}>
              <Link to={`/admin-dashboard/requests/${row.id}`} className={linkClass}>
                {row.number}
              </Link>
            </td>
            <td className={cellClass}>
              <StatusBadge status={row.status} label={t(`queue.statuses.${row.status}`)} />
            </td>
            <td className={cellClass}>{row.dateLabel}</td>
          </tr>
        ))}
      </PictureTable>
    </PictureSection>
  )
}

function ShipmentsSection({ list }: { list: Picture['shipments'] }) {
  const { t } = useTranslation()
  return (
    <PictureSection
      id="picture-shipments"
      heading={t('customerPicture.shipments.heading', { total: list.total })}
      shown={list.rows.length}
      total={list.total}
      empty={t('customerPicture.shipments.empty')}
    >
      <PictureTable
        caption={t('customerPicture.shipments.caption')}
        columns={[
          t('customerPicture.shipments.number'),
          t('customerPicture.shipments.status'),
          t('customerPicture.shipments.method'),
          t('customerPicture.shipments.date'),
        ]}
      >
        {list.rows.map((row) => (
          <tr key={row.id} className="border-b border-slate-200">
            <td className={cellClass}>
              <Link to={`/admin-dashboard/shipments/${row.id}`} className={linkClass}>
                {row.number}
              </Link>
            </td>
            <td className={`${cellClass} font-semibold`}>{t(`staffShipments.statuses.${row.status}`)}</td>
            <td className={cellClass}>{t(`staffShipments.methods.${row.method}`)}</td>
            <td className={cellClass}>{row.dateLabel}</td>
          </tr>
        ))}
      </PictureTable>
    </PictureSection>
  )
}

function StoredItemsSection({ list }: { list: Picture['storedItems'] }) {
  const { t } = useTranslation()
  return (
    <PictureSection
      id="picture-stored"
      heading={t('customerPicture.storedItems.heading', { total: list.total })}
      shown={list.rows.length}
      total={list.total}
      empty={t('customerPicture.storedItems.empty')}
    >
      <PictureTable
        caption={t('customerPicture.storedItems.caption')}
        columns={[
          t('customerPicture.storedItems.item'),
          t('customerPicture.storedItems.request'),
          t('customerPicture.storedItems.arrived'),
          t('customerPicture.storedItems.freeUntil'),
        ]}
      >
        {list.rows.map((row) => (
          <tr key={row.id} className="border-b border-slate-200">
            <td className={`${cellClass} break-words`}>
              {row.title || t('customerPicture.storedItems.untitled', { position: row.position })}
            </td>
            <td className={cellClass}>
              <Link to={`/admin-dashboard/requests/${row.requestId}`} className={linkClass}>
                {row.requestNumber}
              </Link>
            </td>
            <td className={cellClass}>{row.arrivedLabel}</td>
            <td className={cellClass}>
              {row.freeUntilLabel}
              {row.expired ? (
                <span className="ml-1 font-semibold text-red-800">
                  {t('customerPicture.storedItems.expired')}
                </span>
              ) : null}
            </td>
          </tr>
        ))}
      </PictureTable>
    </PictureSection>
  )
}

function AddressesSection({ list }: { list: Picture['addresses'] }) {
  const { t } = useTranslation()
  return (
    <PictureSection
      id="picture-addresses"
      heading={t('customerPicture.addresses.heading', { total: list.total })}
      shown={list.rows.length}
      total={list.total}
      empty={t('customerPicture.addresses.empty')}
    >
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        {list.rows.map((row) => (
          <li key={row.id} className="rounded-lg border border-slate-300 p-3 break-words text-slate-900">
            {row.isDefault ? (
              <span className="mb-1 inline-block rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900">
                {t('customerPicture.addresses.default')}
              </span>
            ) : null}
            <address className="not-italic">
              <span className="block font-medium">{row.fullName}</span>
              <span className="block">{row.street}</span>
              <span className="block">
                {row.city}, {row.region} {row.postalCode}
              </span>
              <span className="block">{row.country}</span>
              <span className="block text-slate-700">{row.phone}</span>
            </address>
          </li>
        ))}
      </ul>
    </PictureSection>
  )
}

function MoneySection({ list }: { list: Picture['money'] }) {
  const { t } = useTranslation()
  return (
    <PictureSection
      id="picture-money"
      heading={t('customerPicture.money.heading', { total: list.total })}
      shown={list.rows.length}
      total={list.total}
      empty={t('customerPicture.money.empty')}
    >
      <PictureTable
        caption={t('customerPicture.money.caption')}
        columns={[
          t('customerPicture.money.kind'),
          t('customerPicture.money.invoice'),
          t('customerPicture.money.amount'),
          t('customerPicture.money.method'),
          t('customerPicture.money.status'),
          t('customerPicture.money.date'),
        ]}
      >
        {list.rows.map((row) => (
          <tr key={`${row.kind}-${row.id}`} className="border-b border-slate-200">
            <td className={cellClass}>{t(`customerPicture.money.kinds.${row.kind}`)}</td>
            <td className={cellClass}>
              <Link to={`/admin-dashboard/invoices/${row.invoiceId}`} className={linkClass}>
                {row.invoiceNumber}
              </Link>
            </td>
            <td className={`${cellClass} whitespace-nowrap tabular-nums`}>{row.amount}</td>
            <td className={cellClass}>{t(`payments.providers.${row.provider}`)}</td>
            <td className={`${cellClass} font-semibold`}>
              {row.kind === 'refund'
                ? t(`customerPicture.money.refundStatuses.${row.status}`)
                : t(`payments.statuses.${row.status}`)}
            </td>
            <td className={cellClass}>{row.dateLabel}</td>
          </tr>
        ))}
      </PictureTable>
    </PictureSection>
  )
}

function ConversationsSection({ list }: { list: Picture['conversations'] }) {
  const { t } = useTranslation()
  return (
    <PictureSection
      id="picture-conversations"
      heading={t('customerPicture.conversations.heading', { total: list.total })}
      shown={list.rows.length}
      total={list.total}
      empty={t('customerPicture.conversations.empty')}
    >
      <PictureTable
        caption={t('customerPicture.conversations.caption')}
        columns={[
          t('customerPicture.conversations.about'),
          t('customerPicture.conversations.messages'),
          t('customerPicture.conversations.last'),
          t('customerPicture.conversations.waiting'),
        ]}
      >
        {list.rows.map((row) => (
          <tr key={row.id} className="border-b border-slate-200">
            <td className={cellClass}>
              <Link
                to={`/admin-dashboard/${row.kind === 'request' ? 'requests' : 'shipments'}/${row.orderId}#conversation`}
                className={linkClass}
              >
                {t(`customerPicture.conversations.${row.kind}`, { number: row.number })}
              </Link>
            </td>
            <td className={cellClass}>{row.messages}</td>
            <td className={cellClass}>{row.lastLabel}</td>
            <td className={`${cellClass} font-semibold`}>
              {row.waitingLabel ?? t('customerPicture.conversations.answered')}
            </td>
          </tr>
        ))}
      </PictureTable>
    </PictureSection>
  )
}
