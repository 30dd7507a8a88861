import { type ReactNode, useEffect } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { createI18n } from '#app/i18n.ts'
import { parseLanguage } from '#core/preferences/preferences.ts'

/**
 * Hydrates one island (app/islands/island.tsx) with the props and the strings the server
 * rendered it with (in the language of <html lang>), and marks its container
 * `data-island-ready` once React owns it.
 */
export function hydrateIsland<Props extends object>(name: string, render: (props: Props) => ReactNode) {
  const container = document.querySelector<HTMLElement>(`[data-island="${name}"]`)
  const json = document.getElementById(`${name}-island-props`)?.textContent
  if (!container || !json) return
  const { props, strings } = JSON.parse(json) as { props: Props; strings: object }
  const i18n = createI18n(parseLanguage(document.documentElement.lang) ?? 'es', { public: strings })
  hydrateRoot(
    container,
    <I18nextProvider i18n={i18n}>
      <Ready container={container}>{render(props)}</Ready>
    </I18nextProvider>,
  )
}

function Ready({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    container.dataset.islandReady = 'true'
  }, [container])
  return children
}
