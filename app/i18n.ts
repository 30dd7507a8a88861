import i18next, { type i18n } from 'i18next'
import { use } from 'react'
import { initReactI18next, useTranslation } from 'react-i18next'
import type { Language } from '#core/preferences/preferences.ts'
import { BUNDLES, type BundleName, bundlesFor } from './locales/areas.ts'
import type en from './locales/en.ts'

export type Messages = typeof en

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Messages }
  }
}

const loadedBundles = new WeakMap<i18n, Set<BundleName>>()

/**
 * An i18next instance for one language holding the given bundles (app/locales/areas.ts). The
 * browser loads only the page's language and areas (see entry.client.tsx); switching language
 * reloads the document.
 */
export function createI18n(language: Language, bundles: Partial<Record<BundleName, object>>): i18n {
  const instance = i18next.createInstance()
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation: {} } },
    interpolation: { escapeValue: false },
    initAsync: false,
  })
  loadedBundles.set(instance, new Set())
  for (const [name, messages] of Object.entries(bundles)) addBundle(instance, name as BundleName, messages)
  return instance
}

function addBundle(instance: i18n, name: BundleName, messages: object) {
  instance.addResourceBundle(instance.language, 'translation', messages, true, false)
  loadedBundles.get(instance)?.add(name)
}

const loading = new Map<string, Promise<void>>()

function loadBundles(instance: i18n, names: BundleName[]): Promise<void> {
  const key = `${instance.language}:${names.join(' ')}`
  let promise = loading.get(key)
  if (!promise) {
    const language = instance.language as Language
    promise = Promise.all(names.map((name) => BUNDLES[language][name]())).then((modules) => {
      for (const [index, name] of names.entries()) addBundle(instance, name, modules[index]?.default ?? {})
    })
    loading.set(key, promise)
  }
  return promise
}

/**
 * Makes sure the strings of the matched routes' areas are there before the page renders. After
 * a client-side navigation into another area this suspends (inside the navigation's transition,
 * so the previous page stays until the strings arrive). The server renders with exactly the
 * page's areas already (entry.server.tsx), so it never waits here.
 */
export function useAreaStrings(matches: readonly { handle?: unknown }[]) {
  const { i18n: instance } = useTranslation()
  const loaded = loadedBundles.get(instance)
  const missing = bundlesFor(matches).filter((name) => !loaded?.has(name))
  if (missing.length > 0 && typeof document !== 'undefined') use(loadBundles(instance, missing))
}
