import { requestContext } from '#app/context.ts'
import type { Route } from './+types/robots.ts'

export function loader({ context }: Route.LoaderArgs) {
  const { appUrl } = context.get(requestContext)
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /consent',
    '',
    `Sitemap: ${appUrl}/sitemap.xml`,
    '',
  ].join('\n')
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
