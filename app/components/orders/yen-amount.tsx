import { useTranslation } from 'react-i18next'
import { convertFromYen, formatMoney, type YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'

/**
 * An amount in yen (what is charged) and, when the visitor chose another currency, about how
 * much that is, converted at the rates the invoice froze (ADR 005: two decimals, display only).
 */
export function YenAmount({
  amountJpy,
  currency,
  language,
  rates,
}: {
  amountJpy: number
  currency: Currency
  language: Language
  rates: YenRates | null
}) {
  const { t } = useTranslation()
  const local = currency === 'JPY' || !rates ? null : convertFromYen(amountJpy, currency, rates)
  return (
    <span className="inline-flex flex-wrap items-baseline justify-end gap-x-2">
      <span className="tabular-nums">{formatMoney(amountJpy, 'JPY', language)}</span>
      {local === null ? null : (
        <span className="text-sm font-normal text-slate-600 print:hidden">
          {t('receipt.approximately', { amount: formatMoney(local, currency, language) })}
        </span>
      )}
    </span>
  )
}
