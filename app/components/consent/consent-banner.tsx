import { useTranslation } from 'react-i18next'
import { Form, useLocation } from 'react-router'

/** Asks once about third-party content; shown only when the site has widgets configured. */
export function ConsentBanner() {
  const { t } = useTranslation()
  const location = useLocation()
  return (
    <section
      aria-labelledby="consent-heading"
      className="sticky bottom-0 z-30 border-t border-slate-300 bg-white px-4 py-4 shadow-[0_-4px_12px_rgba(0,0,0,0.08)]"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 id="consent-heading" className="font-semibold text-slate-900">
            {t('consent.label')}
          </h2>
          <p className="text-sm text-slate-700">{t('consent.text')}</p>
        </div>
        <Form method="post" action="/consent" className="flex shrink-0 gap-2">
          <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
          <button
            type="submit"
            name="choice"
            value="denied"
            className="min-h-11 rounded-md border border-slate-400 bg-white px-4 font-semibold text-slate-900"
          >
            {t('consent.reject')}
          </button>
          <button
            type="submit"
            name="choice"
            value="granted"
            className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white"
          >
            {t('consent.accept')}
          </button>
        </Form>
      </div>
    </section>
  )
}

/** In the footer: forget the answer so the banner asks again. */
export function ConsentSettingsButton() {
  const { t } = useTranslation()
  const location = useLocation()
  return (
    <Form method="post" action="/consent">
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <button
        type="submit"
        name="choice"
        value="reset"
        className="inline-flex min-h-11 items-center text-slate-200 underline underline-offset-4"
      >
        {t('consent.settings')}
      </button>
    </Form>
  )
}
