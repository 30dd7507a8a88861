import { useTranslation } from 'react-i18next'
import { convertFromYen, formatMoney, type YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { useAnimatedNumber } from './use-animated-number.ts'

/** A money amount that animates to its new value. */
export function AnimatedMoney({
  amount,
  currency,
  language,
}: {
  amount: number
  currency: Currency
  language: Language
}) {
  const shown = useAnimatedNumber(amount)
  return <span className="tabular-nums">{formatMoney(shown, currency, language)}</span>
}

/** A yen amount, and beside it the visitor's currency when that is not yen. */
export function YenWithLocal({
  amountJpy,
  currency,
  language,
  rates,
}: {
  amountJpy: number
  currency: Currency
  language: Language
  rates: YenRates
}) {
  const { t } = useTranslation()
  const local = currency === 'JPY' ? null : convertFromYen(amountJpy, currency, rates)
  return (
    <span className="inline-flex flex-wrap items-baseline justify-end gap-x-2">
      <AnimatedMoney amount={amountJpy} currency="JPY" language={language} />
      {local === null ? null : (
        <span className="text-sm font-normal text-slate-600">
          {t('calculator.approx', { amount: formatMoney(local, currency, language) })}
        </span>
      )}
    </span>
  )
}
