import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { errorTextIn } from '#app/components/error-text.ts'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import type { StatementView } from '#app/lib/balance-views.server.ts'
import { BALANCE_LIMITS } from '#core/balance/balance-schemas.ts'
import { StatementTable } from './statement-table.tsx'

/** What the user page's action answered for one of the balance forms. */
export type BalanceFormAnswer = {
  intent: 'balance_topup' | 'balance_adjust'
  fieldErrors: Record<string, string[]>
} | null

/**
 * The customer's balance on the staff user page (docs/decisions/050): the balance now and the
 * statement (every staff member reads it); for admins, recording a top-up that arrived by bank
 * transfer and adjusting the balance with a reason (both audited).
 */
export function StaffBalance({
  statement,
  canMove,
  limits,
  answer,
}: {
  statement: StatementView
  canMove: boolean
  limits: { min: string; max: string }
  answer: BalanceFormAnswer
}) {
  const { t } = useTranslation()
  const fieldError = (intent: NonNullable<BalanceFormAnswer>['intent'], field: string) =>
    answer?.intent === intent ? errorTextIn(t, 'staffBalance.errors', answer.fieldErrors[field]?.[0]) : null
  return (
    <section aria-labelledby="balance-heading" className="space-y-4">
      <h2 id="balance-heading" className="text-xl font-semibold text-slate-900">
        {t('staffBalance.title')}
      </h2>
      <p className="text-lg font-semibold tabular-nums text-slate-900" data-testid="staff-balance-now">
        {t('staffBalance.current', { amount: statement.balanceLabel })}
      </p>
      <StatementTable rows={statement.rows} headingId="balance-heading" />
      {canMove ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <Form method="post" className="space-y-3 rounded-lg border border-slate-300 p-4">
            <input type="hidden" name="intent" value="balance_topup" />
            <h3 className="font-semibold text-slate-900">{t('staffBalance.topUpTitle')}</h3>
            <p className="text-sm text-slate-700">{t('staffBalance.topUpHelp', limits)}</p>
            <FormField
              id="topup-amount"
              label={t('staffBalance.amount')}
              error={fieldError('balance_topup', 'amountJpy')}
            >
              {(control) => (
                <input
                  {...control}
                  name="amountJpy"
                  inputMode="numeric"
                  autoComplete="off"
                  required
                  className={inputClass}
                />
              )}
            </FormField>
            <FormField
              id="topup-reference"
              label={t('staffBalance.reference')}
              error={fieldError('balance_topup', 'reference')}
            >
              {(control) => (
                <input
                  {...control}
                  name="reference"
                  autoComplete="off"
                  required
                  maxLength={BALANCE_LIMITS.reference}
                  className={inputClass}
                />
              )}
            </FormField>
            <button type="submit" className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white">
              {t('staffBalance.topUpButton')}
            </button>
          </Form>
          <Form method="post" className="space-y-3 rounded-lg border border-slate-300 p-4">
            <input type="hidden" name="intent" value="balance_adjust" />
            <h3 className="font-semibold text-slate-900">{t('staffBalance.adjustTitle')}</h3>
            <p className="text-sm text-slate-700">{t('staffBalance.adjustHelp')}</p>
            <fieldset className="space-y-1">
              <legend className="text-sm font-medium text-slate-800">{t('staffBalance.direction')}</legend>
              <label className="flex min-h-11 items-center gap-2 text-slate-900">
                <input type="radio" name="direction" value="credit" defaultChecked />{' '}
                {t('staffBalance.credit')}
              </label>
              <label className="flex min-h-11 items-center gap-2 text-slate-900">
                <input type="radio" name="direction" value="debit" /> {t('staffBalance.debit')}
              </label>
              {fieldError('balance_adjust', 'direction') ? (
                <p className="text-sm font-medium text-red-800">
                  {fieldError('balance_adjust', 'direction')}
                </p>
              ) : null}
            </fieldset>
            <FormField
              id="adjust-amount"
              label={t('staffBalance.amount')}
              error={fieldError('balance_adjust', 'amountJpy')}
            >
              {(control) => (
                <input
                  {...control}
                  name="amountJpy"
                  inputMode="numeric"
                  autoComplete="off"
                  required
                  className={inputClass}
                />
              )}
            </FormField>
            <FormField
              id="adjust-reason"
              label={t('staffBalance.reason')}
              error={fieldError('balance_adjust', 'reason')}
            >
              {(control) => (
                <input
                  {...control}
                  name="reason"
                  autoComplete="off"
                  required
                  maxLength={BALANCE_LIMITS.reason}
                  className={inputClass}
                />
              )}
            </FormField>
            <button type="submit" className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white">
              {t('staffBalance.adjustButton')}
            </button>
          </Form>
        </div>
      ) : null}
    </section>
  )
}
