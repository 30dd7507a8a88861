import { useTranslation } from 'react-i18next'
import type { MethodChoice as Choice } from '#core/landed-cost/destination-rules.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { SHIPPING_METHODS, type ShippingMethod } from '#core/pricing/pricing.ts'

/**
 * Our shipping methods as radio buttons. With `availability` (a destination's methods,
 * core/landed-cost/destination-rules.ts `methodsFor`), a method the destination cannot use is not
 * offered and its reason is said below the choice, in the page's language.
 */
export function MethodChoice({
  name,
  legend,
  value,
  onChange,
  availability,
}: {
  name: string
  legend: string
  value: ShippingMethod
  onChange: (method: ShippingMethod) => void
  availability?: { choices: readonly Choice[]; language: Language }
}) {
  const { t } = useTranslation()
  const offered = availability
    ? availability.choices.filter((choice) => choice.available).map((choice) => choice.method)
    : SHIPPING_METHODS
  const notes = availability
    ? availability.choices.filter((choice) => !choice.available || choice.note?.[availability.language])
    : []
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {offered.map((method) => (
          <label
            key={method}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 has-[:checked]:border-red-700 has-[:checked]:bg-red-50"
          >
            <input
              type="radio"
              name={name}
              value={method}
              checked={value === method}
              onChange={() => onChange(method)}
              className="accent-red-700"
            />
            <span className="text-sm">{t(`calculator.methods.${method}`)}</span>
          </label>
        ))}
      </div>
      {availability && offered.length === 0 ? (
        <p className="text-sm font-medium text-amber-950">{t('calculator.availability.none')}</p>
      ) : null}
      {availability && notes.length > 0 ? (
        <ul className="space-y-1 pt-1 text-sm text-slate-700">
          {notes.map((choice) => (
            <li key={choice.method}>
              {choice.available ? null : (
                <span className="font-medium text-slate-900">
                  {t('calculator.availability.unavailable', {
                    method: t(`calculator.methods.${choice.method}`),
                  })}
                </span>
              )}{' '}
              {choice.note?.[availability.language]}
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  )
}
