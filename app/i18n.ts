import i18next, { type i18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { Language } from '#core/preferences/preferences.ts'
import type en from './locales/en.ts'

export type Messages = typeof en

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages }
  }
}

/**
 * One i18next instance per document language. The browser loads only the language of the page
 * (see entry.client.tsx); switching language reloads the document.
 */
export function createI18n(language: Language, messages: Messages): i18n {
  const instance = i18next.createInstance()
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation: messages } },
    interpolation: { escapeValue: false },
    initAsync: false,
  })
  return instance
}
