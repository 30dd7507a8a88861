import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { parseLanguage } from '#core/preferences/preferences.ts'
import { browserNonce, NonceProvider } from './components/nonce.tsx'
import { createI18n } from './i18n.ts'
import { BUNDLES, type BundleName } from './locales/areas.ts'

// The server rendered <html lang> and the page's string bundles (its areas); load only those,
// in that language, before hydrating. Other areas load when a page of theirs is shown.
const root = document.documentElement
const language = parseLanguage(root.lang) ?? 'es'
const names = (root.dataset.i18nBundles ?? 'common')
  .split(' ')
  .filter((name): name is BundleName => name in BUNDLES[language])
const modules = await Promise.all(names.map((name) => BUNDLES[language][name]()))
const i18n = createI18n(
  language,
  Object.fromEntries(names.map((name, index) => [name, modules[index]?.default])),
)

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <NonceProvider value={browserNonce()}>
        <I18nextProvider i18n={i18n}>
          <HydratedRouter />
        </I18nextProvider>
      </NonceProvider>
    </StrictMode>,
  )
})
