import { useTranslation } from 'react-i18next'
import { Form, useLocation, useSubmit } from 'react-router'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { CURRENCIES, CURRENCY_PARAM, type Currency, LANGUAGE_PARAM } from '#core/preferences/preferences.ts'

/**
 * Display currency. A GET form to the current page with `?currency=`: the server remembers it
 * in a cookie. With JavaScript it submits on change; without, an Apply button shows (hidden from
 * the first paint where scripting is on: app.css; the page's script submits before hydration).
 */
export function CurrencySelect({
  current,
  idPrefix,
  compact = false,
}: {
  current: Currency
  idPrefix: string
  /** The label is for screen readers only (the header bar, where the select speaks for itself). */
  compact?: boolean
}) {
  const { t } = useTranslation()
  const location = useLocation()
  const submit = useSubmit()
  const hydrated = useHydrated()
  const kept = [...new URLSearchParams(location.search)].filter(
    ([name]) => name !== CURRENCY_PARAM && name !== LANGUAGE_PARAM,
  )
  const id = `${idPrefix}-currency`
  return (
    <Form method="get" action={location.pathname} className="flex items-center gap-2" preventScrollReset>
      {kept.map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={id} className={compact ? 'sr-only' : 'text-sm text-slate-700'}>
        {t('currency.label')}
      </label>
      <select
        id={id}
        name={CURRENCY_PARAM}
        key={current}
        defaultValue={current}
        data-autosubmit
        onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true, replace: true })}
        className="min-h-11 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
      >
        {CURRENCIES.map((currency) => (
          <option key={currency} value={currency}>
            {t(`currency.${currency}`)}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" data-no-js className="min-h-11 rounded-md border border-slate-300 px-3 text-sm">
          {t('currency.apply')}
        </button>
      )}
    </Form>
  )
}
