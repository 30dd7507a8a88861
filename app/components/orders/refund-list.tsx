import { useTranslation } from 'react-i18next'
import { japanDateTime } from '#app/lib/dates.ts'
import { formatMoney } from '#core/money/money.ts'
import type { RefundKind, RefundView } from '#core/payments/money-history.ts'
import type { Language } from '#core/preferences/preferences.ts'

/** A refund as a page shows it: its labels written on the server (Japan time, the reader's money). */
export type RefundRow = {
  id: string
  reason: RefundKind
  detail: string | null
  amountLabel: string
  owedLabel: string
  sentLabel: string | null
}

export function refundsForPage(refunds: readonly RefundView[], language: Language): RefundRow[] {
  const when = japanDateTime(language)
  return refunds.map((refund) => ({
    id: refund.id,
    reason: refund.reason,
    detail: refund.detail,
    amountLabel: formatMoney(refund.amountJpy, 'JPY', language),
    owedLabel: when(refund.owedAt),
    sentLabel: refund.sentAt ? when(refund.sentAt) : null,
  }))
}

/** Why a refund goes back, in the reader's words. */
export function useRefundReason() {
  const { t } = useTranslation()
  return (refund: Pick<RefundRow, 'reason' | 'detail'>) =>
    t(`refunds.reasons.${refund.reason}`, { detail: refund.detail ?? '' })
}

/**
 * The refunds of a request or an invoice, for its customer (docs/decisions/034): what goes back,
 * why, and whether it was sent (when) or is on its way.
 */
export function RefundList({ refunds, headingId }: { refunds: readonly RefundRow[]; headingId: string }) {
  const { t } = useTranslation()
  const reasonOf = useRefundReason()
  if (refunds.length === 0) return null
  return (
    <section aria-labelledby={headingId} className="print:break-inside-avoid">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t('refunds.heading')}
      </h2>
      <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {refunds.map((refund) => (
          <li
            key={refund.id}
            data-testid="refund-row"
            className="flex flex-wrap items-baseline gap-x-4 gap-y-1 p-3"
          >
            <span className="font-medium text-slate-900">{reasonOf(refund)}</span>
            <span className="tabular-nums text-slate-900">{refund.amountLabel}</span>
            <span className={refund.sentLabel ? 'text-emerald-800' : 'text-amber-900'}>
              {refund.sentLabel
                ? t('refunds.sentOn', { date: refund.sentLabel })
                : t('refunds.onItsWay', { date: refund.owedLabel })}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-slate-700">{t('refunds.how')}</p>
    </section>
  )
}
