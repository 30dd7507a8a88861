import { useTranslation } from 'react-i18next'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { type ShippingMethod, WEIGHT_LIMITS, type WeightError } from '#core/pricing/pricing.ts'

/**
 * Weight as a number field (submitted with the form) and a slider bound to it. The slider needs
 * JavaScript, so it stays disabled until the page is interactive.
 */
export function WeightField({
  id,
  name,
  label,
  method,
  value,
  error,
  onChange,
}: {
  id: string
  name: string
  label: string
  method: ShippingMethod
  value: string
  error: WeightError | null
  onChange: (value: string) => void
}) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const limits = WEIGHT_LIMITS[method]
  const numeric = Number(value)
  const sliderValue = Number.isFinite(numeric)
    ? Math.min(limits.maxG, Math.max(limits.minG, numeric))
    : limits.defaultG
  const range = { min: limits.minG, max: limits.maxG, step: limits.stepG }
  return (
    <FormField
      id={id}
      label={label}
      hint={t('calculator.shipping.weightHint', range)}
      error={error ? t(`calculator.errors.weight.${error}`, range) : null}
    >
      {(control) => (
        <div className="space-y-2">
          <input
            {...control}
            name={name}
            type="number"
            inputMode="numeric"
            min={limits.minG}
            max={limits.maxG}
            step={limits.stepG}
            value={value}
            onChange={(event) => onChange(event.currentTarget.value)}
            className={inputClass}
          />
          <input
            type="range"
            aria-label={t('calculator.shipping.weightSlider')}
            min={limits.minG}
            max={limits.maxG}
            step={limits.stepG}
            value={sliderValue}
            disabled={!hydrated}
            onChange={(event) => onChange(event.currentTarget.value)}
            className="w-full accent-red-700"
          />
        </div>
      )}
    </FormField>
  )
}
