import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useDocumentAssets } from '#app/components/document-scripts.tsx'
import { useNonce } from '#app/components/nonce.tsx'

/**
 * The interactive part of a document page (app/lib/page-kind.ts, ADR 044): rendered on the server
 * inside the page like any other part, then hydrated alone in the browser by its own small script
 * (React DOM and the part's code, no router): `app/islands/<name>.client.tsx`, built by
 * vite.islands.config.ts. The props go beside it as JSON, the same the server rendered with, and
 * so do the strings it shows (`strings`: the top-level keys of the locale files it reads), so the
 * island fetches no locale bundle. Rendered in the browser (a page the hydrated app navigated
 * to), it is just its children.
 */
export function Island({
  name,
  props,
  strings,
  children,
}: {
  name: string
  props: object
  strings: string[]
  children: ReactNode
}) {
  const assets = useDocumentAssets().island(name)
  const nonce = useNonce()
  const { i18n } = useTranslation()
  const data = assets
    ? {
        props,
        strings: Object.fromEntries(
          strings.map((key) => [key, i18n.getResource(i18n.language, 'translation', key) as unknown]),
        ),
      }
    : null
  return (
    <>
      <div data-island={name}>{children}</div>
      {assets && data ? (
        <>
          <script
            type="application/json"
            id={`${name}-island-props`}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with "<" escaped, never run
            dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replaceAll('<', '\\u003c') }}
          />
          {assets.preloads.map((href) => (
            <link key={href} rel="modulepreload" href={href} nonce={nonce || undefined} />
          ))}
          <script type="module" src={assets.src} nonce={nonce || undefined} />
        </>
      ) : null}
    </>
  )
}
