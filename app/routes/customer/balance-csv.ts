import { requestContext } from '#app/context.ts'
import { translator } from '#app/i18n.server.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { getServiceContext, getUser } from '#app/middleware/auth.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import { getStatement, STATEMENT_CSV_LIMIT } from '#core/balance/balance-service.ts'
import { statementCsv } from '#core/balance/statement-csv.ts'
import type { Route } from './+types/balance-csv.ts'

// /user-dashboard/balance.csv (docs/decisions/050): the signed-in customer's own statement as
// CSV, oldest first, headings and words in their language; cells a spreadsheet would run as a
// formula are defused (core/balance/statement-csv.ts).

async function resource({ context }: Pick<Route.LoaderArgs, 'context'>) {
  const user = getUser(context)
  const { language } = context.get(requestContext)
  const t = translator(language)
  const statement = await getStatement(getServiceContext(context), user.id, { limit: STATEMENT_CSV_LIMIT })
  const when = japanDateTime(language)
  const body = statementCsv(statement.rows, {
    header: {
      date: t('balance.csvHeader.date'),
      kind: t('balance.csvHeader.kind'),
      amount: t('balance.csvHeader.amount'),
      balance: t('balance.csvHeader.balance'),
      for: t('balance.csvHeader.for'),
      note: t('balance.csvHeader.note'),
    },
    kind: (kind) => t(`balance.kinds.${kind}`),
    date: when,
    forOf: (row) =>
      [
        row.owner ? t(`balance.${row.owner.kind}`, { number: row.owner.number }) : '',
        row.invoice ? t('receipt.linkLabel', { number: row.invoice.number }) : '',
      ]
        .filter(Boolean)
        .join(' · '),
    noteOf: (row) =>
      row.kind === 'topup' && row.reference
        ? t('balance.reasons.bank_transfer', { reference: row.reference })
        : row.kind === 'reversal' && (row.reason === 'invoice_void' || row.reason === 'invoice_expired')
          ? t(`balance.reasons.${row.reason}`)
          : row.kind === 'adjustment'
            ? (row.reason ?? '')
            : '',
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="balance-statement.csv"',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

export const middleware: Route.MiddlewareFunction[] = [guardedFile(resource)]

export default function BalanceCsv() {
  return null
}
