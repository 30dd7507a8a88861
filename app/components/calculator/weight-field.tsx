import { useTranslation } from 'react-i18next'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { parseGrams } from '#core/money/parse-yen.ts'
import { type ShippingMethod, WEIGHT_LIMITS, type WeightError } from '#core/pricing/pricing.ts'

/**
 * Weight as a text field (submitted with the form; text so "1.500" and "1,500 g" are read as people
 * mean them, `parseGrams`) and a slider bound to it. The slider needs JavaScript, so it stays
 * disabled until the page is interactive.
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
  const parsed = parseGrams(value)
  const sliderValue = parsed.ok ? Math.min(limits.maxG, Math.max(limits.minG, parsed.value)) : limits.defaultG
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
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={32}
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
