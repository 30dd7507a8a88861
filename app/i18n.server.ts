import type { i18n } from 'i18next'
import type { Language } from '#core/preferences/preferences.ts'
import { createI18n } from './i18n.ts'
import type { BundleName } from './locales/areas.ts'
import enAccount from './locales/en/account.ts'
import enAdmin from './locales/en/admin.ts'
import enCommon from './locales/en/common.ts'
import enPublic from './locales/en/public.ts'
import en from './locales/en.ts'
import esAccount from './locales/es/account.ts'
import esAdmin from './locales/es/admin.ts'
import esCommon from './locales/es/common.ts'
import esPublic from './locales/es/public.ts'
import es from './locales/es.ts'

const PAGE_BUNDLES: Record<Language, Record<BundleName, object>> = {
  es: { common: esCommon, public: esPublic, account: esAccount, admin: esAdmin },
  en: { common: enCommon, public: enPublic, account: enAccount, admin: enAdmin },
}

// Instances are read-only after init, so one per language and set of areas serves every request.
const pageInstances = new Map<string, i18n>()

/**
 * The instance a page renders with: its language and exactly its areas, the same strings the
 * browser will hydrate with (a string from an area the page did not name shows as its key).
 */
export function getServerI18n(language: Language, bundles: BundleName[]): i18n {
  const key = `${language}:${bundles.join(' ')}`
  let instance = pageInstances.get(key)
  if (!instance) {
    instance = createI18n(
      language,
      Object.fromEntries(bundles.map((name) => [name, PAGE_BUNDLES[language][name]])),
    )
    pageInstances.set(key, instance)
  }
  return instance
}

const everything: Record<Language, i18n> = {
  es: createI18n('es', { common: es }),
  en: createI18n('en', { common: en }),
}

/** A plain translate function over every string, e-mails included, for server code outside React. */
export function translator(language: Language): (key: string, values?: Record<string, unknown>) => string {
  const instance = everything[language]
  return (key, values) => String(instance.t(key as never, values as never))
}
