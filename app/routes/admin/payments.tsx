import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { formatMoney } from '#core/money/money.ts'
import { listPaymentsToConfirm } from '#core/payments/transfer-notices.ts'
import type { Route } from './+types/payments.ts'

// Payments to confirm (docs/decisions/036), an admin's money work: payments a provider reported
// that we held for review, and bank transfers customers say they made. Oldest first, each with
// its request or shipment, where an admin accepts or refunds the held one, or records the
// transfer with the bank's reference (or says it has not arrived). Admins only (the layout).

export async function loader({ context }: Route.LoaderArgs) {
  const found = await listPaymentsToConfirm(getServiceContext(context))
  const { language } = context.get(requestContext)
  const when = japanDateTime(language)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const common = (row: (typeof found.held)[number] | (typeof found.reported)[number]) => ({
    href: ownerPaths(row.owner).staff,
    ownerKind: row.owner.kind,
    ownerNumber: row.ownerNumber,
    invoiceNumber: row.invoiceNumber,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    askedLabel: yen(row.requestedJpy),
    sinceLabel: when(row.since),
  })
  return {
    held: found.held.map((row) => ({
      ...common(row),
      id: row.paymentId,
      provider: row.provider,
      reportedLabel:
        row.amount === null || row.currency === null
          ? null
          : row.currency === 'JPY'
            ? yen(row.amount)
            : `${row.amount} ${row.currency}`,
    })),
    reported: found.reported.map((row) => ({
      ...common(row),
      id: row.noticeId,
      note: row.note,
      proof: row.proofType
        ? {
            href: `/user-dashboard/transfer-proofs/${row.noticeId}`,
            pdf: row.proofType === 'application/pdf',
          }
        : null,
      // The quote was voided meanwhile (revised, or the request cancelled by staff): it can no
      // longer be recorded as it is; the page says so.
      invoiceOpen: row.invoiceStatus === 'open',
    })),
    more: found.more,
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function PaymentsToConfirmRoute() {
  const { t } = useTranslation()
  const { held, reported, more } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="to-confirm-heading" className="space-y-8">
      <PageMeta title={t('toConfirm.title')} description={t('toConfirm.lead')} />
      <div>
        <h1 id="to-confirm-heading" className="text-3xl font-bold text-slate-900">
          {t('toConfirm.title')}
        </h1>
        <p className="mt-2 max-w-3xl text-slate-700">{t('toConfirm.lead')}</p>
      </div>
      <ReportedTransfers rows={reported} more={more.reported} />
      <HeldPayments rows={held} more={more.held} />
    </section>
  )
}

type Loaded = Awaited<ReturnType<typeof loader>>

/** One list of the page: its heading, what it holds, its rows (or that there are none), and whether more wait. */
function ToConfirmSection({
  headingId,
  heading,
  lead,
  empty,
  count,
  more,
  children,
}: {
  headingId: string
  heading: string
  lead: string
  /** Said when there are no rows. */
  empty: string
  count: number
  more: boolean
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      <p className="max-w-3xl text-slate-700">{lead}</p>
      {count === 0 ? (
        <p className="rounded-md bg-slate-50 p-3 text-slate-800">{empty}</p>
      ) : (
        <ul className="space-y-3">{children}</ul>
      )}
      {more ? <p className="text-slate-700">{t('toConfirm.more')}</p> : null}
    </section>
  )
}

/** A row's request or shipment (linked) with the quote or receipt and its amount, and its customer. */
function OwnerAndCustomer({ row }: { row: Loaded['reported'][number] | Loaded['held'][number] }) {
  const { t } = useTranslation()
  return (
    <>
      <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <Link to={row.href} className="text-lg font-semibold text-red-800 underline">
          {row.ownerNumber}
        </Link>
        <span className="text-slate-800">
          {t(row.ownerKind === 'request' ? 'toConfirm.quote' : 'toConfirm.receipt', {
            number: row.invoiceNumber,
            amount: row.askedLabel,
          })}
        </span>
      </p>
      <p className="mt-1 break-words text-slate-800">
        {row.customerName} · {row.customerEmail}
      </p>
    </>
  )
}

/** Bank transfers customers say they made, each with its note and proof. */
function ReportedTransfers({ rows, more }: { rows: Loaded['reported']; more: boolean }) {
  const { t } = useTranslation()
  return (
    <ToConfirmSection
      headingId="reported-heading"
      heading={t('toConfirm.reportedHeading', { count: rows.length })}
      lead={t('toConfirm.reportedLead')}
      empty={t('toConfirm.reportedEmpty')}
      count={rows.length}
      more={more}
    >
      {rows.map((row) => (
        <li key={row.id} className="rounded-lg border border-slate-300 p-4" data-testid="reported-transfer">
          <OwnerAndCustomer row={row} />
          <p className="mt-1 text-sm text-slate-700">{t('toConfirm.since', { date: row.sinceLabel })}</p>
          {row.note ? (
            <p className="mt-2 whitespace-pre-line break-words rounded-md bg-slate-50 p-2 text-slate-900">
              {t('toConfirm.note', { note: row.note })}
            </p>
          ) : null}
          <p className="mt-2">
            {row.proof ? (
              <a href={row.proof.href} className="font-semibold text-red-800 underline">
                {t(row.proof.pdf ? 'toConfirm.proofPdf' : 'toConfirm.proofPhoto')}
              </a>
            ) : (
              <span className="text-slate-700">{t('toConfirm.noProof')}</span>
            )}
          </p>
          {row.invoiceOpen ? null : (
            <p className="mt-2 rounded-md bg-amber-50 p-2 text-amber-950">{t('toConfirm.notOpen')}</p>
          )}
        </li>
      ))}
    </ToConfirmSection>
  )
}

/** Payments a provider reported that we held for review. */
function HeldPayments({ rows, more }: { rows: Loaded['held']; more: boolean }) {
  const { t } = useTranslation()
  return (
    <ToConfirmSection
      headingId="held-heading"
      heading={t('toConfirm.heldHeading', { count: rows.length })}
      lead={t('toConfirm.heldLead')}
      empty={t('toConfirm.heldEmpty')}
      count={rows.length}
      more={more}
    >
      {rows.map((row) => (
        <li key={row.id} className="rounded-lg border border-amber-300 p-4" data-testid="held-payment">
          <OwnerAndCustomer row={row} />
          <p className="mt-1 text-slate-800">
            {row.reportedLabel
              ? t('toConfirm.heldReported', {
                  provider: t(`payments.providers.${row.provider as 'paypal'}`),
                  amount: row.reportedLabel,
                })
              : t(`payments.providers.${row.provider as 'paypal'}`)}
          </p>
          <p className="mt-1 text-sm text-slate-700">{t('toConfirm.since', { date: row.sinceLabel })}</p>
        </li>
      ))}
    </ToConfirmSection>
  )
}
