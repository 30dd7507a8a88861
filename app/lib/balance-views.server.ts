import { japanDateTime } from '#app/lib/dates.ts'
import type { Statement, StatementRow } from '#core/balance/balance-service.ts'
import { ownerPaths } from '#core/billing/payment-owner.ts'
import { formatMoney } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'

// The balance statement as the pages show it (docs/decisions/050): amounts and dates written out
// in the reader's language (Intl), each movement's link to what it paid, for the customer's own
// pages or the staff's.

export type StatementRowView = {
  id: number
  kind: StatementRow['kind']
  dateLabel: string
  amountLabel: string
  balanceLabel: string
  credit: boolean
  reason: string | null
  reference: string | null
  owner: { kind: 'request' | 'shipment'; number: string; href: string } | null
  invoice: { number: string; href: string } | null
}

export type StatementView = { balanceLabel: string; balanceJpy: number; rows: StatementRowView[] }

export function statementView(
  statement: Statement,
  language: Language,
  audience: 'customer' | 'staff',
): StatementView {
  const when = japanDateTime(language)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return {
    balanceJpy: statement.balanceJpy,
    balanceLabel: yen(statement.balanceJpy),
    rows: statement.rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      dateLabel: when(row.createdAt),
      amountLabel: row.amountJpy > 0 ? `+${yen(row.amountJpy)}` : yen(row.amountJpy),
      balanceLabel: yen(row.balanceAfterJpy),
      credit: row.amountJpy > 0,
      reason: row.reason,
      reference: row.reference,
      owner: row.owner
        ? { kind: row.owner.kind, number: row.owner.number, href: ownerPaths(row.owner)[audience] }
        : null,
      invoice: row.invoice
        ? {
            number: row.invoice.number,
            href:
              audience === 'customer'
                ? `/user-dashboard/invoices/${row.invoice.id}`
                : `/admin-dashboard/invoices/${row.invoice.id}`,
          }
        : null,
    })),
  }
}
