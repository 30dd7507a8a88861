import { useLocation } from 'react-router'
import { useRootData } from '#app/lib/root-data.ts'
import { LANGUAGES, type Language } from '#core/preferences/preferences.ts'
import { useNonce } from './nonce.tsx'

const OG_LOCALE: Record<Language, string> = { es: 'es_ES', en: 'en_US' }

/**
 * Title, description, canonical URL, hreflang alternates and OpenGraph tags of a page; React
 * hoists them into <head>. One URL per language (`?lang=`), the bare path as x-default.
 * `keepQuery` names the query parameters that make a different page (e.g. a store category).
 */
export function PageMeta({
  title,
  description,
  keepQuery = [],
}: {
  title: string
  description: string
  keepQuery?: string[]
}) {
  const location = useLocation()
  const root = useRootData()
  const language = root?.language ?? 'es'
  const siteName = root?.settings.company.name
  const base = root?.appUrl ?? ''
  const urlFor = (lang: Language | null) => {
    const current = new URLSearchParams(location.search)
    const params = new URLSearchParams()
    for (const key of keepQuery) {
      const value = current.get(key)
      if (value) params.set(key, value)
    }
    if (lang) params.set('lang', lang)
    const query = params.toString()
    return `${base}${location.pathname}${query ? `?${query}` : ''}`
  }
  const fullTitle = siteName ? `${title} | ${siteName}` : title
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={urlFor(language)} />
      {LANGUAGES.map((lang) => (
        <link key={lang} rel="alternate" hrefLang={lang} href={urlFor(lang)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={urlFor(null)} />
      <meta property="og:type" content="website" />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={urlFor(language)} />
      <meta property="og:locale" content={OG_LOCALE[language]} />
      {siteName ? <meta property="og:site_name" content={siteName} /> : null}
    </>
  )
}

/** Structured data (JSON-LD). `<` is escaped so no value can close the script element. */
export function JsonLd({ data }: { data: object }) {
  const nonce = useNonce()
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with every "<" escaped
      dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replaceAll('<', '\\u003c') }}
    />
  )
}
