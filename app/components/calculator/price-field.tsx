import { useTranslation } from 'react-i18next'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { formatMoney } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { MAX_ITEM_PRICE_JPY, type PriceError } from '#core/pricing/pricing.ts'

/** A yen price typed as text (so any mistake gets our message, not the browser's). */
export function PriceField({
  id,
  name,
  label,
  hint,
  value,
  error,
  language,
  onChange,
}: {
  id: string
  name: string
  label: string
  hint?: string
  value: string
  error: PriceError | null
  language: Language
  onChange: (value: string) => void
}) {
  const { t } = useTranslation()
  const message = error
    ? t(`calculator.errors.price.${error}`, { max: formatMoney(MAX_ITEM_PRICE_JPY, 'JPY', language) })
    : null
  return (
    <FormField id={id} label={label} hint={hint ?? null} error={message}>
      {(control) => (
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
      )}
    </FormField>
  )
}
