import type { i18n } from 'i18next'
import type { Language } from '#core/preferences/preferences.ts'
import { createI18n } from './i18n.ts'
import en from './locales/en.ts'
import es from './locales/es.ts'

// Instances are read-only after init, so one per language serves every request.
const instances: Record<Language, i18n> = { es: createI18n('es', es), en: createI18n('en', en) }

export function getServerI18n(language: Language): i18n {
  return instances[language]
}

/** A plain translate function for server code outside React (the JSON API, e-mails). */
export function translator(language: Language): (key: string, values?: Record<string, unknown>) => string {
  const instance = instances[language]
  return (key, values) => String(instance.t(key as never, values as never))
}
