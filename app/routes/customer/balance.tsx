import { useTranslation } from 'react-i18next'
import { useLoaderData } from 'react-router'
import { StatementTable } from '#app/components/balance/statement-table.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { statementView } from '#app/lib/balance-views.server.ts'
import { getServiceContext, getUser } from '#app/middleware/auth.server.ts'
import { BALANCE_LIMITS } from '#core/balance/balance-schemas.ts'
import { getStatement } from '#core/balance/balance-service.ts'
import { formatMoney } from '#core/money/money.ts'
import { inLanguage } from '#core/settings/bilingual.ts'
import type { Route } from './+types/balance.ts'

// /user-dashboard/balance (docs/decisions/050): the customer's balance, how to add to it (a bank
// transfer with their own reference, recorded by staff when it arrives), and the statement of
// every movement with its running balance and what it paid, downloadable as CSV.

/** The reference a customer writes on a top-up transfer: short, theirs, easy to read out. */
export function topUpReference(userId: string): string {
  return `SALDO-${userId
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 8)
    .toUpperCase()}`
}

export async function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  const ctx = getServiceContext(context)
  const { language, settings } = context.get(requestContext)
  const statement = await getStatement(ctx, user.id)
  const { bankTransfer } = await settings.get()
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return {
    statement: statementView(statement, language, 'customer'),
    topUp: {
      min: yen(BALANCE_LIMITS.topUpMinJpy),
      max: yen(BALANCE_LIMITS.topUpMaxJpy),
      reference: topUpReference(user.id),
    },
    bank: [
      ['bankName', bankTransfer.bankName],
      ['branch', inLanguage(bankTransfer.branch, language)],
      ['accountType', inLanguage(bankTransfer.accountType, language)],
      ['accountNumber', bankTransfer.accountNumber],
      ['accountHolder', bankTransfer.accountHolder],
      ...(bankTransfer.swift ? [['swift', bankTransfer.swift]] : []),
    ] as [string, string][],
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function BalanceRoute() {
  const { t } = useTranslation()
  const { statement, topUp, bank } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="balance-heading">
      <PageMeta title={t('balance.title')} description={t('balance.lead')} />
      <h1 id="balance-heading" className="text-3xl font-bold text-slate-900">
        {t('balance.title')}
      </h1>
      <p className="mt-2 text-slate-700">{t('balance.lead')}</p>
      <div className="mt-6 rounded-lg bg-slate-50 p-4">
        <p className="text-sm text-slate-700">{t('balance.current')}</p>
        <p className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="balance-now">
          {statement.balanceLabel}
        </p>
      </div>
      <section aria-labelledby="topup-heading" className="mt-8">
        <h2 id="topup-heading" className="text-xl font-semibold text-slate-900">
          {t('balance.topUpTitle')}
        </h2>
        <p className="mt-2 text-slate-800">
          {t('balance.topUpText', { min: topUp.min, max: topUp.max, reference: topUp.reference })}
        </p>
        <h3 className="mt-3 font-semibold text-slate-900">{t('balance.bankDetails')}</h3>
        <dl className="mt-1 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
          {bank.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-slate-700">{t(`payment.bank.${key as 'bankName'}`)}</dt>
              <dd className="font-medium text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="statement-heading" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="statement-heading" className="text-xl font-semibold text-slate-900">
            {t('balance.statement')}
          </h2>
          {statement.rows.length > 0 ? (
            <a
              href="/user-dashboard/balance.csv"
              download
              className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
            >
              {t('balance.csv')}
            </a>
          ) : null}
        </div>
        <StatementTable rows={statement.rows} headingId="statement-heading" />
      </section>
    </section>
  )
}
