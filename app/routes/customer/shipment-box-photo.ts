import { matchesEtag, PHOTO_CACHE_CONTROL, photoRefusal } from '#app/lib/request-photo.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import { getBoxPhoto } from '#core/shipping/shipment-service.ts'
import type { Route } from './+types/shipment-box-photo.ts'

// The photo staff took of a packed box (or its thumbnail, `/thumb`), for the shipment's owner and
// staff only; anyone else gets the 404 of a missing photo. Cached by the browser only, with an
// ETag (a photo never changes: a new one has a new key).

async function resource({ request, params, context }: Route.LoaderArgs) {
  const size = new URL(request.url).pathname.endsWith('/thumb') ? 'thumb' : 'full'
  let photo: Awaited<ReturnType<typeof getBoxPhoto>>
  try {
    const orders = getOrderContext(context)
    photo = await getBoxPhoto(orders, orders.files, params.id, size)
  } catch (error) {
    return photoRefusal(error, context)
  }
  const caching = { ETag: photo.etag, 'Cache-Control': PHOTO_CACHE_CONTROL }
  if (matchesEtag(request.headers.get('If-None-Match'), photo.etag)) {
    return new Response(null, { status: 304, headers: caching })
  }
  return new Response(photo.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...caching,
      'Content-Type': 'image/webp',
      'Content-Length': String(photo.bytes.byteLength),
      'Content-Disposition': `inline; filename="${photo.number}-box${size === 'thumb' ? '-thumb' : ''}.webp"`,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    },
  })
}

// The photo, or for a browser refused by the guard the guard page (app/middleware/guarded-file.server.ts).
export const middleware: Route.MiddlewareFunction[] = [guardedFile(resource)]

export default function BoxPhoto() {
  return null
}
