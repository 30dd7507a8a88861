import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { StatementRowView } from '#app/lib/balance-views.server.ts'

/**
 * A customer balance's statement (docs/decisions/050), newest first: when, what, how much, the
 * running balance after it and what it paid (the request or shipment, the receipt). The same
 * table on the customer's balance page and the staff's user page; links go to each one's pages.
 */
export function StatementTable({ rows, headingId }: { rows: StatementRowView[]; headingId: string }) {
  const { t } = useTranslation()
  if (rows.length === 0) return <p className="mt-3 text-slate-700">{t('balance.empty')}</p>
  return (
    <div className="mt-3">
      {/* Wider than a phone: the table scrolls sideways, and can be scrolled from the keyboard. */}
      <section
        aria-labelledby={headingId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take keyboard focus
        tabIndex={0}
        className="overflow-x-auto"
      >
        <table className="w-full min-w-[36rem] border-collapse text-left text-sm" aria-labelledby={headingId}>
          <thead>
            <tr className="border-b border-slate-300 text-slate-800">
              <th scope="col" className="py-2 pr-3 font-semibold">
                {t('balance.columns.date')}
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                {t('balance.columns.movement')}
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                {t('balance.columns.for')}
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                {t('balance.columns.amount')}
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                {t('balance.columns.balance')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-testid="balance-row" className="border-b border-slate-200 align-top">
                <td className="py-2 pr-3 text-slate-700">{row.dateLabel}</td>
                <td className="py-2 pr-3 text-slate-900">
                  <span className="font-medium">{t(`balance.kinds.${row.kind}`)}</span>
                  <MovementNote row={row} />
                </td>
                <td className="py-2 pr-3">
                  {row.owner ? (
                    <Link to={row.owner.href} className="font-semibold text-red-800 underline">
                      {t(`balance.${row.owner.kind}`, { number: row.owner.number })}
                    </Link>
                  ) : null}
                  {row.invoice ? (
                    <>
                      {row.owner ? <br /> : null}
                      <Link to={row.invoice.href} className="text-red-800 underline">
                        {t('receipt.linkLabel', { number: row.invoice.number })}
                      </Link>
                    </>
                  ) : null}
                </td>
                <td
                  className={`py-2 pr-3 text-right font-semibold tabular-nums ${row.credit ? 'text-emerald-800' : 'text-slate-900'}`}
                >
                  {row.amountLabel}
                </td>
                <td className="py-2 text-right tabular-nums text-slate-900">{row.balanceLabel}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <p className="mt-2 text-sm text-slate-700">{t('balance.japanTime')}</p>
    </div>
  )
}

/** Why: a top-up's bank reference, a reversal's cause, an adjustment's reason as the admin wrote it. */
function MovementNote({ row }: { row: StatementRowView }) {
  const { t } = useTranslation()
  let note: string | null = null
  if (row.kind === 'topup' && row.reference)
    note = t('balance.reasons.bank_transfer', { reference: row.reference })
  else if (row.kind === 'reversal' && (row.reason === 'invoice_void' || row.reason === 'invoice_expired'))
    note = t(`balance.reasons.${row.reason}`)
  else if (row.kind === 'adjustment' && row.reason) note = row.reason
  return note ? <span className="block text-slate-700">{note}</span> : null
}
