import { requestContext } from '#app/context.ts'
import { PUBLIC_PATHS } from '#app/lib/page-kind.ts'
import { LANGUAGES } from '#core/preferences/preferences.ts'
import type { Route } from './+types/sitemap.ts'

export function loader({ context }: Route.LoaderArgs) {
  const { appUrl } = context.get(requestContext)
  const xmlEscape = (value: string) => value.replaceAll('&', '&amp;').replaceAll('<', '&lt;')
  // The public pages; each in both languages, with its alternates.
  const urls = PUBLIC_PATHS.flatMap((page) =>
    LANGUAGES.map((language) => {
      const alternates = LANGUAGES.map(
        (alternate) =>
          `    <xhtml:link rel="alternate" hreflang="${alternate}" href="${xmlEscape(`${appUrl}${page}?lang=${alternate}`)}"/>`,
      ).join('\n')
      return `  <url>\n    <loc>${xmlEscape(`${appUrl}${page}?lang=${language}`)}</loc>\n${alternates}\n  </url>`
    }),
  )
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`
  return new Response(body, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
