import { useTranslation } from 'react-i18next'
import { SHIPPING_METHODS, type ShippingMethod } from '#core/pricing/pricing.ts'

export function MethodChoice({
  name,
  legend,
  value,
  onChange,
}: {
  name: string
  legend: string
  value: ShippingMethod
  onChange: (method: ShippingMethod) => void
}) {
  const { t } = useTranslation()
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {SHIPPING_METHODS.map((method) => (
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
    </fieldset>
  )
}
