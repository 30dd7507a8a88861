import { requestContext } from '#app/context.ts'
import { readStoreLogo } from '#core/catalog/store-editor.ts'
import type { Route } from './+types/store-logo.ts'

// /store-logos/:id-:sha.png: a store's uploaded logo, our own PNG re-encoding (never the
// upload; docs/decisions/026-store-guide-editor.md). The address changes with the logo, so it is
// cached for good; an old or made-up address is a 404.

export async function loader({ params, context }: Route.LoaderArgs) {
  const match = /^(\d{1,9})-([0-9a-f]{16})\.png$/.exec(params.file ?? '')
  const png = match
    ? await readStoreLogo(context.get(requestContext).db, Number(match[1]), match[2] ?? '')
    : null
  if (!png) {
    return new Response('Not found', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    })
  }
  return new Response(png as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': 'image/png',
      'Content-Length': String(png.byteLength),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': 'inline',
    },
  })
}
