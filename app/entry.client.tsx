import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { type Language, parseLanguage } from '#core/preferences/preferences.ts'
import { createI18n, type Messages } from './i18n.ts'

const loadMessages: Record<Language, () => Promise<{ default: Messages }>> = {
  es: () => import('./locales/es.ts'),
  en: () => import('./locales/en.ts'),
}

// The server rendered <html lang>; load only that language's strings before hydrating.
const language = parseLanguage(document.documentElement.lang) ?? 'es'
const { default: messages } = await loadMessages[language]()
const i18n = createI18n(language, messages)

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <HydratedRouter />
      </I18nextProvider>
    </StrictMode>,
  )
})
