import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { LANGUAGE_PARAM, LANGUAGES } from '#core/preferences/preferences.ts'

/**
 * EN/ES as plain links carrying `?lang=`: the server renders the chosen language and remembers
 * it in a cookie. A full document load, so only one language's strings ever reach the browser.
 */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation()
  const location = useLocation()
  return (
    <nav aria-label={t('language.label')} className={className}>
      <ul className="flex items-center gap-1">
        {LANGUAGES.map((language) => {
          const params = new URLSearchParams(location.search)
          params.set(LANGUAGE_PARAM, language)
          const isCurrent = i18n.language === language
          return (
            <li key={language}>
              <a
                href={`${location.pathname}?${params.toString()}`}
                hrefLang={language}
                lang={language}
                aria-current={isCurrent ? 'true' : undefined}
                className={`inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-2 text-sm font-semibold uppercase ${
                  isCurrent ? 'bg-red-700 text-white' : 'text-slate-700 hover:bg-slate-100'
                }`}
              >
                {language}
                {/* The visible code is part of the name (WCAG 2.5.3); the full name follows for screen readers. */}
                <span className="sr-only"> {t(`language.${language}`)}</span>
              </a>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
