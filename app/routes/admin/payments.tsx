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

/** Bank transfers customers say they made, each with its note and proof. */
function ReportedTransfers({ rows, more }: { rows: Loaded['reported']; more: boolean }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="reported-heading" className="space-y-3">
      <h2 id="reported-heading" className="text-xl font-semibold text-slate-900">
        {t('toConfirm.reportedHeading', { count: rows.length })}
      </h2>
      <p className="max-w-3xl text-slate-700">{t('toConfirm.reportedLead')}</p>
      {rows.length === 0 ? (
        <p className="rounded-md bg-slate-50 p-3 text-slate-800">{t('toConfirm.reportedEmpty')}</p>
      ) : (
        <ul className="space-y-3">
          {rows.map((row) => (
            <li
              key={row.id}
              className="rounded-lg border border-slate-300 p-4"
              data-testid="reported-transfer"
            >
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
        </ul>
      )}
      {more ? <p className="text-slate-700">{t('toConfirm.more')}</p> : null}
    </section>
  )
}

/** Payments a provider reported that we held for review. */
function HeldPayments({ rows, more }: { rows: Loaded['held']; more: boolean }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="held-heading" className="space-y-3">
      <h2 id="held-heading" className="text-xl font-semibold text-slate-900">
        {t('toConfirm.heldHeading', { count: rows.length })}
      </h2>
      <p className="max-w-3xl text-slate-700">{t('toConfirm.heldLead')}</p>
      {rows.length === 0 ? (
        <p className="rounded-md bg-slate-50 p-3 text-slate-800">{t('toConfirm.heldEmpty')}</p>
      ) : (
        <ul className="space-y-3">
          {rows.map((row) => (
            <li key={row.id} className="rounded-lg border border-amber-300 p-4" data-testid="held-payment">
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
        </ul>
      )}
      {more ? <p className="text-slate-700">{t('toConfirm.more')}</p> : null}
    </section>
  )
}
