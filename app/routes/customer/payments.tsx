import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { useRefundReason } from '#app/components/orders/refund-list.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { refusalOf } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext, getServiceContext } from '#app/middleware/auth.server.ts'
import { refundToBalance } from '#core/balance/balance-service.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { formatMoney } from '#core/money/money.ts'
import { listMyMoney, type MoneyEntry } from '#core/payments/money-history.ts'
import type { Route } from './+types/payments.ts'

// The customer's payments and refunds (docs/decisions/034), newest first: what each was for
// (the request or shipment, the invoice), when, how much, and where it stands; links to the
// request or shipment and to the invoice. The credit notes of a later slice add their own kind.

export async function loader({ context }: Route.LoaderArgs) {
  const money = await listMyMoney(getServiceContext(context))
  const { language } = context.get(requestContext)
  const when = japanDateTime(language)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const common = (entry: MoneyEntry) => ({
    id: `${entry.kind}-${entry.id}`,
    dateLabel: when(entry.at),
    amountLabel: yen(entry.amountJpy),
    owner: { ...entry.owner, href: ownerPaths(entry.owner).customer },
    invoice: { ...entry.invoice, href: `/user-dashboard/invoices/${entry.invoice.id}` },
  })
  return {
    totals: {
      paid: yen(money.totals.paidJpy),
      refunded: yen(money.totals.refundedJpy),
      pending: money.totals.refundPendingJpy > 0 ? yen(money.totals.refundPendingJpy) : null,
    },
    entries: money.entries.map((entry) =>
      entry.kind === 'payment'
        ? { ...common(entry), kind: 'payment' as const, method: entry.method, status: entry.status }
        : {
            ...common(entry),
            kind: 'refund' as const,
            reason: entry.reason,
            detail: entry.detail,
            sent: entry.sentAt !== null,
            paymentId: entry.paymentId,
          },
    ),
  }
}

/**
 * `intent=refund_to_balance`: the customer takes a refund on its way into their balance at once
 * instead of waiting for it the way they paid (docs/decisions/050). Back here with a notice; a
 * refusal (nothing due any more, not theirs) is the page's message with its status.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  if (formData.get('intent') !== 'refund_to_balance') {
    return data({ messageKey: 'errors.codes.invalid' }, { status: 400 })
  }
  try {
    await refundToBalance(getOrderContext(context), { paymentId: String(formData.get('paymentId') ?? '') })
  } catch (caught) {
    const refusal = refusalOf(caught)
    return data({ messageKey: refusal.messageKey }, refusal.init)
  }
  return redirectWithNotice(context, '/user-dashboard/balance', 'refundedToMyBalance')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function MyMoneyRoute() {
  const { t } = useTranslation()
  const { entries, totals } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()
  const reasonOf = useRefundReason()
  return (
    <section aria-labelledby="money-heading">
      <PageMeta title={t('moneyPage.title')} description={t('moneyPage.lead')} />
      <h1 id="money-heading" className="text-3xl font-bold text-slate-900">
        {t('moneyPage.title')}
      </h1>
      <p className="mt-2 text-slate-700">{t('moneyPage.lead')}</p>
      {failed ? <FormAlert look="box">{errorText(t, failed.messageKey)}</FormAlert> : null}
      {entries.length === 0 ? (
        <p className="mt-6 text-slate-700">{t('moneyPage.empty')}</p>
      ) : (
        <>
          <dl className="mt-6 grid gap-3 sm:grid-cols-3" aria-label={t('moneyPage.totalsLabel')}>
            <div className="rounded-lg bg-slate-50 p-3">
              <dt className="text-sm text-slate-700">{t('moneyPage.totals.paid')}</dt>
              <dd className="text-xl font-semibold tabular-nums text-slate-900">{totals.paid}</dd>
            </div>
            <div className="rounded-lg bg-slate-50 p-3">
              <dt className="text-sm text-slate-700">{t('moneyPage.totals.refunded')}</dt>
              <dd className="text-xl font-semibold tabular-nums text-slate-900">{totals.refunded}</dd>
            </div>
            {totals.pending ? (
              <div className="rounded-lg bg-amber-50 p-3">
                <dt className="text-sm text-amber-950">{t('moneyPage.totals.pending')}</dt>
                <dd className="text-xl font-semibold tabular-nums text-amber-950">{totals.pending}</dd>
              </div>
            ) : null}
          </dl>
          <ul className="mt-6 space-y-3">
            {entries.map((entry) => (
              <li
                key={entry.id}
                data-testid="money-row"
                className="rounded-lg border border-slate-200 p-4 sm:flex sm:items-start sm:justify-between sm:gap-4"
              >
                <div className="min-w-0">
                  <p className="text-sm text-slate-700">{entry.dateLabel}</p>
                  <h2 className="text-lg font-semibold text-slate-900">
                    {entry.kind === 'payment'
                      ? t(`moneyPage.payment.${entry.owner.kind}`, { number: entry.owner.number })
                      : t(`moneyPage.refund.${entry.owner.kind}`, { number: entry.owner.number })}
                  </h2>
                  <p className="text-slate-800">
                    {entry.kind === 'payment'
                      ? `${t(`moneyPage.methods.${entry.method}`)} · ${t(`moneyPage.paymentStatus.${entry.status}`)}`
                      : `${reasonOf(entry)} · ${entry.sent ? t('moneyPage.refundSent') : t('moneyPage.refundOnItsWay')}`}
                  </p>
                  <p className="mt-1 flex flex-wrap gap-x-4 text-sm">
                    <Link
                      to={entry.owner.href}
                      className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
                    >
                      {t(`moneyPage.see.${entry.owner.kind}`, { number: entry.owner.number })}
                    </Link>
                    <Link
                      to={entry.invoice.href}
                      className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
                    >
                      {t('receipt.linkLabel', { number: entry.invoice.number })}
                    </Link>
                  </p>
                  {entry.kind === 'refund' && !entry.sent ? (
                    <Form method="post" className="mt-2">
                      <input type="hidden" name="intent" value="refund_to_balance" />
                      <input type="hidden" name="paymentId" value={entry.paymentId} />
                      <button
                        type="submit"
                        className="min-h-11 rounded-md border border-slate-700 px-4 font-semibold text-slate-900 hover:bg-slate-100"
                      >
                        {t('balance.refundToMine')}
                      </button>
                    </Form>
                  ) : null}
                </div>
                <p
                  className={`mt-2 shrink-0 text-xl font-semibold tabular-nums sm:mt-0 ${
                    entry.kind === 'refund' ? 'text-emerald-800' : 'text-slate-900'
                  }`}
                >
                  {entry.kind === 'refund'
                    ? t('moneyPage.refundAmount', { amount: entry.amountLabel })
                    : entry.amountLabel}
                </p>
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm text-slate-700">{t('moneyPage.japanTime')}</p>
        </>
      )}
    </section>
  )
}
